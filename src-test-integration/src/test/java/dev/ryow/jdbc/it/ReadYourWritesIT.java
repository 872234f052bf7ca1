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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The promise itself: a write followed by a read on the same logical connection never returns
 * stale data, while a plain replica connection in the same run does (so the test can fail).
 */
class ReadYourWritesIT {
  private static final int THREADS = 4;
  private static final int ITERATIONS_PER_THREAD = 250;
  private static final String UNLIMITED_FALLBACK_RATE = "ryow.fallbackRate=1000000";
  private static final String UNLIMITED_FALLBACK_BURST = "ryow.fallbackBurst=1000000";

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_ryow", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  /** Counts of one run. */
  private record Tally(int iterations, int ryowStale, int plainStale, int ryowOnReplica) {}

  private static Tally run(String... ryowParameters) throws Exception {
    AtomicInteger ryowStale = new AtomicInteger();
    AtomicInteger plainStale = new AtomicInteger();
    AtomicInteger onReplica = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          try (Connection ryow = Topology.ryow(ryowParameters);
              Connection plainReplica = Topology.plain(REPLICA_PORTS.get(thread % REPLICA_PORTS.size()));
              PreparedStatement write = ryow.prepareStatement("INSERT INTO it_ryow (id, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v)");
              PreparedStatement read = ryow.prepareStatement("SELECT v FROM it_ryow WHERE id = ?");
              PreparedStatement plainRead = plainReplica.prepareStatement("SELECT v FROM it_ryow WHERE id = ?")) {
            RyowConnection info = ryow.unwrap(RyowConnection.class);
            for (int i = 0; i < ITERATIONS_PER_THREAD; i++) {
              int id = thread * 1_000_000 + i;
              write.setInt(1, id);
              write.setInt(2, i);
              write.executeUpdate();
              read.setInt(1, id);
              if (!readsValue(read, i)) {
                ryowStale.incrementAndGet();
              }
              if (info.lastServerRole() == ServerRole.REPLICA) {
                onReplica.incrementAndGet();
              }
              plainRead.setInt(1, id);
              if (!readsValue(plainRead, i)) {
                plainStale.incrementAndGet();
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return new Tally(THREADS * ITERATIONS_PER_THREAD, ryowStale.get(), plainStale.get(), onReplica.get());
  }

  private static boolean readsValue(PreparedStatement read, int expected) throws SQLException {
    try (ResultSet rs = read.executeQuery()) {
      return rs.next() && rs.getInt(1) == expected;
    }
  }

  @Test
  void appliersPausedNeverStaleWhilePlainReplicaReadsAreStale() throws Exception {
    Topology.pauseAppliers();
    long primaryReadsBefore = Topology.statementsLike(PRIMARY_PORT, "SELECT `v` FROM `it_ryow`");

    // The fallback budget is lifted here: this test is about correctness (FleetProtectionIT covers the budget).
    Tally tally = run("ryow.waitTimeout=20", UNLIMITED_FALLBACK_RATE, UNLIMITED_FALLBACK_BURST);

    long primaryReads = Topology.settled(
        () -> Topology.statementsLike(PRIMARY_PORT, "SELECT `v` FROM `it_ryow`") - primaryReadsBefore,
        tally.iterations());
    System.out.printf("appliers paused: %d iterations, ryow stale %d, plain replica stale %d, primary served %d reads%n",
        tally.iterations(), tally.ryowStale(), tally.plainStale(), primaryReads);
    assertThat(tally.iterations()).isGreaterThanOrEqualTo(1_000);
    assertThat(tally.ryowStale()).isZero();
    assertThat(tally.plainStale()).as("the plain replica connection must see stale data, or this test proves nothing")
        .isEqualTo(tally.iterations());
    // Every ryow read fell back: the primary, asked itself, ran them all.
    assertThat(primaryReads).isEqualTo(tally.iterations());
    assertThat(tally.ryowOnReplica()).isZero();
  }

  @Test
  void noLagMostReadsAreServedByReplicas() throws Exception {
    long[] before = replicaReadCounts();
    long primaryBefore = Topology.statementsLike(PRIMARY_PORT, "SELECT `v` FROM `it_ryow`");

    Tally tally = run();

    // Every read of the run (ryow's and the plain connections') is counted on exactly one server.
    Topology.settled(
        () -> servedSince(before) + Topology.statementsLike(PRIMARY_PORT, "SELECT `v` FROM `it_ryow`") - primaryBefore,
        2L * tally.iterations());
    long replicaServed = servedSince(before);
    long primaryServed = Topology.statementsLike(PRIMARY_PORT, "SELECT `v` FROM `it_ryow`") - primaryBefore;
    // The plain connections' reads are counted on the replicas too: subtract them.
    long ryowOnReplicas = replicaServed - tally.iterations();
    double share = (double) ryowOnReplicas / tally.iterations();
    System.out.printf("no lag: %d iterations, ryow stale %d, replicas served %d ryow reads (%.1f%%), primary %d%n",
        tally.iterations(), tally.ryowStale(), ryowOnReplicas, 100 * share, primaryServed);
    assertThat(tally.ryowStale()).isZero();
    assertThat(ryowOnReplicas + primaryServed).isEqualTo(tally.iterations());
    assertThat(share).isGreaterThanOrEqualTo(0.90);
  }

  @Test
  void pulsedLagNeverStale() throws Exception {
    Thread pulser = new Thread(() -> {
      try {
        while (!Thread.currentThread().isInterrupted()) {
          Topology.pauseAppliers();
          Thread.sleep(150);
          for (int port : REPLICA_PORTS) {
            Topology.exec(port, "START REPLICA SQL_THREAD");
          }
          Thread.sleep(350);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }, "pulse");
    pulser.start();
    Tally tally;
    try {
      tally = run(UNLIMITED_FALLBACK_RATE, UNLIMITED_FALLBACK_BURST);
    } finally {
      pulser.interrupt();
      pulser.join();
    }
    System.out.printf("pulsed lag: %d iterations, ryow stale %d, plain replica stale %d, ryow on replicas %d%n",
        tally.iterations(), tally.ryowStale(), tally.plainStale(), tally.ryowOnReplica());
    assertThat(tally.ryowStale()).isZero();
    assertThat(tally.plainStale()).as("pulsed lag must be visible to a plain replica connection").isPositive();
  }

  private static long servedSince(long[] before) throws SQLException {
    long[] after = replicaReadCounts();
    return (after[0] - before[0]) + (after[1] - before[1]);
  }

  private static long[] replicaReadCounts() throws SQLException {
    return new long[] {
      Topology.statementsLike(REPLICA_PORTS.get(0), "SELECT `v` FROM `it_ryow`"),
      Topology.statementsLike(REPLICA_PORTS.get(1), "SELECT `v` FROM `it_ryow`")
    };
  }
}
