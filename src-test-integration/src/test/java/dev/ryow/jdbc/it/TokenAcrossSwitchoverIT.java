package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.TokenCodec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tokens minted in one JVM and used in another through switchovers and back ({@value #ROUNDS} rounds), on
 * the sandbox with the driver's defaults: the writer is a separate process ({@link TokenWriterMain}), the
 * reader this JVM, which has never seen the write. Three cases, each read answered by a server that names
 * itself ({@code @@port}):
 *
 * <ul>
 *   <li>a token from before the switchover: its GTIDs are already on the new primary and on every replica, so
 *       the read sees the row, wherever it runs (the poller may not have seen the switch yet), without blocking;
 *   <li>a token minted on the new primary while both replicas' appliers are stopped: the read sees the row,
 *       on the new primary, and again after the switch back;
 *   <li>a token naming the old primary's GTIDs from its future, which no server will ever have: the read
 *       returns, on the new primary (it does not wait for them).
 * </ul>
 */
class TokenAcrossSwitchoverIT {
  private static final String TABLE = "it_scope";
  /** Switchovers and back. */
  private static final int ROUNDS = 2;
  private static final int NEW_PRIMARY_PORT = REPLICA_PORTS.get(0);
  /** After {@code switchover replica1}, the old primary and replica2 replicate from replica1. */
  private static final int[] REPLICAS_AFTER_SWITCH = {PRIMARY_PORT, REPLICA_PORTS.get(1)};

  @BeforeEach
  void table() throws SQLException {
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void restore() {
    for (int port : REPLICAS_AFTER_SWITCH) {
      try {
        Topology.exec(port, "START REPLICA SQL_THREAD");
      } catch (SQLException notAReplicaNow) {
        // the test ended with this node as the primary: nothing to start
      }
    }
    Sandbox.restoreTopology();
  }

  @Test
  @SuppressWarnings("try") // the scopes are used through the thread binding, not by name
  void tokensCarryTheGuaranteeThroughSwitchoversAndBackAndAForeignGtidNeverBlocks() throws Exception {
    int stale = 0;
    for (int round = 0; round < ROUNDS; round++) {
      int id = 10 * round;
      String before = runWriterProcess(id + 1, id + 11);
      Sandbox.run("switchover", "replica1");
      assertThat(Topology.queryLong(NEW_PRIMARY_PORT, "SELECT @@global.read_only")).as("replica1 is the primary")
          .isZero();
      try (ConsistencyScope scope = ConsistencyScope.open(before, TokenCodec.DEFAULT);
          Connection c = Topology.ryow()) {
        Answer a = read(c, id + 1);
        System.out.println("round " + round + ", token from before the switchover: " + a);
        stale += a.value == id + 11 ? 0 : 1;
      }

      for (int port : REPLICAS_AFTER_SWITCH) {
        Topology.exec(port, "STOP REPLICA SQL_THREAD");
      }
      String after = runWriterProcess(id + 2, id + 22);
      try (ConsistencyScope scope = ConsistencyScope.open(after, TokenCodec.DEFAULT);
          Connection c = Topology.ryow()) {
        Answer a = read(c, id + 2);
        System.out.println("round " + round + ", token minted on the new primary, appliers stopped: " + a);
        stale += a.value == id + 22 ? 0 : 1;
        assertThat(a.port).as("only the new primary has it").isEqualTo(NEW_PRIMARY_PORT);
      }
      for (int port : REPLICAS_AFTER_SWITCH) {
        Topology.exec(port, "START REPLICA SQL_THREAD");
      }

      Sandbox.restoreTopology();
      try (ConsistencyScope scope = ConsistencyScope.open(after, TokenCodec.DEFAULT);
          Connection c = Topology.ryow()) {
        Answer a = read(c, id + 2);
        System.out.println("round " + round + ", the same token after the switch back: " + a);
        stale += a.value == id + 22 ? 0 : 1;
      }
    }
    assertThat(stale).as("token reads that missed the other JVM's write").isZero();

    Sandbox.run("switchover", "replica1");
    String oldPrimaryUuid;
    try (Connection p = Topology.plain(PRIMARY_PORT)) {
      oldPrimaryUuid = Topology.queryString(p, "SELECT @@server_uuid");
    }
    try (Connection c = Topology.ryow()) {
      // The driver must have followed the switchover first: until its poller saw the new primary, the primary
      // it would ask about the foreign GTIDs answers read-only, and a read it cannot check waits as usual (one
      // ryow.waitTimeout, docs/consistency.md) before it runs on the primary. Two whole poll rounds after the
      // switchover are a condition, not a guess at how long the poller takes on a busy machine.
      Topology.awaitPollRounds(c, 2, 1 + REPLICA_PORTS.size());
      c.unwrap(RyowConnection.class).mergeConsistencyToken(oldPrimaryUuid + ":1-999999999");
      Answer a = read(c, 1);
      System.out.println("token with GTIDs no server will ever have: " + a);
      assertThat(a.value).isEqualTo(11);
      assertThat(a.port).as("read on the new primary, not waited for on a replica").isEqualTo(NEW_PRIMARY_PORT);
      assertThat(a.report.waited()).as("no replica wait for GTIDs no server has").isFalse();
    }
  }

  /** What one read returned: the value ({@code -1}: no row), the port of the server that ran it, the report. */
  private record Answer(int value, int port, ReadReport report) {
    @Override
    public String toString() {
      return "value " + value + " from port " + port + " (" + report.placement() + ")";
    }
  }

  private static Answer read(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT v, @@port FROM " + TABLE + " WHERE id = ?")) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        boolean found = rs.next();
        int value = found ? rs.getInt(1) : -1;
        int port = found ? rs.getInt(2) : -1;
        if (!found) {
          try (ResultSet where = c.createStatement().executeQuery("SELECT @@port")) {
            where.next();
            port = where.getInt(1);
          }
        }
        return new Answer(value, port, c.unwrap(RyowConnection.class).lastRead());
      }
    }
  }

  private static String runWriterProcess(int id, int value) throws Exception {
    return TokenWriterMain.run(Topology.ryowUrl(), id, value);
  }

}
