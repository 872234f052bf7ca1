package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reads that need the same write on the same replica share one wait there ({@code SharedWait}): while the
 * replicas' appliers are blocked, several connections of the JVM (each its own, no pool) read a row just
 * written; one of them sends its wait, the others ride on it in the JVM. Once the appliers go on, every read
 * returns the row from a replica (asked of the server that ran it: {@code @@port}), and the replicas ran fewer
 * {@code WAIT_FOR_EXECUTED_GTID_SET} than there were reads (their digest counts): each read either sent a wait
 * or rode on one ({@code waitsShared}), none both and none neither.
 */
@AboutSettings(value = "ryow.fallback", why = "a read that no replica serves in time fails instead of running on the"
    + " primary (error): with the default the learned wait bound (WaitBound) ends a wait on a blocked replica within"
    + " milliseconds, before the test can see the others ride on it")
class SharedWaitIT {
  private static final String TABLE = "it_shared_wait";
  /** Readers, each on a logical connection of its own. */
  private static final int READERS = 4;
  /**
   * The longest {@code ryow.waitTimeout} whose wait still travels in the query's packet (one slice, 1 s): the
   * readers arrive while it runs. {@code ryow.fallback=error} keeps it that long (no learned bound).
   */
  private static final String[] SETTINGS = {"ryow.waitTimeout=1000", "ryow.fallback=error"};
  /** How long a ride may take to show before an attempt counts as inconclusive (half the wait's budget). */
  private static final long RIDE_SHOWS_WITHIN_NANOS = TimeUnit.MILLISECONDS.toNanos(450);
  private static final int ATTEMPTS = 10;
  /** The digest of the wait sent in a query's packet ({@code PipelinedWait}), as the servers count it. */
  private static final String PIPELINED_WAIT = "DO CASE WHEN `WAIT_FOR_EXECUTED_GTID_SET`";

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  @Test
  void readsThatNeedTheSameWriteOnAReplicaShareOneWaitThere() throws Exception {
    List<Connection> readers = new ArrayList<>();
    List<Thread> threads = new CopyOnWriteArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(READERS, r -> {
      Thread t = new Thread(r, "shared-wait-reader");
      threads.add(t);
      return t;
    });
    try (Connection writer = Topology.ryow(SETTINGS)) {
      for (int i = 0; i < READERS; i++) {
        readers.add(Topology.ryow(SETTINGS));
      }
      Topology.awaitInRotation(writer);
      write(writer, 0);
      Topology.awaitReplicasCaughtUp();
      for (Connection r : readers) {
        assertThat(read(r, 0)).as("a warm-up read").isNotNull();
      }
      boolean conclusive = false;
      for (int attempt = 1; attempt <= ATTEMPTS && !conclusive; attempt++) {
        conclusive = attempt(writer, readers, pool, threads, attempt);
      }
      assertThat(conclusive)
          .as("in %d attempts, some reader rode on another's wait while the appliers were blocked", ATTEMPTS)
          .isTrue();
    } finally {
      pool.shutdownNow();
      for (Connection r : readers) {
        r.close();
      }
    }
  }

  /**
   * One attempt: blocks the appliers, writes row {@code id}, lets every reader read it, and unblocks them once a
   * reader is seen riding (or the ride window passed). Returns false when no ride showed in time (the machine
   * too slow for the window, or the poller found the replicas stalled first): nothing is asserted of such an
   * attempt but that its reads were not stale.
   */
  private static boolean attempt(Connection writer, List<Connection> readers, ExecutorService pool,
      List<Thread> threads, int id) throws Exception {
    long waitsBefore = serverWaits();
    MetricsSnapshot before = writer.unwrap(RyowConnection.class).clusterMetrics();
    List<Future<Integer>> reads = new ArrayList<>();
    boolean rideSeen = false;
    LagBlock block = LagBlock.holdAll(REPLICA_PORTS);
    try {
      write(writer, id);
      for (Connection r : readers) {
        reads.add(pool.submit(() -> read(r, id)));
      }
      long deadline = System.nanoTime() + RIDE_SHOWS_WITHIN_NANOS;
      while (!rideSeen && System.nanoTime() - deadline < 0) {
        rideSeen = anyRiding(threads);
        Thread.sleep(1);
      }
    } finally {
      block.close();
    }
    List<Integer> ports = new ArrayList<>();
    int failed = 0;
    for (Future<Integer> f : reads) {
      try {
        ports.add(f.get(60, TimeUnit.SECONDS));
      } catch (java.util.concurrent.ExecutionException e) {
        assertThat(e.getCause()).as("a read no replica served in time (ryow.fallback=error)")
            .isInstanceOf(SQLTransientException.class);
        failed++;
      }
    }
    if (!rideSeen || failed > 0) {
      return false;
    }
    long serverWaits = Topology.unchanged(SharedWaitIT::serverWaits) - waitsBefore;
    MetricsSnapshot after = writer.unwrap(RyowConnection.class).clusterMetrics();
    long rides = after.waitsShared() - before.waitsShared();
    assertThat(ports).as("every read ran on a replica and found the row").hasSize(READERS)
        .allSatisfy(port -> assertThat(REPLICA_PORTS).contains(port));
    assertThat(rides).as("reads that rode on another's wait").isPositive();
    assertThat(serverWaits).as("WAIT_FOR_EXECUTED_GTID_SET the replicas ran, for %d reads (%d rides, on ports %s;"
        + " driver: %d waits, %d skipped, %d timed out, %d failed)", READERS, rides, ports,
        after.waits() - before.waits(), after.waitsSkipped() - before.waitsSkipped(),
        after.waitsTimedOut() - before.waitsTimedOut(), after.waitsFailed() - before.waitsFailed())
        .isPositive().isLessThan(READERS);
    assertThat(serverWaits + rides).as("each read sent a wait or rode on one, none both").isEqualTo(READERS);
    assertThat(after.waits() - before.waits()).as("the driver's count of waits sent").isEqualTo(serverWaits);
    return true;
  }

  private static boolean anyRiding(List<Thread> threads) {
    for (Thread t : threads) {
      for (StackTraceElement frame : t.getStackTrace()) {
        if (frame.getClassName().equals("dev.ryow.jdbc.cluster.wait.SharedWait")
            && frame.getMethodName().equals("await")) {
          return true;
        }
      }
    }
    return false;
  }

  private static long serverWaits() throws SQLException {
    long n = 0;
    for (int port : REPLICA_PORTS) {
      n += Topology.statementsLike(port, PIPELINED_WAIT);
    }
    return n;
  }

  private static void write(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)")) {
      ps.setInt(1, id);
      ps.setInt(2, id);
      ps.executeUpdate();
    }
  }

  /** Reads row {@code id}: the port of the server that ran the read; fails when the row was missing. */
  private static Integer read(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT v, @@port FROM " + TABLE + " WHERE id = ?")) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).as("row %d, read right after its write", id).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(id);
        return rs.getInt(2);
      }
    }
  }
}
