package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LagBlock} is real lag with running appliers: while a replica is blocked, its replication
 * threads report running ({@code performance_schema}) and a worker waits for the read lock, yet a
 * write just made on the primary is neither in its {@code gtid_executed} nor in its data; once
 * released, it catches up. Everything is asked of the servers themselves.
 */
class BlockedApplierIT {
  private static final String TABLE = "it_blocked_applier";
  /** The receiver's and the applier's {@code SERVICE_STATE}, as {@code receiver/applier}. */
  private static final String THREAD_STATES = "CONCAT("
      + "(SELECT MIN(SERVICE_STATE) FROM performance_schema.replication_connection_status), '/',"
      + "(SELECT MIN(SERVICE_STATE) FROM performance_schema.replication_applier_status))";
  /** Replication threads (coordinator, workers) waiting for the read lock or the commit lock. */
  private static final String WAITING_FOR_LOCK = "(SELECT COUNT(*) FROM performance_schema.threads"
      + " WHERE NAME LIKE 'thread/sql/replica\\_%'"
      + " AND PROCESSLIST_STATE IN ('Waiting for global read lock', 'Waiting for commit lock'))";

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @Test
  void aHeldReplicaFallsBehindWhileItsReplicationThreadsRun() throws SQLException {
    int blocked = REPLICA_PORTS.get(0);
    int free = REPLICA_PORTS.get(1);
    String written;
    LagBlock block = LagBlock.hold(blocked);
    try {
      written = write(1);
      assertThat(waitFor(free, written, 60)).as("the replica that is not blocked applies the write").isZero();
      assertThat(waitFor(blocked, written, 1)).as("the blocked replica has not applied it a second later").isEqualTo(1);
      assertThat(rowOn(blocked, 1)).as("the row on the blocked replica").isFalse();
      assertThat(replicationThreads(blocked)).as("receiver and applier service states").isEqualTo("ON/ON");
      assertThat(workersWaitingForTheLock(blocked)).as("applier threads waiting for the read lock").isPositive();
    } finally {
      block.close();
    }
    assertThat(waitFor(blocked, written, 0.001)).as("caught up once released").isZero();
    assertThat(rowOn(blocked, 1)).isTrue();
    assertThat(globalReadLocks(blocked)).as("read locks left on the replica").isZero();
  }

  @Test
  void aPeriodicBlockLetsTheReplicasFallBehindAndCatchUpBetweenHolds() throws SQLException, InterruptedException {
    int n = REPLICA_PORTS.size();
    String[] lackedWhileBlocked = new String[n];
    boolean[] caughtUpWhileRunning = new boolean[n];
    int id = 0;
    List<Connection> replicas = new ArrayList<>();
    LagBlock block = LagBlock.start(300, 1000);
    try (Connection primary = Topology.plain(PRIMARY_PORT)) {
      for (int port : REPLICA_PORTS) {
        replicas.add(Topology.plain(port));
      }
      long deadline = System.nanoTime() + 20_000_000_000L;
      while (!all(caughtUpWhileRunning) && System.nanoTime() < deadline) {
        String written = write(primary, ++id);
        for (int r = 0; r < n; r++) {
          Sample s = sample(replicas.get(r), lackedWhileBlocked[r] == null ? written : lackedWhileBlocked[r]);
          if (lackedWhileBlocked[r] == null) {
            // Inside a hold: behind the primary, both threads running, a worker on the lock.
            if (!s.has() && s.threads().equals("ON/ON") && s.waitingForLock() > 0) {
              lackedWhileBlocked[r] = written;
            }
          } else if (s.has()) {
            // Later, with the block still running: what it lacked is applied (a hold ended).
            caughtUpWhileRunning[r] = true;
          }
        }
        Thread.sleep(20);
      }
    } finally {
      for (Connection c : replicas) {
        c.close();
      }
      block.close();
    }
    System.out.printf("periodic block: %d writes until every replica was seen blocked and caught up%n", id);
    assertThat(lackedWhileBlocked).as("each replica seen behind with its threads running").doesNotContainNull();
    assertThat(caughtUpWhileRunning).as("each replica seen catching up between holds").containsOnly(true);
    for (int port : REPLICA_PORTS) {
      assertThat(rowOn(port, id)).as("last row on %d after close", port).isTrue();
      assertThat(globalReadLocks(port)).as("read locks left on %d after close", port).isZero();
    }
  }

  /** One look at a replica: has it executed {@code gtids}, its thread states, its workers on the lock. */
  private record Sample(boolean has, String threads, long waitingForLock) {}

  private static Sample sample(Connection replica, String gtids) throws SQLException {
    try (PreparedStatement ps = replica.prepareStatement("SELECT GTID_SUBSET(?, @@global.gtid_executed), "
        + THREAD_STATES + ", " + WAITING_FOR_LOCK)) {
      ps.setString(1, gtids);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new Sample(rs.getInt(1) == 1, rs.getString(2), rs.getLong(3));
      }
    }
  }

  private static boolean all(boolean[] flags) {
    for (boolean f : flags) {
      if (!f) {
        return false;
      }
    }
    return true;
  }

  /** Inserts a row on the primary and returns the primary's {@code gtid_executed} right after. */
  private static String write(int id) throws SQLException {
    try (Connection c = Topology.plain(PRIMARY_PORT)) {
      return write(c, id);
    }
  }

  private static String write(Connection primary, int id) throws SQLException {
    try (PreparedStatement ps = primary.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)")) {
      ps.setInt(1, id);
      ps.setInt(2, id);
      ps.executeUpdate();
    }
    return Topology.queryString(primary, "SELECT @@global.gtid_executed");
  }

  /** {@code WAIT_FOR_EXECUTED_GTID_SET} on a replica: 0 once it has the set, 1 on timeout. */
  private static int waitFor(int port, String gtids, double seconds) throws SQLException {
    try (Connection c = Topology.plain(port);
        PreparedStatement ps = c.prepareStatement("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)")) {
      ps.setString(1, gtids);
      ps.setDouble(2, seconds);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  private static boolean rowOn(int port, int id) throws SQLException {
    return Topology.queryLong(port, "SELECT COUNT(*) FROM " + TABLE + " WHERE id = " + id) == 1;
  }

  private static String replicationThreads(int port) throws SQLException {
    try (Connection c = Topology.plain(port)) {
      return Topology.queryString(c, "SELECT " + THREAD_STATES);
    }
  }

  private static long workersWaitingForTheLock(int port) throws SQLException {
    return Topology.queryLong(port, "SELECT " + WAITING_FOR_LOCK);
  }

  private static long globalReadLocks(int port) throws SQLException {
    return Topology.queryLong(port, "SELECT COUNT(*) FROM performance_schema.metadata_locks"
        + " WHERE OBJECT_TYPE = 'GLOBAL' AND LOCK_TYPE = 'SHARED'");
  }
}
