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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Protecting the primary and the replicas, on the real sandbox: the fallback budget in a lag storm,
 * reads that need no wait, and the waiter cap. Counts come from the servers (performance_schema),
 * not from the driver.
 */
@AboutSettings(value = {"ryow.fallbackRate", "ryow.fallbackBurst", "ryow.fallbackDegrade"},
    why = "the opt-in fallback budget: it protects the primary in a lag storm and degrades as configured")
class FleetProtectionIT {
  private static final String READ = "SELECT v, @@port FROM it_fleet WHERE id = ?";
  /** The read's normalised text in performance_schema's digests. */
  private static final String READ_DIGEST = "FROM `it_fleet` WHERE";

  /** The fallback budget's refusal names the settings to tune. */
  private static final Predicate<String> DOCUMENTED_REFUSAL =
      m -> m.contains("ryow.fallbackRate") && m.contains("ryow.waitTimeout");

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_fleet", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  @AfterAll
  static void restore() {
    Sandbox.restoreTopology();
  }

  /** A storm of {@code threads} connections opened with {@code settings}: see {@link ReadBackStorm}. */
  private static ReadBackStorm.Outcome storm(int threads, double seconds, int pauseMillis, String... settings)
      throws Exception {
    return ReadBackStorm.run(() -> Topology.ryow(settings), "it_fleet", threads, seconds, pauseMillis,
        DOCUMENTED_REFUSAL);
  }

  @Test
  void lagStormStaysWithinTheFallbackBudgetAndBlocksNoLongerThanTheWait() throws Exception {
    int rate = 5;
    int burst = 10;
    int waitMillis = 100;
    // Health polling slowed down so that the replicas stay in rotation (PAUSED, not out of rotation):
    // reads try them, wait until they are seen stalled, then skip them: the worst case for the primary.
    String[] settings = {
      "ryow.waitTimeout=" + waitMillis, "ryow.fallbackRate=" + rate, "ryow.fallbackBurst=" + burst,
      "ryow.pollInterval=600000"
    };
    MetricsSnapshot before;
    MetricsSnapshot after;
    long primaryServed;
    ReadBackStorm.Outcome storm;
    try (Connection holder = Topology.ryowPolledOnce(settings)) {
      Topology.pauseAppliers();
      before = holder.unwrap(RyowConnection.class).clusterMetrics();
      long primaryBefore = Topology.statementsLike(PRIMARY_PORT, READ_DIGEST);
      storm = storm(32, 10, 20, settings);
      primaryServed = Topology.settledStatementsLike(PRIMARY_PORT, READ_DIGEST) - primaryBefore;
      after = holder.unwrap(RyowConnection.class).clusterMetrics();
    }
    Topology.resumeAppliers();
    long waits = after.waits() - before.waits();

    long bound = burst + (long) Math.ceil(rate * storm.seconds());
    System.out.printf(
        "storm (appliers stopped, 32 threads, %.1f s, fallbackRate=%d burst=%d waitTimeout=%d ms): %d reads, %d correct,"
            + " %d refused with the documented error, %d stale; the primary served %d reads (bound %d); %d waits,"
            + " %d capped; longest read %d ms%n",
        storm.seconds(), rate, burst, waitMillis, storm.reads(), storm.correct(), storm.rejected(), storm.stale(),
        primaryServed, bound, waits, after.waitsCapped() - before.waitsCapped(), storm.maxBlockMillis());
    // A replica whose wait timed out is stalled from then on (its applier is stopped: it never advances),
    // so no read waits there again: each thread waits at most once per replica, its later reads skip them.
    assertThat(waits).as("reads tried the lagging replicas").isPositive();
    assertThat(waits).as("waits: at most one per thread and replica (then they are seen stalled)")
        .isLessThanOrEqualTo(32L * REPLICA_PORTS.size());
    assertThat(after.stalledSkips() - before.stalledSkips()).as("reads that skipped a stalled replica").isPositive();
    assertThat(storm.reads()).isGreaterThan(bound * 3);
    assertThat(primaryServed).as("reads the primary ran, counted on the primary").isLessThanOrEqualTo(bound);
    assertThat(storm.stale()).isZero();
    assertThat(storm.correct() + storm.rejected()).isEqualTo(storm.reads());
    Topology.assertCounted(primaryServed, storm.correct(), "reads the primary served: exactly the correct ones");
    // "Blocks no longer than the wait" is the count above, not a clock: a read waits on a replica at most
    // once per replica (the server ends each wait at ryow.waitTimeout) and the fallback does not wait. The
    // longest read is printed; on a loaded machine it includes scheduling delays (3.8 s seen at load 24).
  }

