package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Where statements run, asked of the server that ran them ({@code @@port}). */
class RoutingIT {

  @BeforeAll
  static void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_routing", "id INT PRIMARY KEY, port INT, note VARCHAR(64)");
  }

  @AfterAll
  static void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  private static int port(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void autocommitReadsRunOnAReplicaAndWritesOnThePrimary() throws SQLException {
    try (Connection c = Topology.ryow()) {
      assertThat(port(c, "SELECT @@port")).isIn(REPLICA_PORTS);
      assertThat(c.unwrap(RyowConnection.class).lastServerRole()).isEqualTo(ServerRole.REPLICA);

      try (Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO it_routing (id, port) VALUES (1, @@port)");
      }
      assertThat(c.unwrap(RyowConnection.class).lastServerRole()).isEqualTo(ServerRole.PRIMARY);
      // The row records the port of the server that executed the INSERT; read it on the primary itself.
      try (Connection p = Topology.plain(PRIMARY_PORT)) {
        assertThat(port(p, "SELECT port FROM it_routing WHERE id = 1")).isEqualTo(PRIMARY_PORT);
      }
      // Read-your-writes: the replica read sees the row.
      assertThat(port(c, "SELECT port FROM it_routing WHERE id = 1")).isEqualTo(PRIMARY_PORT);
    }
  }

  @Test
  void showDescribeExplainAndCtesAreReplicaReads() throws SQLException {
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      for (String sql :
          new String[] {
            "SHOW TABLES", "DESCRIBE it_routing", "EXPLAIN SELECT * FROM it_routing",
            "WITH x AS (SELECT 1 AS a) SELECT a FROM x", "/* a comment */ select 1"
          }) {
        try (ResultSet rs = s.executeQuery(sql)) {
          rs.next();
        }
        assertThat(ryow.lastServerRole()).as(sql).isEqualTo(ServerRole.REPLICA);
      }
      assertThat(port(c, "WITH x AS (SELECT @@port AS p) SELECT p FROM x")).isIn(REPLICA_PORTS);
    }
  }

  @Test
  void lockingReadsAndUnknownStatementsStayOnThePrimary() throws SQLException {
    try (Connection c = Topology.ryow()) {
      assertThat(port(c, "SELECT @@port FROM dual FOR UPDATE")).isEqualTo(PRIMARY_PORT);
      assertThat(port(c, "SELECT @@port, GET_LOCK('ryow_it', 0), RELEASE_LOCK('ryow_it')")).isEqualTo(PRIMARY_PORT);
    }
  }

  @Test
  void preparedStatementParametersAreHonouredOnBothServers() throws SQLException {
    try (Connection c = Topology.ryow()) {
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO it_routing (id, port, note) VALUES (?, @@port, ?)")) {
        insert.setInt(1, 10);
        insert.setString(2, "ten");
        assertThat(insert.executeUpdate()).isEqualTo(1);
      }
      Topology.awaitWriteOnReplicas();
      try (PreparedStatement read = c.prepareStatement("SELECT note, @@port FROM it_routing WHERE id = ?")) {
        read.setInt(1, 10);
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1)).isEqualTo("ten");
          assertThat(rs.getInt(2)).isIn(REPLICA_PORTS);
        }
        // Same statement, same parameter, sent to the primary inside a transaction.
        c.setAutoCommit(false);
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1)).isEqualTo("ten");
          assertThat(rs.getInt(2)).isEqualTo(PRIMARY_PORT);
        }
        c.commit();
        c.setAutoCommit(true);
        read.setInt(1, 999);
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).as("a new parameter value reaches the replica").isFalse();
        }
      }
    }
  }

  @Test
  void batchesRunOnThePrimary() throws SQLException {
    try (Connection c = Topology.ryow()) {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO it_routing (id, port, note) VALUES (?, @@port, 'batch')")) {
        for (int id = 100; id < 103; id++) {
          ps.setInt(1, id);
          ps.addBatch();
        }
        assertThat(ps.executeBatch()).containsExactly(1, 1, 1);
      }
      try (Statement s = c.createStatement()) {
        s.addBatch("INSERT INTO it_routing (id, port, note) VALUES (103, @@port, 'batch')");
        s.addBatch("UPDATE it_routing SET note = 'batch2' WHERE id = 100");
        assertThat(s.executeBatch()).containsExactly(1, 1);
      }
      try (Connection p = Topology.plain(PRIMARY_PORT)) {
        assertThat(Topology.queryString(p, "SELECT GROUP_CONCAT(DISTINCT port) FROM it_routing WHERE id BETWEEN 100 AND 103"))
            .isEqualTo(String.valueOf(PRIMARY_PORT));
      }
      // Read-your-writes after a batch: every row is visible through the replica route.
      assertThat(port(c, "SELECT COUNT(*) FROM it_routing WHERE id BETWEEN 100 AND 103")).isEqualTo(4);
      assertThat(c.unwrap(RyowConnection.class).lastServerRole()).isEqualTo(ServerRole.REPLICA);
    }
  }

  @Test
  void manualTransactionsStayOnThePrimaryUntilCommit() throws SQLException {
    try (Connection c = Topology.ryow()) {
      c.setAutoCommit(false);
      assertThat(port(c, "SELECT @@port")).isEqualTo(PRIMARY_PORT);
      try (Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO it_routing (id, port) VALUES (200, @@port)");
      }
      assertThat(port(c, "SELECT COUNT(*) FROM it_routing WHERE id = 200")).isEqualTo(1);
      assertThat(c.unwrap(RyowConnection.class).lastServerRole()).isEqualTo(ServerRole.PRIMARY);
      c.commit();
      c.setAutoCommit(true);
      Topology.awaitWriteOnReplicas();
      assertThat(port(c, "SELECT @@port")).isIn(REPLICA_PORTS);
      assertThat(port(c, "SELECT COUNT(*) FROM it_routing WHERE id = 200")).isEqualTo(1);
    }
  }

  @Test
  void sqlBeginKeepsTheTransactionOnThePrimary() throws SQLException {
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      s.execute("BEGIN");
      assertThat(port(c, "SELECT @@port")).isEqualTo(PRIMARY_PORT);
      s.execute("COMMIT");
      assertThat(port(c, "SELECT @@port")).isIn(REPLICA_PORTS);
    }
  }

  @Test
  void readOnlyTransactionsRunOnAReplica() throws SQLException {
    try (Connection c = Topology.ryow()) {
      c.setReadOnly(true);
      c.setAutoCommit(false);
      int first = port(c, "SELECT @@port");
      assertThat(first).isIn(REPLICA_PORTS);
      assertThat(port(c, "SELECT @@port")).isEqualTo(first);
      c.commit();
      c.setAutoCommit(true);
      c.setReadOnly(false);
    }
  }

  @Test
  void sessionStateReachesTheReplica() throws SQLException {
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      s.execute("SET time_zone = '+05:00'");
      assertThat(Topology.queryString(c, "/* ryow:replica */ SELECT @@session.time_zone")).isEqualTo("+05:00");
      assertThat(c.unwrap(RyowConnection.class).lastServerRole()).isEqualTo(ServerRole.REPLICA);
      c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      assertThat(Topology.queryString(c, "/* ryow:replica */ SELECT @@session.transaction_isolation"))
          .isEqualTo("READ-COMMITTED");
      assertThat(c.unwrap(RyowConnection.class).lastServerRole()).isEqualTo(ServerRole.REPLICA);
    }
  }

  @Test
  void unmirrorableSessionStatePinsTheConnectionToThePrimary() throws SQLException {
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      assertThat(port(c, "SELECT @@port")).isIn(REPLICA_PORTS);
      s.execute("CREATE TEMPORARY TABLE it_tmp (a INT)");
      s.execute("INSERT INTO it_tmp VALUES (1), (2)");
      assertThat(port(c, "SELECT COUNT(*) FROM it_tmp")).isEqualTo(2);
      assertThat(port(c, "SELECT @@port")).isEqualTo(PRIMARY_PORT);
    }
  }
}
