package dev.ryow.spring.boot;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.RyowDriver;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.config.ConfigException;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The {@code jdbc:ryow:} configuration of the application's DataSource as Spring configuration
 * describes it: {@code spring.datasource.url}, {@code spring.datasource.hikari.data-source-properties}
 * and the {@code ryow.*} settings, validated by the driver at startup. The consistency filter takes its
 * token settings from it, the info contributor its figures and the meter binder its cluster.
 */
public final class RyowSettings {
  private final String url;
  private final Properties connectionProperties;
  private final RyowConfig config;

  private RyowSettings(String url, Properties connectionProperties, RyowConfig config) {
    this.url = url;
    this.connectionProperties = connectionProperties;
    this.config = config;
  }

  /**
   * Reads and validates the configuration.
   *
   * @throws IllegalStateException with the driver's message if a setting is invalid or given twice
   */
  public static RyowSettings from(Environment environment, RyowDriverSettings driverSettings) {
    Binder binder = Binder.get(environment);
    String url = binder.bind("spring.datasource.url", String.class)
        .orElseThrow(() -> new IllegalStateException("spring.datasource.url is not set"));
    Properties properties = new Properties();
    binder.bind("spring.datasource.hikari.data-source-properties", Bindable.mapOf(String.class, String.class))
        .orElse(Map.of())
        .forEach(properties::setProperty);
    driverSettings.addTo(url, properties, "spring.datasource");
    try {
      return new RyowSettings(url, properties, RyowConfig.from(url, properties));
    } catch (ConfigException e) {
      throw new IllegalStateException("spring.datasource: " + e.getMessage(), e);
    }
  }

  /** The validated configuration (URL parameters, data source properties and Spring settings). */
  public RyowConfig config() {
    return config;
  }

  /** How the filter reads and writes tokens: {@code ryow.token-key} and the token bounds. */
  public TokenCodec tokenCodec() {
    return TokenCodec.of(config);
  }

  /** {@code ryow.consistency} as the driver will apply it. */
  public ConsistencyMode consistency() {
    return config.get(RyowProperties.CONSISTENCY);
  }

  /**
   * The mode of each HTTP request's {@link dev.ryow.jdbc.ConsistencyScope}: the configured mode where it
   * already includes the scope's writes ({@code jvm}, {@code scope}, {@code latest}), {@code none} kept as
   * chosen, and {@code scope} instead of {@code connection}, which would ignore the request's token.
   */
  public ConsistencyMode requestScopeMode() {
    return switch (consistency()) {
      case JVM, LATEST, NONE -> consistency();
      case SCOPE, CONNECTION -> ConsistencyMode.SCOPE;
    };
  }

  /** The cluster's name ({@code ryow.cluster-name}, or the primary's {@code host:port}). */
  public String clusterName() {
    return config.clusterName();
  }

  /** Whether tokens are signed ({@code ryow.token-key} set). */
  public boolean tokensSigned() {
    return !config.get(RyowProperties.TOKEN_KEY).isEmpty();
  }

  /**
   * The cluster's counters in this JVM, without connecting: all zero before the DataSource's first
   * connection created the cluster.
   */
  public MetricsSnapshot clusterMetrics() {
    try {
      return RyowDriver.clusterMetrics(url, connectionProperties).orElse(MetricsSnapshot.EMPTY);
    } catch (SQLException validatedAtStartup) {
      return MetricsSnapshot.EMPTY;
    }
  }

  /** The configuration with secrets masked. */
  @Override
  public String toString() {
    return "RyowSettings[" + Objects.toString(config) + "]";
  }
}