  @Test
  void lagStormInStaleModeServesStaleReadsFromReplicasAndCountsThem() throws Exception {
    String[] settings = {
      "ryow.waitTimeout=50", "ryow.fallbackRate=2", "ryow.fallbackBurst=2", "ryow.fallbackDegrade=stale"
    };
    Topology.pauseAppliers();
    MetricsSnapshot before;
    try (Connection c = Topology.ryow(settings)) {
      before = c.unwrap(RyowConnection.class).clusterMetrics();
    }
    long primaryBefore = Topology.statementsLike(PRIMARY_PORT, READ_DIGEST);
    long replicasBefore = replicaReads();
    ReadBackStorm.Outcome storm = storm(8, 3, 20, settings);
    long primaryServed = Topology.settledStatementsLike(PRIMARY_PORT, READ_DIGEST) - primaryBefore;
    long replicasServed = replicaReads() - replicasBefore;
    MetricsSnapshot after;
    try (Connection c = Topology.ryow(settings)) {
      after = c.unwrap(RyowConnection.class).clusterMetrics();
    }
    Topology.resumeAppliers();
    long staleCounted = after.staleReads() - before.staleReads();
    System.out.printf("stale mode storm: %d reads, %d correct, %d stale (driver counted %d), primary %d, replicas %d%n",
        storm.reads(), storm.correct(), storm.stale(), staleCounted, primaryServed, replicasServed);
    assertThat(storm.rejected()).isZero();
    assertThat(primaryServed).isLessThanOrEqualTo(2 + (long) Math.ceil(2 * storm.seconds()));
    assertThat(storm.stale()).isPositive().isEqualTo(staleCounted);
    Topology.assertCounted(replicasServed, storm.stale(), "reads the replicas served: exactly the stale ones");
    Topology.assertCounted(primaryServed, storm.correct(), "reads the primary served: exactly the correct ones");
  }

  /**
   * Opens a connection of the cluster for {@code settings} and returns once its poller has read every
   * server once (so that, with a slow poll, the replicas are seen healthy before the appliers stop).
   */
  private static long replicaReads() throws SQLException {
    return Topology.settledStatementsLike(REPLICA_PORTS.get(0), READ_DIGEST)
        + Topology.settledStatementsLike(REPLICA_PORTS.get(1), READ_DIGEST);
  }

  private static long replicaWaits() throws SQLException {
    return Topology.settledStatementsLike(REPLICA_PORTS.get(0), "WAIT_FOR_EXECUTED_GTID_SET")
        + Topology.settledStatementsLike(REPLICA_PORTS.get(1), "WAIT_FOR_EXECUTED_GTID_SET");
  }

  /**
   * A replica that answered a wait for a write is known to have it: no read waits on it for that write
   * again, and the selector prefers it. So waits are bounded by writes times replicas, whatever the
   * machine's speed (a read that fell back to the primary may have waited once on each replica first).
   * One thread, so that no other writer raises the required set between a write and its reads.
   */
  @Test
  void aReplicaWaitsAtMostOnceForEachWrite() throws Exception {
    int writes = 60;
    int readsPerWrite = 9;
    long readsBefore = replicaReads();
    long waitsBefore = replicaWaits();
    long primaryBefore = Topology.statementsLike(PRIMARY_PORT, READ_DIGEST);
    long stale = 0;
    try (Connection c = Topology.ryow("ryow.waitTimeout=1000");
        PreparedStatement write = c.prepareStatement("INSERT INTO it_fleet (id, v) VALUES (?, ?)");
        PreparedStatement read = c.prepareStatement(READ)) {
      for (int id = 1; id <= writes; id++) {
        write.setInt(1, id);
        write.setInt(2, id);
        write.executeUpdate();
        for (int r = 0; r < readsPerWrite; r++) {
          read.setInt(1, Math.max(1, id - r));
          try (ResultSet rs = read.executeQuery()) {
            if (r == 0 && !(rs.next() && rs.getInt(1) == id)) {
              stale++;
            }
          }
        }
      }
    }
    long reads = replicaReads() - readsBefore;
    long waits = replicaWaits() - waitsBefore;
    long primaryServed = Topology.settledStatementsLike(PRIMARY_PORT, READ_DIGEST) - primaryBefore;
    long total = (long) writes * readsPerWrite;
    System.out.printf("no lag: %d writes, %d reads; replicas served %d after %d wait round trips"
            + " (%.1f%% of replica reads needed none); primary served %d; stale %d%n",
        writes, total, reads, waits, 100 * (1 - (double) waits / Math.max(1, reads)), primaryServed, stale);
    assertThat(stale).isZero();
    Topology.assertCounted(reads + primaryServed, total, "reads served by the servers");
    assertThat(reads).as("replica reads").isPositive();
    assertThat(waits).as("wait round trips on the replicas")
        .isLessThanOrEqualTo((writes + primaryServed) * REPLICA_PORTS.size());
  }

