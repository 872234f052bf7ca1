package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mysql.cj.jdbc.JdbcConnection;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Failed waits and GTID capture, checked on the servers. */
@AboutSettings(value = {"ryow.fallback"}, why = "the fallback modes error and stale (never the primary)")
class FallbackAndCaptureIT {

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_fallback", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  private static void insert(Connection c, int id) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO it_fallback (id, v) VALUES (" + id + ", " + id + ")");
    }
  }

  @Test
  void aWaitThatTimesOutFallsBackToThePrimary() throws Exception {
    try (Connection c = Topology.ryow("ryow.waitTimeout=50")) {
      Topology.pauseAppliers();
      insert(c, 1);
      MetricsSnapshot before = c.unwrap(RyowConnection.class).clusterMetrics();
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT v, @@port FROM it_fallback WHERE id = 1")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(1);
        assertThat(rs.getInt(2)).as("the server that answered").isEqualTo(PRIMARY_PORT);
      }
      MetricsSnapshot after = c.unwrap(RyowConnection.class).clusterMetrics();
      assertThat(c.unwrap(RyowConnection.class).lastServerRole()).isEqualTo(ServerRole.PRIMARY);
      // Either the read waited and timed out, or the poller had already seen the stopped appliers and
      // the read did not wait on a replica out of rotation: exactly one of the two.
      assertThat(after.waitsTimedOut() - before.waitsTimedOut() + after.outOfRotationSkips() - before.outOfRotationSkips())
          .isEqualTo(1);
      assertThat(after.fallbacksToPrimary() - before.fallbacksToPrimary()).isEqualTo(1);

      Topology.resumeAppliers();
      // Caught up: back on a replica once the poller has seen the appliers running again (next poll).
      int port = PRIMARY_PORT;
      for (int attempt = 0; attempt < 50 && !REPLICA_PORTS.contains(port); attempt++) {
        try (Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT v, @@port FROM it_fallback WHERE id = 1")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(1);
          port = rs.getInt(2);
        }
        if (!REPLICA_PORTS.contains(port)) {
          Thread.sleep(50);
        }
      }
      assertThat(port).as("caught up: back on a replica").isIn(REPLICA_PORTS);
    }
  }

  @Test
  void fallbackErrorFailsTheReadWithAMessageThatSaysWhatToTune() throws SQLException {
    try (Connection c = Topology.ryow("ryow.waitTimeout=30", "ryow.fallback=error")) {
      Topology.pauseAppliers();
      insert(c, 2);
      assertThatThrownBy(() -> {
        try (Statement s = c.createStatement()) {
          s.executeQuery("SELECT v FROM it_fallback WHERE id = 2").close();
        }
      })
          .isInstanceOf(SQLTransientException.class)
          .hasMessageContaining("ryow.waitTimeout=30")
          .hasMessageContaining("ryow.fallback");
    }
  }

  @Test
  void fallbackStaleReadsTheLaggingReplica() throws SQLException {
    try (Connection c = Topology.ryow("ryow.waitTimeout=30", "ryow.fallback=stale")) {
      Topology.pauseAppliers();
      insert(c, 3);
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*), @@port FROM it_fallback WHERE id = 3")) {
        rs.next();
        assertThat(rs.getInt(2)).isIn(REPLICA_PORTS);
        assertThat(rs.getInt(1)).as("stale by choice").isZero();
      }
    }
  }

  @Test
  void ownGtidCaptureNamesExactlyTheWriteAndCostsNoExtraStatement() throws SQLException {
    try (Connection c = Topology.ryow()) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      assertThat(ryow.consistencyToken()).isEmpty();
      long session = c.unwrap(JdbcConnection.class).getId();
      GtidSet executedBefore;
      try (Connection p = Topology.plain(PRIMARY_PORT)) {
        executedBefore = GtidSet.parse(Topology.queryString(p, "SELECT @@global.gtid_executed"));
      }
      long statementsBefore = Topology.statementsOfSession(session);
      int writes = 50;
      for (int i = 0; i < writes; i++) {
        insert(c, 100 + i);
      }
      long statements = Topology.settled(() -> Topology.statementsOfSession(session) - statementsBefore, writes);
      GtidSet token = GtidSet.parse(ryow.consistencyToken());
      GtidSet executedAfter;
      String primaryUuid;
      try (Connection p = Topology.plain(PRIMARY_PORT)) {
        executedAfter = GtidSet.parse(Topology.queryString(p, "SELECT @@global.gtid_executed"));
        primaryUuid = Topology.queryString(p, "SELECT @@server_uuid");
      }
      System.out.printf("own_gtid: %d writes, %d statements on the primary session, token %s%n", writes, statements, token);
      assertThat(statements).as("statements the primary ran for this session").isEqualTo(writes);
      assertThat(token.toString()).startsWith(primaryUuid + ":");
      // Every GTID the writes made, and nothing the primary has not executed: what joins the token besides
      // the writes is the primary's earlier GTIDs below them (the gaps filled to keep the watermark compact).
      assertThat(executedAfter.contains(token)).isTrue();
      assertThat(executedBefore.union(token)).isEqualTo(executedAfter);
      assertThat(token.intervalCount()).as("50 contiguous writes, after some of the primary's earlier GTIDs")
          .isLessThanOrEqualTo(2);
    }
  }

  @Test
  void queryCaptureCoversTheWriteWithOneStatementPerWrite() throws SQLException {
    try (Connection c = Topology.ryow("ryow.gtidCapture=query")) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      long session = c.unwrap(JdbcConnection.class).getId();
      long statementsBefore = Topology.statementsOfSession(session);
      int writes = 20;
      for (int i = 0; i < writes; i++) {
        insert(c, 200 + i);
        ryow.consistencyToken();
      }
      long statements = Topology.settled(() -> Topology.statementsOfSession(session) - statementsBefore, 2L * writes);
      GtidSet token = GtidSet.parse(ryow.consistencyToken());
      GtidSet executed;
      try (Connection p = Topology.plain(PRIMARY_PORT)) {
        executed = GtidSet.parse(Topology.queryString(p, "SELECT @@global.gtid_executed"));
      }
      System.out.printf("query capture: %d writes, %d statements on the primary session%n", writes, statements);
      assertThat(statements).isEqualTo(2L * writes);
      assertThat(executed.contains(token)).isTrue();
      // Conservative: the token covers everything the primary had executed, our writes included.
      assertThat(token).isEqualTo(executed);

      Topology.pauseAppliers();
      insert(c, 300);
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM it_fallback WHERE id = 300")) {
        rs.next();
        assertThat(rs.getInt(1)).as("read-your-writes in query mode").isEqualTo(1);
      }
    }
  }
}
