package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.MariaDbTopology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.MariaDbTopology.REPLICA_PORTS;
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
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Protecting the primary and the replicas on MariaDB, as {@link FleetProtectionIT} does on MySQL: the
 * opt-in fallback budget in a lag storm (the primary runs at most the budget's reads, the others are refused
 * with the documented error, or served stale from the replicas and counted), and the waiter cap (never more
 * {@code MASTER_GTID_WAIT} sessions on a replica than {@code ryow.maxWaitersPerReplica}). Lag is real: the
 * replicas' appliers stopped ({@code STOP SLAVE SQL_THREAD}). Counts come from the servers: key lookups in
 * the table from {@code information_schema.TABLE_STATISTICS} ({@link MariaDbKeyReads}), waiting sessions
 * from {@code information_schema.PROCESSLIST}; where each correct read ran is its own {@code @@port}.
 */
@AboutSettings(value = {"ryow.fallbackRate", "ryow.fallbackBurst", "ryow.fallbackDegrade"},
    why = "the opt-in fallback budget on MariaDB: it protects the primary in a lag storm and degrades as configured")
class MariaDbFleetIT {
  private static final String TABLE = "it_mdb_fleet";

  /** The fallback budget's refusal names the settings to tune. */
  private static final Predicate<String> DOCUMENTED_REFUSAL =
      m -> m.contains("ryow.fallbackRate") && m.contains("ryow.waitTimeout");

  @BeforeEach
  void table() throws SQLException {
    MariaDbTopology.start();
    MariaDbTopology.startAppliers();
    MariaDbTopology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL");
    MariaDbKeyReads.enable();
  }

  @AfterEach
  void resume() throws SQLException {
    MariaDbTopology.startAppliers();
    MariaDbTopology.awaitReplicasCaughtUp();
  }

  private static ReadBackStorm.Outcome storm(int threads, double seconds, int pauseMillis, String... settings)
      throws Exception {
    return ReadBackStorm.run(() -> MariaDbTopology.ryow(settings), TABLE, threads, seconds, pauseMillis,
        DOCUMENTED_REFUSAL);
  }

  private static MetricsSnapshot metrics(Connection c) throws SQLException {
    return c.unwrap(RyowConnection.class).clusterMetrics();
  }

  /** What a storm with the appliers stopped saw, and what the servers and the cluster's metrics counted. */
  private record StoppedStorm(ReadBackStorm.Outcome storm, MariaDbKeyReads served, MetricsSnapshot before,
      MetricsSnapshot after) {}

  /**
   * Opens the cluster of {@code settings} (its poller sees the replicas healthy once), stops the appliers and
   * runs a storm of {@code threads} for {@code seconds}.
   */
  private static StoppedStorm stormWithAppliersStopped(int threads, double seconds, String... settings)
      throws Exception {
    try (Connection holder = MariaDbTopology.ryowPolledOnce(settings)) {
      MariaDbTopology.stopAppliers();
      MetricsSnapshot before = metrics(holder);
      MariaDbKeyReads readsBefore = MariaDbKeyReads.of(TABLE);
      ReadBackStorm.Outcome storm = storm(threads, seconds, 20, settings);
      MariaDbKeyReads served = MariaDbKeyReads.settled(TABLE).since(readsBefore);
      return new StoppedStorm(storm, served, before, metrics(holder));
    }
  }

  @Test
  void lagStormStaysWithinTheFallbackBudget() throws Exception {
    int rate = 5;
    int burst = 10;
    int threads = 16;
    // Health polling slowed down so that the replicas stay in rotation: reads try them, wait until they are
    // seen stalled, then skip them: the worst case for the primary.
    String[] settings = {"ryow.fallbackRate=" + rate, "ryow.fallbackBurst=" + burst, "ryow.pollInterval=600000"};
    StoppedStorm run = stormWithAppliersStopped(threads, 6, settings);
    ReadBackStorm.Outcome storm = run.storm();
    MariaDbKeyReads served = run.served();
    MetricsSnapshot before = run.before();
    MetricsSnapshot after = run.after();
    long waits = after.waits() - before.waits();
    long bound = burst + (long) Math.ceil(rate * storm.seconds());
    System.out.printf("MariaDB storm (appliers stopped, %d threads, %.1f s, fallbackRate=%d burst=%d): %d reads,"
            + " %d correct (%s by @@port), %d refused, %d stale; the servers ran %s (bound on the primary %d);"
            + " %d waits, %d stalled skips%n",
        threads, storm.seconds(), rate, burst, storm.reads(), storm.correct(), storm.correctByPort(), storm.rejected(),
        storm.stale(), served, bound, waits, after.stalledSkips() - before.stalledSkips());
    assertThat(storm.stale()).isZero();
    assertThat(storm.correct() + storm.rejected()).isEqualTo(storm.reads());
    assertThat(storm.reads()).as("reads beyond the budget were tried").isGreaterThan(bound * 3);
    assertThat(served.primary()).as("reads the primary ran, counted on the primary").isLessThanOrEqualTo(bound);
    assertThat(storm.correctOn(PRIMARY_PORT)).as("correct reads answered by the primary").isEqualTo(storm.correct());
    Topology.assertCounted(served.primary(), storm.correct(), "reads the primary ran: exactly the correct ones");
    assertThat(served.replicas()).as("no read ran on a replica that lacked its row").isZero();
    assertThat(waits).as("reads tried the lagging replicas").isPositive();
    // A replica whose wait timed out is seen stalled (its applier is stopped): each thread waits at most once
    // per replica, its later reads skip them.
    assertThat(waits).as("waits: at most one per thread and replica").isLessThanOrEqualTo((long) threads * REPLICA_PORTS.size());
    assertThat(after.stalledSkips() - before.stalledSkips()).as("reads that skipped a stalled replica").isPositive();
  }

