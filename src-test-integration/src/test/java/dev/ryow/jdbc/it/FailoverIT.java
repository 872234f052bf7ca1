package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Logical connections the application holds (no pool), busy while the primary goes away and comes
 * back or moves ({@link HeldConnections}: 8 threads on 4 held connections, each iteration a write and
 * its read back, plus 2 readers), on the sandbox with the driver's defaults. The same logical
 * connections must go on writing after the event, with no acknowledged write lost, no stale read, and
 * only the statements running on the primary at the moment it went away failing (at most one per
 * writer thread). Which server ran each write is in its row ({@code @@port}).
 */
class FailoverIT {
  private static final String TABLE = "it_failover";
  private static final int CONNECTIONS = 4;
  private static final int WRITERS = 8;
  private static final int READERS = 2;
  /** Writes each held connection must have made after the event. */
  private static final int WRITES_AFTER = 20;

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL, port INT NOT NULL, conn INT NOT NULL");
  }

  @AfterEach
  void restore() {
    Sandbox.restoreTopology();
  }

  private static MetricsSnapshot metrics() throws SQLException {
    try (Connection c = Topology.ryow()) {
      return c.unwrap(RyowConnection.class).clusterMetrics();
    }
  }

  @Test
  void heldBusyConnectionsGoOnWritingAfterThePrimaryIsKilledAndRestarted() throws Exception {
    MetricsSnapshot before = metrics();
    HeldConnections w = new HeldConnections(Topology.ryowUrl(), TABLE, CONNECTIONS, WRITERS, READERS);
    long outageMillis;
    try (w) {
      Thread.sleep(1_500);
      long t0 = System.nanoTime();
      Sandbox.run("kill", "primary");
      w.phase.set(HeldConnections.DURING);
      Thread.sleep(3_000);
      Sandbox.run("restart", "primary");
      outageMillis = (System.nanoTime() - t0) / 1_000_000;
      w.phase.set(HeldConnections.AFTER);
      w.awaitWritesAfter(WRITES_AFTER, 90);
    }
    MetricsSnapshot after = metrics();
    report("kill primary, restart primary (" + outageMillis + " ms down)", w, before, after);
    try (Connection p = Topology.plain(PRIMARY_PORT)) {
      w.assertSurvived(p, WRITES_AFTER);
      assertThat(Topology.queryLong(PRIMARY_PORT, "SELECT COUNT(*) FROM " + TABLE + " WHERE port <> " + PRIMARY_PORT))
          .as("writes that ran elsewhere than the primary").isZero();
    }
    assertThat(w.readerReads(HeldConnections.AFTER)).as("reader reads after the restart").isPositive();
    assertThat(w.failedReaderStatements.get()).as("failed reads of the readers (%s)", w.readerFailures).isZero();
  }

  @Test
  void heldBusyConnectionsFollowASwitchoverToTheNewPrimary() throws Exception {
    int newPrimary = REPLICA_PORTS.get(0);
    MetricsSnapshot before = metrics();
    HeldConnections w = new HeldConnections(Topology.ryowUrl(), TABLE, CONNECTIONS, WRITERS, READERS);
    try (w) {
      Thread.sleep(1_500);
      w.phase.set(HeldConnections.DURING);
      Sandbox.run("switchover", "replica1");
      w.phase.set(HeldConnections.AFTER);
      w.awaitWritesAfter(WRITES_AFTER, 90);
    }
    MetricsSnapshot after = metrics();
    report("switchover primary -> replica1", w, before, after);
    try (Connection p = Topology.plain(newPrimary)) {
      w.assertSurvived(p, WRITES_AFTER);
    }
    assertThat(Topology.queryLong(newPrimary, "SELECT COUNT(*) FROM " + TABLE + " WHERE port = " + newPrimary))
        .as("writes on the new primary").isGreaterThanOrEqualTo((long) CONNECTIONS * WRITES_AFTER);
    assertThat(w.failedReaderStatements.get()).as("failed reads of the readers (%s)", w.readerFailures).isZero();
    assertThat(after.primaryFailovers() - before.primaryFailovers()).as("primary moves").isEqualTo(1);
  }

  static void report(String event, HeldConnections w, MetricsSnapshot before, MetricsSnapshot after) {
    System.out.printf("FAILOVER %s: acknowledged writes %d, per connection before/during/after %s; writer reads"
            + " before/during/after %d/%d/%d, reader reads %d/%d/%d; stale %d; failed statements %d (%s) %s;"
            + " reader failures %d %s; primary reconnects %d, failovers %d%n",
        event, w.acknowledged.size(), w.perConnection(), w.reads(HeldConnections.BEFORE),
        w.reads(HeldConnections.DURING), w.reads(HeldConnections.AFTER), w.readerReads(HeldConnections.BEFORE),
        w.readerReads(HeldConnections.DURING), w.readerReads(HeldConnections.AFTER), w.stale.get(),
        w.failedStatements.get(), w.failuresByState, w.failures, w.failedReaderStatements.get(), w.readerFailures,
        after.primaryReconnects() - before.primaryReconnects(), after.primaryFailovers() - before.primaryFailovers());
  }
}
