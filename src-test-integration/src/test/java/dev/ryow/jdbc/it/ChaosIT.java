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
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Servers dying and the primary moving, on the real sandbox ({@code ryow-sandbox kill/restart/switchover}).
 * Each test restores the normal topology afterwards (the node 'primary' is the primary, all nodes up).
 * Where each statement ran is asked of the server ({@code @@port}).
 */
class ChaosIT {
  /** Phases of a run: what the test has done to the sandbox so far. */
  private static final int BEFORE = 0;
  private static final int DURING = 1;
  private static final int AFTER = 2;

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_chaos", "id INT PRIMARY KEY, v INT NOT NULL, port INT NOT NULL");
  }

  @AfterEach
  void restore() {
    Sandbox.restoreTopology();
  }

  /** What the workers saw. */
  static final class Run {
    final AtomicInteger phase = new AtomicInteger(BEFORE);
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicInteger ids = new AtomicInteger();
    final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    final Map<String, LongAdder> readsByPhaseAndPort = new ConcurrentHashMap<>();
    final AtomicLong stale = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final ConcurrentLinkedQueue<String> writeErrors = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<String> readErrors = new ConcurrentLinkedQueue<>();

    long reads(int inPhase, int port) {
      LongAdder a = readsByPhaseAndPort.get(inPhase + "@" + port);
      return a == null ? 0 : a.sum();
    }
  }

  /** Workers that write a row (recording where it ran) and read it back, until {@code run.stop}. */
  private static List<Future<?>> start(ExecutorService pool, int threads, Run run, String... settings) {
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      futures.add(pool.submit(() -> {
        try (Connection c = Topology.ryow(settings);
            PreparedStatement write = c.prepareStatement("INSERT INTO it_chaos (id, v, port) VALUES (?, ?, @@port)");
            PreparedStatement read = c.prepareStatement("SELECT v, @@port FROM it_chaos WHERE id = ?")) {
          while (!run.stop.get()) {
            int id = run.ids.incrementAndGet();
            try {
              write.setInt(1, id);
              write.setInt(2, id * 3);
              write.executeUpdate();
              run.acknowledged.add(id);
            } catch (SQLException e) {
              run.writeErrors.add(e.getSQLState() + " " + e.getMessage());
              Thread.sleep(20);
              continue;
            }
            int phase = run.phase.get();
            read.setInt(1, id);
            try (ResultSet rs = read.executeQuery()) {
              if (rs.next() && rs.getInt(1) == id * 3) {
                run.readsByPhaseAndPort.computeIfAbsent(phase + "@" + rs.getInt(2), k -> new LongAdder()).increment();
              } else {
                run.stale.incrementAndGet();
              }
            } catch (SQLTransientException e) {
              run.refused.incrementAndGet();
            } catch (SQLException e) {
              run.readErrors.add(e.getSQLState() + " " + e.getMessage());
            }
            Thread.sleep(5);
          }
        }
        return null;
      }));
    }
    return futures;
  }

  private static void finish(List<Future<?>> futures, Run run) throws Exception {
    run.stop.set(true);
    for (Future<?> f : futures) {
      // Bounded: a worker stuck in a wait that never ends fails the test here.
      f.get(60, TimeUnit.SECONDS);
    }
  }

  private static MetricsSnapshot metrics(String... settings) throws SQLException {
    try (Connection c = Topology.ryow(settings)) {
      return c.unwrap(RyowConnection.class).clusterMetrics();
    }
  }

  @Test
  void killedReplicaReadsContinueOnTheOtherAndTheRestartedOneComesBack() throws Exception {
    String[] settings = {"ryow.waitTimeout=200", "ryow.failoverTimeout=20001"};
    int killedPort = REPLICA_PORTS.get(0);
    int otherPort = REPLICA_PORTS.get(1);
    MetricsSnapshot before = metrics(settings);
    Run run = new Run();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> futures = start(pool, 4, run, settings);
      Thread.sleep(1_500);
      Sandbox.run("kill", "replica1");
      run.phase.set(DURING);
      Thread.sleep(3_000);
      Sandbox.run("restart", "replica1");
      run.phase.set(AFTER);
      for (int i = 0; i < 300 && run.reads(AFTER, killedPort) < 20; i++) {
        Thread.sleep(100);
      }
      finish(futures, run);
    } finally {
      pool.shutdownNow();
    }
    MetricsSnapshot after = metrics(settings);
    System.out.printf("kill -9 replica1: before %d/%d reads on replica1/replica2, while dead %d/%d (primary %d),"
            + " after restart %d/%d; stale %d, refused %d, read errors %s; replica failures %d, recoveries %d%n",
        run.reads(BEFORE, killedPort), run.reads(BEFORE, otherPort), run.reads(DURING, killedPort),
        run.reads(DURING, otherPort), run.reads(DURING, PRIMARY_PORT), run.reads(AFTER, killedPort),
        run.reads(AFTER, otherPort), run.stale.get(), run.refused.get(), run.readErrors,
        after.replicaFailures() - before.replicaFailures(), after.replicaRecoveries() - before.replicaRecoveries());
    assertThat(run.stale.get()).isZero();
    assertThat(run.readErrors).isEmpty();
    assertThat(run.writeErrors).isEmpty();
    assertThat(run.reads(BEFORE, killedPort)).as("replica1 served reads before the kill").isPositive();
    assertThat(run.reads(DURING, otherPort)).as("replica2 served reads while replica1 was dead").isPositive();
    assertThat(run.reads(AFTER, killedPort)).as("replica1 back in rotation after its restart").isPositive();
    assertThat(after.replicaRecoveries() - before.replicaRecoveries()).isPositive();
  }

  @Test
  void switchoverWritesResumeOnTheNewPrimaryAndNoAcknowledgedWriteIsLost() throws Exception {
    String[] settings = {"ryow.waitTimeout=200", "ryow.failoverTimeout=20002"};
    int newPrimaryPort = REPLICA_PORTS.get(0);
    MetricsSnapshot before = metrics(settings);
    Run run = new Run();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> futures = start(pool, 4, run, settings);
      Thread.sleep(1_500);
      run.phase.set(DURING);
      Sandbox.run("switchover", "replica1");
      run.phase.set(AFTER);
      Thread.sleep(3_000);
      finish(futures, run);
    } finally {
      pool.shutdownNow();
    }
    MetricsSnapshot after = metrics(settings);
    long onNewPrimary;
    long onOldPrimary;
    Set<Integer> present = new HashSet<>();
    try (Connection c = Topology.plain(newPrimaryPort);
        Statement s = c.createStatement()) {
      assertThat(Topology.queryString(c, "SELECT @@global.read_only")).as("replica1 is the writable primary now")
          .isEqualTo("0");
      try (ResultSet rs = s.executeQuery("SELECT id FROM it_chaos")) {
        while (rs.next()) {
          present.add(rs.getInt(1));
        }
      }
      onNewPrimary = Topology.queryLong(newPrimaryPort, "SELECT COUNT(*) FROM it_chaos WHERE port = " + newPrimaryPort);
      onOldPrimary = Topology.queryLong(newPrimaryPort, "SELECT COUNT(*) FROM it_chaos WHERE port = " + PRIMARY_PORT);
    }
    Set<Integer> lost = new HashSet<>(run.acknowledged);
    lost.removeAll(present);
    System.out.printf("switchover primary -> replica1: %d acknowledged writes (%d on the old primary, %d on the new),"
            + " %d lost; write errors %d %s; reads after the switch on %s; stale %d, refused %d, read errors %s;"
            + " failovers %d, primary reconnects %d%n",
        run.acknowledged.size(), onOldPrimary, onNewPrimary, lost.size(), run.writeErrors.size(),
        run.writeErrors.stream().limit(3).toList(), run.readsByPhaseAndPort.keySet(), run.stale.get(),
        run.refused.get(), run.readErrors, after.primaryFailovers() - before.primaryFailovers(),
        after.primaryReconnects() - before.primaryReconnects());
    assertThat(lost).as("acknowledged writes missing on the new primary").isEmpty();
    assertThat(onOldPrimary).as("writes ran on the old primary before the switch").isPositive();
    assertThat(onNewPrimary).as("writes resumed on the new primary, same connections").isPositive();
    assertThat(run.stale.get()).isZero();
    assertThat(run.readErrors).isEmpty();
    assertThat(after.primaryFailovers() - before.primaryFailovers()).isEqualTo(1);
  }

  /**
   * Reads right after their own writes while the primary is dead: the replicas have received the writes
   * but not applied them yet (a session on each holds {@code FLUSH TABLES WITH READ LOCK}, so the applier
   * cannot commit) when the primary is killed, so each read's replica wait times out. The read must not
   * fall back to the dead primary: it waits on the replicas, and returns its row from one once the lock
   * is released, every time (never a {@code CommunicationsException}). The same connections write again
   * once the primary is restarted. {@value #READERS} connections read at once, in each of {@value #KILLS}
   * kills.
   */
  @Test
  void primaryKilledReadsRightAfterWritesRunOnReplicasAndWritesResumeAfterItsRestart() throws Exception {
    int served = 0;
    long slowest = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      Topology.awaitReplicasCaughtUp();
      List<Connection> connections = new ArrayList<>();
      ExecutorService pool = Executors.newFixedThreadPool(READERS);
      try {
        for (int i = 0; i < READERS; i++) {
          connections.add(Topology.ryow());
        }
        List<Connection> locks = lockReplicas();
        for (int i = 0; i < READERS; i++) {
          try (Statement s = connections.get(i).createStatement()) {
            int id = kill * 100 + i;
            s.executeUpdate("INSERT INTO it_chaos (id, v, port) VALUES (" + id + ", " + id * 3 + ", @@port)");
          }
        }
        // Received, not applied: what the test is about. Without this wait a busy machine's receiver may not
        // have the writes when the primary dies, and then no replica can ever serve them (CI, 2026-12-06).
        Topology.awaitReplicasReceived();
        Sandbox.run("kill", "primary");
        List<Future<int[]>> reads = new ArrayList<>();
        for (int i = 0; i < READERS; i++) {
          int id = kill * 100 + i;
          Connection c = connections.get(i);
          reads.add(pool.submit(() -> readBack(c, id)));
        }
        Thread.sleep(1_000); // the reads wait meanwhile: their replica waits time out, the primary is dead
        unlock(locks);
        for (Future<int[]> f : reads) {
          int[] portAndMillis = f.get(60, TimeUnit.SECONDS);
          assertThat(REPLICA_PORTS).as("port that served a read right after its write, primary dead")
              .contains(portAndMillis[0]);
          served++;
          slowest = Math.max(slowest, portAndMillis[1]);
        }
        Sandbox.run("restart", "primary");
        for (int i = 0; i < READERS; i++) {
          try (Statement s = connections.get(i).createStatement()) {
            int id = kill * 100 + 50 + i;
            s.executeUpdate("INSERT INTO it_chaos (id, v, port) VALUES (" + id + ", " + id * 3 + ", @@port)");
          }
        }
        assertThat(Topology.queryLong(PRIMARY_PORT, "SELECT COUNT(*) FROM it_chaos WHERE id >= " + (kill * 100 + 50)
            + " AND id < " + (kill * 100 + 100) + " AND port = " + PRIMARY_PORT))
            .as("writes of the same connections on the restarted primary").isEqualTo(READERS);
      } finally {
        pool.shutdownNow();
        for (Connection c : connections) {
          c.close();
        }
      }
    }
    System.out.printf("primary killed right after writes the replicas had not applied: %d of %d reads served by"
        + " replicas, the slowest in %d ms (the appliers were held 1000 ms after the kill)%n", served, KILLS * READERS,
        slowest);
    assertThat(served).isEqualTo(KILLS * READERS);
  }

  private static final int KILLS = 3;
  private static final int READERS = 8;

  /** Reads row {@code id} back: the port that served it and how long it took; fails unless the row is right. */
  private static int[] readBack(Connection c, int id) throws SQLException {
    long t0 = System.nanoTime();
    try (PreparedStatement read = c.prepareStatement("SELECT v, @@port FROM it_chaos WHERE id = ?")) {
      read.setInt(1, id);
      try (ResultSet rs = read.executeQuery()) {
        assertThat(rs.next()).as("read-your-writes with the primary dead: row %d", id).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(id * 3);
        return new int[] {rs.getInt(2), (int) ((System.nanoTime() - t0) / 1_000_000)};
      }
    }
  }

  /** A session on each replica holding {@code FLUSH TABLES WITH READ LOCK}: the appliers receive but cannot apply. */
  private static List<Connection> lockReplicas() throws SQLException {
    List<Connection> locks = new ArrayList<>();
    try {
      for (int port : REPLICA_PORTS) {
        Connection c = Topology.plain(port);
        locks.add(c);
        try (Statement s = c.createStatement()) {
          s.execute("SET SESSION lock_wait_timeout = 5");
          s.execute("FLUSH TABLES WITH READ LOCK");
        }
      }
    } catch (SQLException e) {
      unlock(locks);
      throw e;
    }
    return locks;
  }

  private static void unlock(List<Connection> locks) throws SQLException {
    for (Connection c : locks) {
      try (c; Statement s = c.createStatement()) {
        s.execute("UNLOCK TABLES");
      }
    }
  }
}