  @Test
  void lagStormInStaleModeServesStaleReadsFromReplicasAndCountsThem() throws Exception {
    String[] settings = {"ryow.fallbackRate=2", "ryow.fallbackBurst=2", "ryow.fallbackDegrade=stale"};
    StoppedStorm run = stormWithAppliersStopped(8, 3, settings);
    ReadBackStorm.Outcome storm = run.storm();
    MariaDbKeyReads served = run.served();
    MetricsSnapshot before = run.before();
    MetricsSnapshot after = run.after();
    long staleCounted = after.staleReads() - before.staleReads();
    System.out.printf("MariaDB stale-mode storm: %d reads, %d correct, %d stale (driver counted %d); the servers ran"
        + " %s%n", storm.reads(), storm.correct(), storm.stale(), staleCounted, served);
    assertThat(storm.rejected()).isZero();
    assertThat(storm.stale()).isPositive().isEqualTo(staleCounted);
    assertThat(served.primary()).isLessThanOrEqualTo(2 + (long) Math.ceil(2 * storm.seconds()));
    if (MariaDbKeyReads.countsMisses()) {
      Topology.assertCounted(served.replicas(), storm.stale(), "reads the replicas ran: exactly the stale ones");
    } else {
      // 10.11 counts only the lookups that found their row: the stale reads found none.
      assertThat(served.replicas()).as("rows the replicas found for the stale reads (10.11)").isZero();
    }
    Topology.assertCounted(served.primary(), storm.correct(), "reads the primary ran: exactly the correct ones");
  }

  @Test
  void waiterCapBoundsTheWaitingSessionsOnEachReplica() throws Exception {
    int cap = 2;
    // Long waits so that waiting sessions are visible; slow polling keeps the stopped replicas in rotation,
    // so reads do try to wait on them; the default fallback (uncapped) keeps the test about the cap.
    String[] settings = {"ryow.maxWaitersPerReplica=" + cap, "ryow.waitTimeout=1500", "ryow.pollInterval=600000"};
    WaitingSessions sampler;
    ReadBackStorm.Outcome storm;
    MetricsSnapshot before;
    MetricsSnapshot after;
    try (Connection holder = MariaDbTopology.ryowPolledOnce(settings)) {
      MariaDbTopology.stopAppliers();
      before = metrics(holder);
      sampler = WaitingSessions.start();
      try {
        storm = storm(12, 4, 0, settings);
      } finally {
        sampler.stop();
      }
      after = metrics(holder);
    }
    long capped = after.waitsCapped() - before.waitsCapped();
    System.out.printf("MariaDB waiter cap %d: %d samples, most MASTER_GTID_WAIT sessions seen per replica %s; %d reads,"
        + " %d did not wait because of the cap%n", cap, sampler.samples.get(), sampler.maxSeen, storm.reads(), capped);
    assertThat(storm.stale()).isZero();
    for (int i = 0; i < REPLICA_PORTS.size(); i++) {
      assertThat(sampler.maxSeen.get(i)).as("waiting sessions on replica port " + REPLICA_PORTS.get(i))
          .isLessThanOrEqualTo(cap);
    }
    assertThat(sampler.maxSeen.stream().mapToInt(Integer::intValue).sum()).as("the test saw waits at all").isPositive();
    assertThat(capped).as("the cap turned reads away").isPositive();
  }

  /** Samples, every 10 ms, how many sessions on each replica run {@code MASTER_GTID_WAIT} (the processlist). */
  private static final class WaitingSessions {
    private final AtomicBoolean sampling = new AtomicBoolean(true);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Integer> maxSeen = new ArrayList<>(List.of(0, 0));
    private final Thread thread;
    private final AtomicLong samples = new AtomicLong();

    private WaitingSessions() {
      thread = new Thread(this::sample, "processlist-sampler");
    }

    static WaitingSessions start() {
      WaitingSessions s = new WaitingSessions();
      s.thread.start();
      return s;
    }

    private void sample() {
      List<Connection> plain = new ArrayList<>();
      try {
        for (int port : REPLICA_PORTS) {
          plain.add(MariaDbTopology.plain(port));
        }
        while (sampling.get()) {
          for (int i = 0; i < plain.size(); i++) {
            try (PreparedStatement ps = plain.get(i).prepareStatement("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                    + " WHERE INFO LIKE '%MASTER\\_GTID\\_WAIT(%' AND ID <> CONNECTION_ID()");
                ResultSet rs = ps.executeQuery()) {
              rs.next();
              synchronized (maxSeen) {
                maxSeen.set(i, Math.max(maxSeen.get(i), rs.getInt(1)));
              }
            }
          }
          samples.incrementAndGet();
          Thread.sleep(10);
        }
      } catch (SQLException | InterruptedException | RuntimeException e) {
        failure.set(e);
      } finally {
        for (Connection c : plain) {
          try {
            c.close();
          } catch (SQLException ignored) {
            // best effort
          }
        }
      }
    }

    void stop() throws InterruptedException {
      sampling.set(false);
      thread.join();
      assertThat(failure.get()).as("the processlist sampler").isNull();
    }
  }
}
