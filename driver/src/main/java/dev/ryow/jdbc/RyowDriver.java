package dev.ryow.jdbc;

import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.RyowProperty;
import dev.ryow.jdbc.config.RyowUrl;
import dev.ryow.jdbc.proxy.LogicalConnection;
import dev.ryow.jdbc.route.Cluster;
import dev.ryow.jdbc.server.ConnectorJ;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
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
  /** Major version of this driver. */
  public static final int MAJOR_VERSION = 0;
  /** Minor version of this driver. */
  public static final int MINOR_VERSION = 1;

  private static final RyowDriver INSTANCE = new RyowDriver();

  static {
    try {
      DriverManager.registerDriver(INSTANCE);
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ConcurrentMap<String, Cluster> clusters = new ConcurrentHashMap<>();
  private volatile @Nullable ConnectorJ connector;

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
      Cluster cluster = clusters.computeIfAbsent(config.clusterKey(), key -> new Cluster(config, connectorJ));
      return LogicalConnection.open(cluster, config, connectorJ);
    } catch (RuntimeException e) {
      throw new SQLException("Unexpected failure opening a " + RyowUrl.SCHEME + " connection: " + e, "08001", e);
    }
  }

  private ConnectorJ connector() throws SQLException {
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
   * Connector/J's properties for the pass-through part.
   */
  @Override
  public DriverPropertyInfo[] getPropertyInfo(@Nullable String url, @Nullable Properties info) throws SQLException {
    Properties given = info == null ? new Properties() : info;
    List<DriverPropertyInfo> all = new ArrayList<>();
    for (RyowProperty<?> property : RyowProperties.ALL) {
      DriverPropertyInfo pi =
          new DriverPropertyInfo(property.name(), given.getProperty(property.name(), property.defaultText()));
      pi.description = property.description() + " Accepted: " + property.accepted() + ". Default: " + property.defaultText() + ".";
      pi.required = false;
      pi.choices = property.choices().isEmpty() ? null : property.choices().toArray(String[]::new);
      all.add(pi);
    }
    for (DriverPropertyInfo pi : connector().propertyInfo("jdbc:mysql://localhost/", given)) {
      all.add(pi);
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
