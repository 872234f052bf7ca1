package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.RyowDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** {@link RyowDataSource} configured by bean properties connects through the driver's own path. */
class DataSourceIT {

  @Test
  void beanConfiguredDataSourceRoutesAndSharesTheDriversCluster() throws SQLException {
    String clusterName = "datasource-it-" + System.nanoTime();
    String url = "jdbc:ryow:mysql://" + Topology.HOST + ":" + Topology.PRIMARY_PORT + "," + Topology.HOST + ":"
        + REPLICA_PORTS.get(0) + "/" + Topology.DATABASE;
    RyowDataSource ds = new RyowDataSource();
    ds.setUrl(url);
    ds.setUsername(Topology.USER);
    ds.setPassword(Topology.PASSWORD);
    ds.setConnectionProperties("ryow.clusterName=" + clusterName + ";ryow.waitTimeout=200");
    ds.setLoginTimeout(5);

    try (Connection fromDriver = DriverManager.getConnection(
            url + "?ryow.clusterName=" + clusterName + "&ryow.waitTimeout=200", Topology.USER, Topology.PASSWORD);
        Connection fromDataSource = ds.getConnection();
        Statement s = fromDataSource.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@port")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(REPLICA_PORTS.get(0));
      // Same settings, same cluster: the driver's connection sees the data source's replica read.
      assertThat(fromDriver.unwrap(RyowConnection.class).clusterMetrics().replicaReads()).isEqualTo(1);
    }
  }
}
