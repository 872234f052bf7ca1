package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One server under two names in the URL ({@code 127.0.0.1:P} and {@code localhost:P}): the primary
 * listed again as a replica, or a replica listed twice. The connect is refused with a message that
 * names both entries and the {@code server_uuid} the server itself reports, and never the password.
 * The same URL with each server once connects as usual.
 */
class HostAliasIT {
  private static final String CREDENTIALS = "?user=" + Topology.USER + "&password=" + Topology.PASSWORD;

  @BeforeAll
  static void replicasUp() throws SQLException {
    Topology.resumeAppliers();
  }

  private static String uuidOf(int port) throws SQLException {
    try (Connection c = Topology.plain(port)) {
      return Topology.queryString(c, "SELECT @@server_uuid");
    }
  }

  @Test
  void thePrimaryListedAgainAsAReplicaUnderAnotherNameIsRefusedAtConnect() throws SQLException {
    String url = "jdbc:ryow:mysql://127.0.0.1:" + PRIMARY_PORT + ",localhost:" + PRIMARY_PORT + ",127.0.0.1:"
        + REPLICA_PORTS.get(0) + "/" + Topology.DATABASE + CREDENTIALS;
    String primaryUuid = uuidOf(PRIMARY_PORT);
    assertThatThrownBy(() -> {
      try (Connection c = DriverManager.getConnection(url)) {
        // What happened before the check: the "replica" localhost was the primary itself.
        System.out.printf("connected; a replica read ran on port %s%n", Topology.queryString(c, "SELECT @@port"));
      }
    })
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageContaining("127.0.0.1:" + PRIMARY_PORT)
        .hasMessageContaining("localhost:" + PRIMARY_PORT)
        .hasMessageContaining(primaryUuid)
        .hasMessageNotContaining("password").hasMessageNotContaining("user=")
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
    // Every later connect to that URL is refused too, at once.
    assertThatThrownBy(() -> DriverManager.getConnection(url).close()).hasMessageContaining("same server");
  }

  @Test
  void aReplicaListedTwiceIsRefusedAtConnect() throws SQLException {
    int replica = REPLICA_PORTS.get(0);
    String url = "jdbc:ryow:mysql://127.0.0.1:" + PRIMARY_PORT + ",127.0.0.1:" + replica + ",localhost:" + replica
        + "/" + Topology.DATABASE + CREDENTIALS;
    assertThatThrownBy(() -> DriverManager.getConnection(url).close())
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageContaining("Hosts 127.0.0.1:" + replica + " and localhost:" + replica)
        .hasMessageContaining(uuidOf(replica));
  }

  @Test
  void eachServerOnceUnderAnyNameConnects() throws SQLException {
    String url = "jdbc:ryow:mysql://localhost:" + PRIMARY_PORT + ",127.0.0.1:" + REPLICA_PORTS.get(0) + ",localhost:"
        + REPLICA_PORTS.get(1) + "/" + Topology.DATABASE + CREDENTIALS;
    try (Connection c = DriverManager.getConnection(url)) {
      assertThat(Integer.parseInt(Topology.queryString(c, "SELECT @@port"))).isIn(REPLICA_PORTS);
    }
  }
}
