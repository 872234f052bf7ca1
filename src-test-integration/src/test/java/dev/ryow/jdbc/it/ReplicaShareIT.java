package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.cluster.HomeTurns;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With no lag and two replicas, on defaults (monotonic reads, the JVM scope), each replica serves 40-60 %
 * of the replica reads, counted by the servers themselves ({@code performance_schema} digests); reads never
 * go backwards and never miss the thread's own write.
 *
 * <p>Why the share does not depend on the machine's speed: the home of the JVM's reads moves once a poll
 * round, to the replica that has served the fewest reads ({@code cluster.TurnRule}), so two replicas that
 * can take the turn throughout never differ by more than the reads of the largest round, however many
 * reads a round holds; a busy machine may make a replica miss a round (it fell more than a poll interval
 * behind, or stalled), which adds at most one more round until that replica takes its next turn and is
 * paid it back. The test counts the reads of each poll round itself (rounds told apart by the driver's
 * poll count) and runs until the total is at least {@value #ROUNDS_PER_LARGEST} times the largest round,
 * and at least {@value #MIN_ROUNDS} rounds: a slow machine only makes it run longer. The difference is then
 * at most 2/{@value #ROUNDS_PER_LARGEST} of the reads (shares of 41.7-58.3 %), inside the 40-60 % the issue
 * asks for with room for reads that straddle a round's end.
 *
 * <p>The cluster is the JVM's, shared with the classes that ran before; what their reads left in the
 * balance is forgotten after {@link HomeTurns#WINDOW_ROUNDS} poll rounds without reads, so the test first
 * waits that many rounds and starts level, as an application's first requests do.
 */
class ReplicaShareIT {
  private static final int THREADS = 4;
  private static final int MIN_ROUNDS = 20;
  private static final int ROUNDS_PER_LARGEST = 12;
  private static final long MAX_SECONDS = 240;

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_share", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @Test
  void eachReplicaServesItsShareWithNoLagAndNoReadGoesBackwards() throws Exception {
    AtomicInteger ids = new AtomicInteger();
    AtomicLong stale = new AtomicLong();
    AtomicLong backward = new AtomicLong();
    AtomicLong reads = new AtomicLong();
    ConcurrentHashMap<Long, AtomicLong> perRound = new ConcurrentHashMap<>();
    AtomicBoolean enough = new AtomicBoolean();
    int serversPolled = 1 + REPLICA_PORTS.size();
    long[] before = new long[REPLICA_PORTS.size()];
    for (int i = 0; i < before.length; i++) {
      before[i] = Topology.statementsLike(REPLICA_PORTS.get(i), SHARE_READ);
    }
    long primaryBefore = Topology.statementsLike(PRIMARY_PORT, SHARE_READ);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    long positionReads;
    long rounds;
    try (Connection holder = Topology.ryowPolledOnce()) {
      RyowConnection r = holder.unwrap(RyowConnection.class);
      Topology.awaitPollRounds(holder, HomeTurns.WINDOW_ROUNDS + 1, serversPolled);
      long firstRound = r.clusterMetrics().positionPolls() / serversPolled;
      long positionReadsBefore = r.clusterMetrics().positionReads();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MAX_SECONDS);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        futures.add(pool.submit(() -> {
          try (Connection c = Topology.ryow();
              PreparedStatement write = c.prepareStatement("INSERT INTO it_share (id, v) VALUES (?, ?)");
              PreparedStatement own = c.prepareStatement("SELECT v FROM it_share WHERE id = ?");
              PreparedStatement max = c.prepareStatement("SELECT COALESCE(MAX(id), 0) FROM it_share")) {
            int seen = 0;
            while (!enough.get() && System.nanoTime() < deadline) {
              int id = ids.incrementAndGet();
              write.setInt(1, id);
              write.setInt(2, id);
              write.executeUpdate();
              own.setInt(1, id);
              try (ResultSet rs = own.executeQuery()) {
                if (!rs.next() || rs.getInt(1) != id) {
                  stale.incrementAndGet();
                }
              }
              for (int k = 0; k < 2; k++) {
                try (ResultSet rs = max.executeQuery()) {
                  rs.next();
                  int m = rs.getInt(1);
                  if (m < seen || m < id) {
                    backward.incrementAndGet();
                  }
                  seen = Math.max(seen, m);
                }
              }
              long round = r.clusterMetrics().positionPolls() / serversPolled;
              perRound.computeIfAbsent(round, k -> new AtomicLong()).addAndGet(3);
              long total = reads.addAndGet(3);
              long largest = perRound.values().stream().mapToLong(AtomicLong::get).max().orElse(0);
              if (round - firstRound >= MIN_ROUNDS && total >= ROUNDS_PER_LARGEST * largest) {
                enough.set(true);
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get(MAX_SECONDS + 60, TimeUnit.SECONDS);
      }
      positionReads = r.clusterMetrics().positionReads() - positionReadsBefore;
      rounds = r.clusterMetrics().positionPolls() / serversPolled - firstRound;
    } finally {
      pool.shutdownNow();
    }
    long exact = reads.get();
    long[] served = new long[REPLICA_PORTS.size()];
    long onReplicas = 0;
    for (int i = 0; i < served.length; i++) {
      int port = REPLICA_PORTS.get(i);
      long start = before[i];
      served[i] = Topology.statementsLike(port, SHARE_READ) - start;
      onReplicas += served[i];
    }
    long onPrimary = Topology.statementsLike(PRIMARY_PORT, SHARE_READ) - primaryBefore;
    long largest = perRound.values().stream().mapToLong(AtomicLong::get).max().orElse(0);
    System.out.printf("no lag, %d threads, %d poll rounds (largest %d reads): %d reads; replica1 %d (%.1f %%),"
            + " replica2 %d (%.1f %%), primary %d; %d position reads; %d stale, %d backward%n",
        THREADS, rounds, largest, exact, served[0], 100.0 * served[0] / Math.max(1, onReplicas), served[1],
        100.0 * served[1] / Math.max(1, onReplicas), onPrimary, positionReads, stale.get(), backward.get());
    assertThat(enough.get()).as("ran %d rounds and %d reads (largest round %d) within %d s", rounds, exact, largest,
        MAX_SECONDS).isTrue();
    assertThat(stale.get()).as("reads that missed the thread's own write").isZero();
    assertThat(backward.get()).as("reads that showed less than an earlier read of the thread").isZero();
    Topology.assertCounted(Topology.settled(() -> {
      long sum = Topology.statementsLike(PRIMARY_PORT, SHARE_READ) - primaryBefore;
      for (int i = 0; i < REPLICA_PORTS.size(); i++) {
        sum += Topology.statementsLike(REPLICA_PORTS.get(i), SHARE_READ) - before[i];
      }
      return sum;
    }, exact), exact, "the test's reads");
    for (int i = 0; i < served.length; i++) {
      assertThat((double) served[i] / onReplicas).as("share of the replica reads served by replica port "
          + REPLICA_PORTS.get(i) + " (" + served[i] + " of " + onReplicas + ")").isBetween(0.40, 0.60);
    }
  }

  /** Both SELECTs of the test, as performance_schema normalises them. */
  private static final String SHARE_READ = "FROM `it_share`";
}
