package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.RyowDriver;
import dev.ryow.jdbc.ServerRole;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Discovery through the real ServiceLoader file, and what connect does with good and bad input. */
class DriverIT {

  @Test
  void driverManagerFindsTheDriverThroughServiceLoader() throws SQLException {
    assertThat(Collections.list(DriverManager.getDrivers())).anyMatch(d -> d instanceof RyowDriver);
    Driver driver = DriverManager.getDriver(Topology.ryowUrl());
    assertThat(driver).isInstanceOf(RyowDriver.class);
    // Connector/J's own driver still answers jdbc:mysql: URLs.
    assertThat(DriverManager.getDriver("jdbc:mysql://127.0.0.1:" + PRIMARY_PORT + "/"))
        .isNotInstanceOf(RyowDriver.class);
  }

  @Test
  void foreignUrlsAreNotOurs() throws SQLException {
    assertThat(new RyowDriver().connect("jdbc:mysql://127.0.0.1:" + PRIMARY_PORT + "/ryow", new Properties())).isNull();
    assertThat(new RyowDriver().acceptsURL("jdbc:postgresql://x/y")).isFalse();
  }

  @Test
  void credentialsFromPropertiesWork() throws SQLException {
    String url = "jdbc:ryow:mysql://" + Topology.HOST + ":" + PRIMARY_PORT + "," + Topology.HOST + ":"
        + REPLICA_PORTS.get(0) + "/" + Topology.DATABASE;
    try (Connection c = DriverManager.getConnection(url, Topology.USER, Topology.PASSWORD);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@port")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(REPLICA_PORTS.get(0));
      assertThat(c.unwrap(RyowConnection.class).lastServerRole()).isEqualTo(ServerRole.REPLICA);
      assertThat(c.unwrap(RyowConnection.class).lastServerAddress()).isEqualTo(Topology.HOST + ":" + REPLICA_PORTS.get(0));
    }
  }

  @Test
  void badSettingsFailAtConnectNamingTheKey() {
    assertThatThrownBy(() -> Topology.ryow("ryow.waitTimeout=0"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("ryow.waitTimeout");
    assertThatThrownBy(() -> Topology.ryow("ryow.bogus=1"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("ryow.bogus");
  }

  @Test
  void unreachablePrimaryIsAClearErrorWithoutPasswordInIt() {
    String url = "jdbc:ryow:mysql://127.0.0.1:1,127.0.0.1:" + REPLICA_PORTS.get(0)
        + "/ryow?user=ryow&password=NotInMessages&connectTimeout=2000&ryow.failoverTimeout=0";
    assertThatThrownBy(() -> DriverManager.getConnection(url))
        .isInstanceOf(SQLException.class)
        .hasMessageNotContaining("NotInMessages")
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("08"));
  }

  @Test
  void unreachableReplicaFallsBackToThePrimary() throws SQLException {
    String url = "jdbc:ryow:mysql://" + Topology.HOST + ":" + PRIMARY_PORT + ",127.0.0.1:1/"
        + Topology.DATABASE + "?user=" + Topology.USER + "&password=" + Topology.PASSWORD + "&connectTimeout=2000";
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@port")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(PRIMARY_PORT);
    }
  }

  @Test
  void closeIsIdempotentAndClosesThePhysicalConnections() throws SQLException {
    Connection c = Topology.ryow();
    long primaryId = c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).getId();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1")) {
      rs.next();
    }
    c.close();
    c.close();
    assertThat(c.isClosed()).isTrue();
    assertThatThrownBy(c::createStatement).isInstanceOf(SQLException.class);
    // The server ends the session when it reads COM_QUIT; give it a moment.
    long sessions = -1;
    for (int attempt = 0; attempt < 50 && sessions != 0; attempt++) {
      sessions = Topology.queryLong(PRIMARY_PORT, "SELECT COUNT(*) FROM information_schema.processlist WHERE id = " + primaryId);
      if (sessions != 0) {
        try {
          Thread.sleep(40);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    assertThat(sessions).as("the primary session is gone").isZero();
  }
}
