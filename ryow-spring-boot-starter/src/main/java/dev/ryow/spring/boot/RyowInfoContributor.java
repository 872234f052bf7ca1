package dev.ryow.spring.boot;

import dev.ryow.jdbc.RyowDriver;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

/**
 * Adds {@code ryow} to {@code /actuator/info}: the driver's version, the cluster's name and hosts, the
 * consistency mode and whether tokens are signed. Reads the configuration only; never connects.
 */
public final class RyowInfoContributor implements InfoContributor {
  private final RyowSettings settings;

  /** A contributor for {@code settings}. */
  public RyowInfoContributor(RyowSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  @Override
  public void contribute(Info.Builder builder) {
    Map<String, Object> ryow = new LinkedHashMap<>();
    ryow.put("driverVersion", RyowDriver.VERSION);
    ryow.put("cluster", settings.clusterName());
    ryow.put("primary", settings.config().primary().address());
    ryow.put("replicas", settings.config().replicas().stream().map(h -> h.address()).toList());
    ryow.put("consistency", settings.consistency().name().toLowerCase(Locale.ROOT));
    ryow.put("tokensSigned", settings.tokensSigned());
    builder.withDetail("ryow", ryow);
  }
}
