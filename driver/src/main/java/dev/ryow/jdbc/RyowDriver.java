package dev.ryow.jdbc;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.ClusterRegistry;
import dev.ryow.jdbc.config.ConnectionProperties;
import dev.ryow.jdbc.config.Masking;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.RyowProperty;
import dev.ryow.jdbc.config.RyowUrl;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import dev.ryow.jdbc.proxy.LogicalConnection;
import dev.ryow.jdbc.server.ConnectorJ;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * The {@code jdbc:ryow:} driver. Registered with {@link DriverManager} through
 * {@code META-INF/services/java.sql.Driver}; answers {@code null} for every other URL, so it
 * coexists with Connector/J's own driver.
 *
 * <p>URL: {@code jdbc:ryow:mysql://PRIMARY[:PORT],REPLICA[:PORT].../[DATABASE][?key=value&...]}.
 * Keys starting with {@code ryow.} configure this driver; all others pass to Connector/J.
 */
public final class RyowDriver implements Driver {
  /** The full version of this driver (the Maven project version), e.g. {@code 0.1.0}. */
  public static final String VERSION = DriverVersion.TEXT;
  /** Major version of this driver, from {@link #VERSION}. */
  public static final int MAJOR_VERSION = DriverVersion.MAJOR;
  /** Minor version of this driver, from {@link #VERSION}. */
  public static final int MINOR_VERSION = DriverVersion.MINOR;

  /** Shared by every instance: a pool that instantiates the driver itself gets the same clusters and pollers. */
  private static final ClusterRegistry CLUSTERS = new ClusterRegistry();
  private static final RyowDriver INSTANCE = new RyowDriver();

  static {
    try {
      DriverManager.registerDriver(INSTANCE);
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static volatile @Nullable ConnectorJ connector;

  /** Creates a driver; {@link DriverManager} uses the instance registered when the class loads. */
  public RyowDriver() {}

  @Override
  public @Nullable Connection connect(@Nullable String url, @Nullable Properties info) throws SQLException {
    if (url == null) {
      throw new SQLException("The URL is null", "08001");
    }
    if (!RyowUrl.accepts(url)) {
      return null;
    }
    try {
      RyowConfig config = RyowConfig.from(url, info == null ? new Properties() : info);
      ConnectorJ connectorJ = connector();
      Cluster cluster = CLUSTERS.reserve(config, connectorJ, VERSION);
      try {
        return LogicalConnection.open(cluster, config, connectorJ);
      } catch (SQLException | RuntimeException e) {
        cluster.cancelReservation();
        throw e;
      }
    } catch (RuntimeException e) {
      throw new SQLException("Unexpected failure opening a " + RyowUrl.SCHEME + " connection: " + e, "08001", e);
    }
  }

  /**
   * The counters of the cluster that {@code url} and {@code info} describe (the same arguments as
   * {@link #connect}), if a connection through the registered driver or {@link RyowDataSource} has
   * created that cluster in this JVM; empty before the first connection. Opens nothing and sends
   * nothing to any server: for monitoring code that must not connect (a metrics scrape).
   *
   * @throws SQLException if {@code url} is not a valid {@code jdbc:ryow:} URL or a {@code ryow.*} setting is invalid
   */
  public static Optional<MetricsSnapshot> clusterMetrics(String url, Properties info) throws SQLException {
    if (!RyowUrl.accepts(url)) {
      throw new SQLException("Not a " + RyowUrl.SCHEME + " URL", "08001");
    }
    return CLUSTERS.find(RyowConfig.from(url, info).clusterKey()).map(c -> c.metrics().snapshot());
  }

  /** The instance registered with {@link DriverManager}; {@link RyowDataSource} connects through it. */
  static RyowDriver registered() {
    return INSTANCE;
  }

  private static ConnectorJ connector() throws SQLException {
    ConnectorJ c = connector;
    if (c == null) {
      c = new ConnectorJ();
      connector = c;
    }
    return c;
  }

  @Override
  public boolean acceptsURL(@Nullable String url) {
    return url != null && RyowUrl.accepts(url);
  }

  /**
   * Every {@code ryow.*} property with its description, default and choices, followed by
   * Connector/J's properties for the pass-through part. Values given in {@code info} or in the
   * URL's parameters ({@code info} wins, as at {@code connect} and with Connector/J) are reported as the current values, except
   * secrets ({@code password}, {@code ryow.tokenKey}, any key {@link Masking#isSecretKey}): their value
   * is always null, and they are not handed to Connector/J.
   */
  @Override
  public DriverPropertyInfo[] getPropertyInfo(@Nullable String url, @Nullable Properties info) throws SQLException {
    Properties given = new Properties();
    if (url != null && RyowUrl.accepts(url)) {
      RyowUrl.parse(url).parameters().forEach(given::setProperty);
    }
    if (info != null) {
      ConnectionProperties.text(info).forEach(given::setProperty);
    }
    List<DriverPropertyInfo> all = new ArrayList<>();
    for (RyowProperty<?> property : RyowProperties.ALL) {
      String current = Masking.isSecretKey(property.name()) ? null : given.getProperty(property.name(), property.defaultText());
      DriverPropertyInfo pi = new DriverPropertyInfo(property.name(), current);
      pi.description = property.description() + " Accepted: " + property.accepted() + ". Default: "
          + property.defaultText() + ".";
      pi.required = false;
      pi.choices = property.choices().isEmpty() ? null : property.choices().toArray(String[]::new);
      all.add(pi);
    }
    Properties passThrough = new Properties();
    for (String key : given.stringPropertyNames()) {
      if (!key.regionMatches(true, 0, RyowProperties.PREFIX, 0, RyowProperties.PREFIX.length())
          && !Masking.isSecretKey(key)) {
        passThrough.setProperty(key, given.getProperty(key));
      }
    }
    // Connector/J lists user and password twice, and host/port/dbname, which the jdbc:ryow: URL names.
    java.util.Set<String> seen = new java.util.HashSet<>(List.of("host", "port", "dbname"));
    for (DriverPropertyInfo pi : connector().propertyInfo("jdbc:mysql://localhost/", passThrough)) {
      if (seen.add(pi.name)) {
        if (Masking.isSecretKey(pi.name)) {
          pi.value = null;
        }
        all.add(pi);
      }
    }
    return all.toArray(DriverPropertyInfo[]::new);
  }

  @Override
  public int getMajorVersion() {
    return MAJOR_VERSION;
  }

  @Override
  public int getMinorVersion() {
    return MINOR_VERSION;
  }

  /** False: this driver adds routing on top of Connector/J, which is not fully JDBC compliant either. */
  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  /** Not supported: this driver logs through SLF4J. */
  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("ryow-jdbc logs through SLF4J, not java.util.logging");
  }
}
