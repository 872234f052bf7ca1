package dev.ryow.bench.stub;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.proxy.LogicalConnection;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.ServerPosition;
import dev.ryow.jdbc.server.ServerStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * A stub primary and replica ({@link StubDriver}) and the two ways to reach them: raw stub
 * connections, and {@code jdbc:ryow:} logical connections whose physical connections are stub
 * connections (through {@link ConnectorJ}'s driver seam), with the driver's defaults.
 */
public final class StubCluster {
  /** The stub primary's address. */
  public static final String PRIMARY = "stub-primary:3306";
  /** The stub replica's address. */
  public static final String REPLICA = "stub-replica:3307";
  static final String DATABASE = "bench";

  private final StubDriver driver = new StubDriver(PRIMARY);
  private final RyowConfig config;
  private final ConnectorJ connector = new ConnectorJ(driver);
  private final Cluster cluster;

  /** A cluster; {@code ryowParameters} ({@code key=value}) are added to the {@code jdbc:ryow:} URL. */
  public StubCluster(String... ryowParameters) throws SQLException {
    StringBuilder url = new StringBuilder("jdbc:ryow:mysql://" + PRIMARY + "," + REPLICA + "/" + DATABASE);
    for (String p : ryowParameters) {
      url.append(url.indexOf("?") < 0 ? '?' : '&').append(p);
    }
    config = RyowConfig.from(url.toString(), new Properties());
    cluster = new Cluster(config, connector);
  }

  /** A raw stub connection to the primary, or to the replica. */
  public Connection raw(boolean primary) {
    return driver.connect(StubDriver.url(primary ? PRIMARY : REPLICA, DATABASE), new Properties());
  }

  /** A {@code jdbc:ryow:} logical connection over stub connections. */
  public Connection ryow() throws SQLException {
    return LogicalConnection.open(cluster, config, connector);
  }

  /** What ryow's poller reads from the stub primary, or the stub replica, over a monitor connection. */
  public ServerStatus status(boolean primary) throws SQLException {
    try (PhysicalConnection monitor = connector.openMonitor(config, primary ? config.primary() : config.replicas().get(0))) {
      return monitor.readStatus();
    }
  }

  /** What ryow reads on demand ({@code gtid_owned}, {@code gtid_executed}) from the stub primary. */
  public ServerPosition primaryPosition() throws SQLException {
    try (PhysicalConnection monitor = connector.openMonitor(config, config.primary())) {
      return monitor.readPosition();
    }
  }

  /** The cluster's classification cache holds {@code sql} (what the smoke test checks for prepared statements). */
  public boolean classificationCached(String sql) {
    return cluster.classifications().cached(sql) != null;
  }
}
