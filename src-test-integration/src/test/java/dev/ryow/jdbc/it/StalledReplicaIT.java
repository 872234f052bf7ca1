package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A replica that has stopped advancing is not waited on: on defaults, with the appliers blocked
 * ({@link LagBlock}) or stopped ({@link Topology#pauseAppliers}), a read that needs the newest write
 * goes to the primary without a {@code WAIT_FOR_EXECUTED_GTID_SET} round trip on a replica the driver
 * has found stalled; once the appliers run again, reads return to the replicas. Waits and reads are
 * counted on the servers (performance_schema), where each read ran by {@code @@port}.
 *
 * <p>The bound comes from the rule ({@code StallRule}): one thread reads, so each replica is waited on
 * at most once per stall episode (its first timed-out wait, or a poll, marks it stalled at its known
 * position, which does not grow while its applier cannot commit); nothing here depends on the machine's speed.
 */
class StalledReplicaIT {
  private static final String TABLE = "it_stalled";
  private static final String READ = "SELECT v, @@port FROM it_stalled WHERE id = ?";
  private static final String WAIT = "WAIT_FOR_EXECUTED_GTID_SET";
  private static final int READS = 40;

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  /** What a run of write-then-read saw. */
  record Run(int reads, int onPrimary, int onReplicas, int stale) {}

  private static Run writeThenRead(Connection c, int fromId, int count) throws SQLException {
    int onPrimary = 0;
    int onReplicas = 0;
    int stale = 0;
    try (PreparedStatement write = c.prepareStatement("INSERT INTO it_stalled (id, v) VALUES (?, ?)");
        PreparedStatement read = c.prepareStatement(READ)) {
      for (int id = fromId; id < fromId + count; id++) {
        write.setInt(1, id);
        write.setInt(2, id * 3);
        write.executeUpdate();
        read.setInt(1, id);
        try (ResultSet rs = read.executeQuery()) {
          if (!rs.next() || rs.getInt(1) != id * 3) {
            stale++;
          } else if (rs.getInt(2) == PRIMARY_PORT) {
            onPrimary++;
          } else {
            onReplicas++;
          }
        }
      }
    }
    return new Run(count, onPrimary, onReplicas, stale);
  }

  private static long replicaWaits() throws SQLException {
    long n = 0;
    for (int port : REPLICA_PORTS) {
      n += Topology.settledStatementsLike(port, WAIT);
    }
    return n;
  }

  /** Skips of a stalled or out-of-rotation replica between two snapshots. */
  private static long skipped(MetricsSnapshot before, MetricsSnapshot after) {
    return after.stalledSkips() - before.stalledSkips() + after.outOfRotationSkips() - before.outOfRotationSkips();
  }

  /** Write-then-read until a read runs on a replica (or 20 s pass); returns the reads it took. */
  private static int readsUntilOnAReplica(Connection c, int fromId) throws SQLException {
    long deadline = System.nanoTime() + 20_000_000_000L;
    int id = fromId;
    while (System.nanoTime() < deadline) {
      Run r = writeThenRead(c, id++, 1);
      assertThat(r.stale()).as("stale reads after the appliers resumed").isZero();
      if (r.onReplicas() == 1) {
        return id - fromId;
      }
    }
    throw new AssertionError("no read returned to a replica within 20 s of the appliers running again");
  }

  @Test
  void blockedAppliersAreNotWaitedOnOnceSeenStalledAndReadsReturnWhenTheyRunAgain() throws Exception {
    try (Connection c = Topology.ryow()) {
      writeThenRead(c, 1, 3); // opens the replica connections
      Topology.driverSeesReplicasCurrent(c);
      MetricsSnapshot before = c.unwrap(RyowConnection.class).clusterMetrics();
      long waitsBefore = replicaWaits();
      Run blocked;
      long waits;
      LagBlock block = LagBlock.holdAll(REPLICA_PORTS);
      try {
        blocked = writeThenRead(c, 100, READS);
        waits = replicaWaits() - waitsBefore; // before the release, which waits for the catch-up itself
      } finally {
        block.close();
      }
      MetricsSnapshot after = c.unwrap(RyowConnection.class).clusterMetrics();
      int back = readsUntilOnAReplica(c, 1000);
      System.out.printf("blocked appliers: %d reads (%d on the primary, %d on replicas, %d stale), %d wait round trips"
              + " on the replicas, %d stalled skips, %d out-of-rotation skips; back on a replica after %d reads once"
              + " released%n",
          blocked.reads(), blocked.onPrimary(), blocked.onReplicas(), blocked.stale(), waits,
          after.stalledSkips() - before.stalledSkips(), after.outOfRotationSkips() - before.outOfRotationSkips(), back);
      assertThat(blocked.stale()).isZero();
      assertThat(blocked.onPrimary()).as("the replicas lack every write while blocked").isEqualTo(READS);
      assertThat(waits).as("waits on the blocked replicas: at most one per replica per stall episode")
          .isLessThanOrEqualTo(REPLICA_PORTS.size());
      assertThat(skipped(before, after))
          .as("every read that did not wait passed over a stalled replica (or, once the grace ended, one out of"
              + " rotation), and the metrics say so")
          .isGreaterThanOrEqualTo(READS - waits);
    }
  }

  @Test
  void stoppedAppliersAreNotWaitedOnOnceSeenStalledAndReadsReturnWhenTheyRunAgain() throws Exception {
    try (Connection c = Topology.ryow()) {
      writeThenRead(c, 1, 3);
      Topology.driverSeesReplicasCurrent(c);
      MetricsSnapshot before = c.unwrap(RyowConnection.class).clusterMetrics();
      long waitsBefore = replicaWaits();
      Topology.pauseAppliers();
      Run stopped = writeThenRead(c, 100, READS);
      long waits = replicaWaits() - waitsBefore;
      MetricsSnapshot after = c.unwrap(RyowConnection.class).clusterMetrics();
      Topology.resumeAppliers();
      int back = readsUntilOnAReplica(c, 1000);
      System.out.printf("stopped appliers: %d reads (%d on the primary, %d on replicas, %d stale), %d wait round trips"
              + " on the replicas, %d stalled skips, %d out-of-rotation skips; back on a replica after %d reads once"
              + " resumed%n",
          stopped.reads(), stopped.onPrimary(), stopped.onReplicas(), stopped.stale(), waits,
          after.stalledSkips() - before.stalledSkips(), after.outOfRotationSkips() - before.outOfRotationSkips(), back);
      assertThat(stopped.stale()).isZero();
      assertThat(stopped.onPrimary()).as("the replicas lack every write while stopped").isEqualTo(READS);
      assertThat(waits).as("waits on the stopped replicas: at most one per replica per stall episode")
          .isLessThanOrEqualTo(REPLICA_PORTS.size());
      assertThat(skipped(before, after))
          .as("every read that did not wait passed over a stalled replica (or, once the grace ended, one out of"
              + " rotation), and the metrics say so")
          .isGreaterThanOrEqualTo(READS - waits);
    }
  }
}
