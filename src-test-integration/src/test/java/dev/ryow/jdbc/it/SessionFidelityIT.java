package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Transactions, session state and the JDBC surface behave as with Connector/J, on the right server. */
class SessionFidelityIT {

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_session", "id INT AUTO_INCREMENT PRIMARY KEY, v INT NOT NULL");
    Topology.exec(PRIMARY_PORT, "DROP PROCEDURE IF EXISTS it_add");
    Topology.exec(PRIMARY_PORT,
        "CREATE PROCEDURE it_add(IN x INT, OUT n INT) BEGIN INSERT INTO it_session (v) VALUES (x);"
            + " SELECT COUNT(*) INTO n FROM it_session; END");
    Topology.awaitReplicasCaughtUp();
  }

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  private static int intOf(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getInt(1);
    }
  }

  @Test
  void startTransactionReadOnlyRunsWhollyOnOneReplica() throws SQLException {
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      s.execute("START TRANSACTION READ ONLY");
      assertThat(c.unwrap(RyowConnection.class).lastServerRole()).isEqualTo(ServerRole.REPLICA);
      int port = intOf(c, "SELECT @@port");
      assertThat(port).isIn(REPLICA_PORTS);
      assertThat(intOf(c, "SELECT @@port")).isEqualTo(port);
      assertThatThrownBy(() -> s.executeUpdate("INSERT INTO it_session (v) VALUES (1)"))
          .as("a write inside a read-only transaction fails, as on any server")
          .isInstanceOf(SQLException.class);
      s.execute("COMMIT");
      s.executeUpdate("INSERT INTO it_session (v) VALUES (1)");
      assertThat(c.unwrap(RyowConnection.class).lastServerRole()).isEqualTo(ServerRole.PRIMARY);
    }
  }

  @Test
  void jdbcReadOnlyTransactionWaitsOnceAndStaysOnItsServer() throws SQLException {
    try (Connection c = Topology.ryow("ryow.waitTimeout=50")) {
      try (Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO it_session (v) VALUES (7)");
      }
      Topology.pauseAppliers();
      try (Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO it_session (v) VALUES (8)");
      }
      long waitsBefore = c.unwrap(RyowConnection.class).clusterMetrics().waits();
      c.setReadOnly(true);
      c.setAutoCommit(false);
      // The replica lacks the second insert: the transaction's first read falls back, and the rest follow it.
      assertThat(intOf(c, "SELECT COUNT(*) FROM it_session WHERE v = 8")).isEqualTo(1);
      assertThat(intOf(c, "SELECT @@port")).isEqualTo(PRIMARY_PORT);
      assertThat(intOf(c, "SELECT COUNT(*) FROM it_session")).isEqualTo(2);
      // At most one wait for the whole transaction (none if the poller already took the paused replicas
      // out of rotation), and the transaction's reads stayed where the first one went.
      assertThat(c.unwrap(RyowConnection.class).clusterMetrics().waits() - waitsBefore).as("waits").isLessThanOrEqualTo(1);
      assertThat(c.unwrap(RyowConnection.class).lastRead().placement()).isEqualTo(dev.ryow.jdbc.ReadPlacement.PRIMARY_FALLBACK);
      assertThatThrownBy(() -> c.setReadOnly(false))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("inside a transaction");
      c.commit();
      c.setAutoCommit(true);
      c.setReadOnly(false);

      Topology.resumeAppliers();
      Topology.awaitInRotation(c);
      c.setReadOnly(true);
      c.setAutoCommit(false);
      int port = intOf(c, "SELECT @@port");
      assertThat(port).isIn(REPLICA_PORTS);
      assertThat(intOf(c, "SELECT COUNT(*) FROM it_session WHERE v = 8")).isEqualTo(1);
      assertThat(intOf(c, "SELECT @@port")).isEqualTo(port);
      c.rollback();
    }
  }

  @Test
  void storedProcedureCallsRunOnThePrimaryAndTheirWritesAreRead() throws SQLException {
    for (String capture : new String[] {"own_gtid", "query"}) {
      try (Connection c = Topology.ryow("ryow.gtidCapture=" + capture, "ryow.waitTimeout=50")) {
        Topology.pauseAppliers();
        int n;
        try (CallableStatement call = c.prepareCall("{call it_add(?, ?)}")) {
          call.setInt(1, 42);
          call.registerOutParameter(2, Types.INTEGER);
          call.execute();
          n = call.getInt(2);
          assertThat(call.getConnection()).isSameAs(c);
        }
        assertThat(c.unwrap(RyowConnection.class).lastServerRole()).isEqualTo(ServerRole.PRIMARY);
        assertThat(c.unwrap(RyowConnection.class).consistencyToken()).as(capture).isNotEmpty();
        // The replica is paused, so this read can only be right on the primary.
        assertThat(intOf(c, "SELECT COUNT(*) FROM it_session")).as(capture).isEqualTo(n);
        Topology.resumeAppliers();
      }
    }
  }

  @Test
  void wrappersAreWhatTheApplicationSees() throws SQLException {
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement();
        PreparedStatement ps = c.prepareStatement("SELECT ? AS x")) {
      try (ResultSet rs = s.executeQuery("SELECT 1")) {
        assertThat(rs.getStatement()).isSameAs(s);
        assertThat(s.getResultSet()).isSameAs(rs);
      }
      ps.setInt(1, 5);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.getStatement()).isSameAs(ps);
      }
      DatabaseMetaData md = c.getMetaData();
      assertThat(md.getConnection()).isSameAs(c);
      assertThat(md.getDatabaseProductName()).isEqualTo("MySQL");
      assertThat(s.getConnection()).isSameAs(c);
      assertThat(c.isWrapperFor(RyowConnection.class)).isTrue();
      assertThat(c.isWrapperFor(com.mysql.cj.jdbc.JdbcConnection.class)).isTrue();
      assertThat(c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class)).isNotNull();
      assertThat(c.isValid(2)).isTrue();
    }
  }

  @Test
  void generatedKeysMaxRowsAndMultipleResults() throws SQLException {
    try (Connection c = Topology.ryow("allowMultiQueries=true");
        Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO it_session (v) VALUES (1), (2), (3), (4), (5)", Statement.RETURN_GENERATED_KEYS);
      try (ResultSet keys = s.getGeneratedKeys()) {
        assertThat(keys.next()).isTrue();
        assertThat(keys.getLong(1)).isPositive();
      }
      Topology.awaitWriteOnReplicas();
      s.setMaxRows(2);
      try (ResultSet rs = s.executeQuery("SELECT v, @@port FROM it_session ORDER BY id")) {
        int rows = 0;
        while (rs.next()) {
          rows++;
          assertThat(rs.getInt(2)).isIn(REPLICA_PORTS);
        }
        assertThat(rows).as("setMaxRows honoured on the replica").isEqualTo(2);
      }
      s.setMaxRows(0);
      assertThat(s.execute("SELECT 1; SELECT 2")).isTrue();
      assertThat(c.unwrap(RyowConnection.class).lastServerRole()).as("multi-statements stay on the primary")
          .isEqualTo(ServerRole.PRIMARY);
      try (ResultSet first = s.getResultSet()) {
        first.next();
        assertThat(first.getInt(1)).isEqualTo(1);
      }
      assertThat(s.getMoreResults()).isTrue();
      try (ResultSet second = s.getResultSet()) {
        second.next();
        assertThat(second.getInt(1)).isEqualTo(2);
      }
      assertThat(s.getMoreResults()).isFalse();
      assertThat(s.getUpdateCount()).isEqualTo(-1);
    }
  }

  @Test
  void sessionVariablesAndSchemaAreMirroredOnTheReplica() throws SQLException {
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      s.execute("SET @@session.sql_mode = 'ANSI_QUOTES'");
      s.execute("SET NAMES utf8mb4 COLLATE utf8mb4_bin");
      s.execute("SET @@session.sql_mode = 'ANSI_QUOTES,NO_ZERO_DATE'");
      try (ResultSet rs =
          s.executeQuery("/* ryow:replica */ SELECT @@session.sql_mode, @@session.collation_connection, @@port")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("ANSI_QUOTES,NO_ZERO_DATE");
        assertThat(rs.getString(2)).isEqualTo("utf8mb4_bin");
        assertThat(rs.getInt(3)).isIn(REPLICA_PORTS);
      }
      // As with Connector/J alone, a statement runs in the schema that was current when it was created.
      c.setCatalog("mysql");
      try (Statement fresh = c.createStatement();
          ResultSet rs = fresh.executeQuery("SELECT DATABASE(), @@port")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("mysql");
        assertThat(rs.getInt(2)).isIn(REPLICA_PORTS);
      }
      try (Statement fresh = c.createStatement()) {
        fresh.execute("USE ryow");
      }
      try (Statement fresh = c.createStatement();
          ResultSet rs = fresh.executeQuery("SELECT DATABASE(), @@port")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("ryow");
        assertThat(rs.getInt(2)).isIn(REPLICA_PORTS);
      }
    }
  }

  @Test
  void userLocksRunOnOneServer() throws SQLException {
    try (Connection c = Topology.ryow()) {
      assertThat(intOf(c, "SELECT GET_LOCK('it_session_lock', 1)")).isEqualTo(1);
      assertThat(intOf(c, "SELECT RELEASE_LOCK('it_session_lock')")).as("released where it was taken").isEqualTo(1);
      assertThat(c.unwrap(RyowConnection.class).lastServerRole()).isEqualTo(ServerRole.PRIMARY);
    }
  }

  @Test
  void abortClosesEverything() throws SQLException {
    Connection c = Topology.ryow();
    intOf(c, "SELECT 1");
    c.abort(Executors.newSingleThreadExecutor());
    assertThat(c.isClosed()).isTrue();
    assertThatThrownBy(() -> intOf(c, "SELECT 1")).isInstanceOf(SQLException.class);
  }
}