  @Test
  void waiterCapBoundsTheWaitingSessionsOnEachReplica() throws Exception {
    int cap = 2;
    // Long waits so that waiting sessions are visible; slow polling keeps the paused replicas in
    // rotation, so reads do try to wait on them; the default fallback (uncapped) keeps the test about the cap.
    String[] settings = {"ryow.maxWaitersPerReplica=" + cap, "ryow.waitTimeout=1500", "ryow.pollInterval=600000"};
    Connection holder = Topology.ryowPolledOnce(settings);
    Topology.pauseAppliers();
    AtomicBoolean sampling = new AtomicBoolean(true);
    int[] maxSeen = new int[REPLICA_PORTS.size()];
    AtomicLong samples = new AtomicLong();
    Thread sampler = new Thread(() -> {
      List<Connection> plain = new ArrayList<>();
      try {
        for (int port : REPLICA_PORTS) {
          plain.add(Topology.plain(port));
        }
        while (sampling.get()) {
          for (int i = 0; i < plain.size(); i++) {
            try (PreparedStatement ps = plain.get(i).prepareStatement(
                    "SELECT COUNT(*) FROM performance_schema.processlist WHERE INFO LIKE 'SELECT WAIT_FOR_EXECUTED_GTID_SET%'"
                        + " OR INFO LIKE 'DO CASE WHEN WAIT_FOR_EXECUTED_GTID_SET%'"); // the wait alone, or before its query
                ResultSet rs = ps.executeQuery()) {
              rs.next();
              maxSeen[i] = Math.max(maxSeen[i], rs.getInt(1));
            }
          }
          samples.incrementAndGet();
          Thread.sleep(10);
        }
      } catch (SQLException | InterruptedException e) {
        throw new IllegalStateException(e);
      } finally {
        for (Connection c : plain) {
          try {
            c.close();
          } catch (SQLException ignored) {
            // best effort
          }
        }
      }
    }, "processlist-sampler");
    sampler.start();
    MetricsSnapshot before;
    try (Connection c = Topology.ryow(settings)) {
      before = c.unwrap(RyowConnection.class).clusterMetrics();
    }
    ReadBackStorm.Outcome storm;
    try {
      storm = storm(12, 4, 0, settings);
    } finally {
      sampling.set(false);
      sampler.join();
    }
    MetricsSnapshot after = holder.unwrap(RyowConnection.class).clusterMetrics();
    holder.close();
    Topology.resumeAppliers();
    System.out.printf("waiter cap %d: %d samples, most WAIT_FOR_EXECUTED_GTID_SET sessions seen per replica %d and %d;"
            + " %d reads, %d did not wait because of the cap%n",
        cap, samples.get(), maxSeen[0], maxSeen[1], storm.reads(), after.waitsCapped() - before.waitsCapped());
    assertThat(storm.stale()).isZero();
    for (int i = 0; i < maxSeen.length; i++) {
      assertThat(maxSeen[i]).as("waiting sessions on replica port " + REPLICA_PORTS.get(i)).isLessThanOrEqualTo(cap);
    }
    assertThat(maxSeen[0] + maxSeen[1]).as("the test saw waits at all").isPositive();
    assertThat(after.waitsCapped() - before.waitsCapped()).as("the cap turned reads away").isPositive();
  }
}
