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

  @Test
  void primaryKilledReadsGoOnOnReplicasAndWritesResumeAfterItsRestart() throws Exception {
    String[] settings = {"ryow.waitTimeout=200", "ryow.failoverTimeout=1000"};
    try (Connection c = Topology.ryow(settings);
        PreparedStatement write = c.prepareStatement("INSERT INTO it_chaos (id, v, port) VALUES (?, ?, @@port)");
        PreparedStatement read = c.prepareStatement("SELECT v, @@port FROM it_chaos WHERE id = ?")) {
      write.setInt(1, 1);
      write.setInt(2, 3);
      write.executeUpdate();
      Sandbox.run("kill", "primary");
      int onReplicas = 0;
      for (int i = 0; i < 20; i++) {
        read.setInt(1, 1);
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).as("read-your-writes with the primary dead").isTrue();
          assertThat(rs.getInt(1)).isEqualTo(3);
          if (REPLICA_PORTS.contains(rs.getInt(2))) {
            onReplicas++;
          }
        }
      }
      write.setInt(1, 2);
      write.setInt(2, 6);
      org.assertj.core.api.Assertions.assertThatThrownBy(write::executeUpdate)
          .as("no writable server: the write fails after ryow.failoverTimeout")
          .isInstanceOf(SQLException.class);
      Sandbox.run("restart", "primary");
      write.setInt(1, 3);
      write.setInt(2, 9);
      write.executeUpdate();
      int port = (int) Topology.queryLong(PRIMARY_PORT, "SELECT port FROM it_chaos WHERE id = 3");
      System.out.printf("primary killed: %d of 20 reads served by replicas meanwhile; after its restart the write ran"
          + " on %d%n", onReplicas, port);
      assertThat(onReplicas).isEqualTo(20);
      assertThat(port).isEqualTo(PRIMARY_PORT);
    }
  }
}
