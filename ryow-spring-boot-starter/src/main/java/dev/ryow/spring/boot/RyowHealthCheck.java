package dev.ryow.spring.boot;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The health of the application's {@code jdbc:ryow:} DataSource, for both Spring Boot lines' health
 * indicators: up while the primary answers (a pooled connection's {@code isValid}), with the cluster's
 * replicas in and out of rotation, applier lag and fallback use as details; {@code degraded} when a
 * replica is out of rotation (reads then go to the remaining replicas or the primary: the application
 * still works, so the status stays up).
 */
public final class RyowHealthCheck {
  /** Seconds {@code isValid} may take. */
  static final int VALID_TIMEOUT_SECONDS = 3;

  /** One check's outcome. */
  public record Result(boolean up, Map<String, Object> details, @Nullable Exception error) {}

  private final ObjectProvider<DataSource> dataSource;
  private final RyowSettings settings;

  /**
   * A check of the application's (unique or primary) DataSource.
   *
   * @param dataSource the DataSource
   * @param settings the configuration, for the consistency mode
   */
  public RyowHealthCheck(ObjectProvider<DataSource> dataSource, RyowSettings settings) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /** Borrows a connection, asks the primary whether it is alive, and reads the cluster's figures. */
  public Result check() {
    DataSource ds = dataSource.getIfUnique();
    if (ds == null) {
      return new Result(false, Map.of("error", "no unique DataSource"), null);
    }
    try (Connection c = ds.getConnection()) {
      boolean valid = c.isValid(VALID_TIMEOUT_SECONDS);
      if (!c.isWrapperFor(RyowConnection.class)) {
        return new Result(false, Map.of("error", "the DataSource's connections are not jdbc:ryow: connections"), null);
      }
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      Map<String, Object> details = details(ryow.clusterName(), settings.consistency(), ryow.clusterMetrics());
      if (!valid) {
        details.put("error", "the primary did not answer within " + VALID_TIMEOUT_SECONDS + " s");
      }
      return new Result(valid, details, null);
    } catch (SQLException | RuntimeException e) {
      return new Result(false, Map.of(), e);
    }
  }

  /** The details for one cluster's figures (the primary serves, or the check would be down). */
  static Map<String, Object> details(String cluster, ConsistencyMode mode, MetricsSnapshot m) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("cluster", cluster);
    details.put("consistency", mode.name().toLowerCase(Locale.ROOT));
    boolean polled = !m.replicaStates().isEmpty();
    details.put("degraded", polled && (m.replicasOutOfRotation() > 0 || m.replicasInRotation() == 0));
    details.put("replicasInRotation", m.replicasInRotation());
    details.put("replicasOutOfRotation", m.replicasOutOfRotation());
    details.put("replicas", replicas(m.replicaStates()));
    details.put("maxApplierLagMillis", m.maxApplierLagMillis());
    details.put("fallbacksToPrimary", m.fallbacksToPrimary());
    details.put("fallbacksRejected", m.fallbacksRejected());
    details.put("fallbacksThrottled", m.fallbacksThrottled());
    details.put("staleReads", m.staleReads());
    details.put("replicaShare", Math.round(m.replicaShare() * 1000) / 1000.0);
    return details;
  }

  /** {@code h:p=UP lag=0ms waiters=0; h2:p2=LAGGING ...} as {@code {h:p: "UP lag=0ms waiters=0", ...}}. */
  static Map<String, String> replicas(String states) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String entry : states.split("; ", -1)) { // empty entries have no "=": skipped
      int eq = entry.indexOf('=');
      if (eq > 0) {
        out.put(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    return out;
  }
}
