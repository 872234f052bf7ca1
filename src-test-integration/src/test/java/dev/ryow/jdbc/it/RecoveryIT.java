package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mysql.cj.jdbc.JdbcConnection;
import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Connections the server closed, GTIDs no server has, and the one background poller per cluster. */
class RecoveryIT {
  private static final String FOREIGN_UUID = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_recovery", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  private static int[] ask(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return new int[] {rs.getInt(1), rs.getInt(2)};
    }
  }

  private static void insert(Connection c, int id) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO it_recovery (id, v) VALUES (" + id + ", " + id + ")");
    }
  }

  @Test
  void primaryConnectionClosedByTheServerAReadRunsAgainAWriteFailsOnceAndTheNextWorks() throws SQLException {
    try (Connection c = Topology.ryow("ryow.failoverTimeout=20003")) {
      long session = c.unwrap(JdbcConnection.class).getId();
      Topology.exec(PRIMARY_PORT, "KILL " + session);
      int[] read = ask(c, "SELECT /* ryow:primary */ @@port, CONNECTION_ID()");
      assertThat(read[0]).as("a primary read re-ran on a new primary connection").isEqualTo(PRIMARY_PORT);
      assertThat((long) read[1]).isNotEqualTo(session);

      Topology.exec(PRIMARY_PORT, "KILL " + read[1]);
      assertThatThrownBy(() -> insert(c, 1))
          .as("a write whose connection broke is never run again: it may have committed")
          .isInstanceOf(SQLException.class);
      insert(c, 2);
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT v, @@port FROM it_recovery WHERE id = 2")) {
        assertThat(rs.next()).as("read-your-writes across the reconnect").isTrue();
        assertThat(rs.getInt(1)).isEqualTo(2);
      }
    }
  }

  @Test
  void replicaConnectionClosedByTheServerTheReadRunsAgainElsewhere() throws Exception {
    try (Connection c = Topology.ryow("ryow.failoverTimeout=20004")) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      int[] first = ask(c, "/* ryow:replica */ SELECT @@port, @@pseudo_thread_id");
      assertThat(first[0]).isIn(REPLICA_PORTS);
      MetricsSnapshot before = ryow.clusterMetrics();
      Topology.exec(first[0], "KILL " + first[1]);
      int[] again = ask(c, "/* ryow:replica */ SELECT @@port, @@pseudo_thread_id");
      MetricsSnapshot after = ryow.clusterMetrics();
      System.out.printf("replica session %d on %d killed; the next read ran on %d (session %d), %s%n",
          first[1], first[0], again[0], again[1], ryow.lastRead());
      // The application never sees the dead session: the read ran on another session, found dead either by the
      // query (run again: readsRetried) or before it, while the read was admitted (a wait or the session replay
      // on it failed: the next candidate). Where it then ran is admission's choice: the other replica, or the
      // primary when that one cannot serve it at once (not yet known to have what this JVM saw, or predicted
      // stalled on a loaded machine).
      assertThat(again).isNotEqualTo(first);
      assertThat(after.readsRetried() - before.readsRetried()).as("run again at most once").isBetween(0L, 1L);
      if (again[0] != PRIMARY_PORT) {
        assertThat(again[0]).isIn(REPLICA_PORTS);
      } else {
        assertThat(ryow.lastRead().placement()).isEqualTo(ReadPlacement.PRIMARY_FALLBACK);
      }
    }
  }

  @Test
  void aWatermarkNamingGtidsThePrimaryNeverHadIsForgottenNotWaitedForForever() throws Exception {
    try (Connection c = Topology.ryow("ryow.waitTimeout=100", "ryow.failoverTimeout=20005")) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      MetricsSnapshot before = ryow.clusterMetrics();
      insert(c, 7);
      String ours = ryow.consistencyToken();
      ryow.mergeConsistencyToken(FOREIGN_UUID + ":1-5");
      int port = -1;
      int reads = 0;
      while (reads < 100 && !REPLICA_PORTS.contains(port)) {
        try (Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT v, @@port FROM it_recovery WHERE id = 7")) {
          assertThat(rs.next()).isTrue();
          port = rs.getInt(2);
        }
        reads++;
        Thread.sleep(50);
      }
      MetricsSnapshot after = ryow.clusterMetrics();
      System.out.printf("foreign GTIDs forgotten after %d reads; token now %s%n", reads, ryow.consistencyToken());
      assertThat(port).as("reads are back on the replicas").isIn(REPLICA_PORTS);
      String now = ryow.consistencyToken();
      assertThat(now).doesNotContain(FOREIGN_UUID);
      assertThat(TokenCodec.DEFAULT.read(now).writes()).as("the writes the token names").isEqualTo(GtidSet.parse(ours));
      assertThat(after.lostGtidsForgotten() - before.lostGtidsForgotten()).isEqualTo(1);
    }
  }

  private static Set<Thread> monitorThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("ryow-monitor-") && t.isAlive())
        .collect(Collectors.toSet());
  }

  @Test
  void onePollerPerClusterThatStopsWhenNoConnectionRemains() throws Exception {
    Set<Thread> others = monitorThreads();
    List<Connection> connections = new ArrayList<>();
    String[] settings = {"ryow.pollInterval=50", "ryow.failoverTimeout=20006"};
    Set<Thread> ours;
    long polls;
    try {
      for (int i = 0; i < 8; i++) {
        connections.add(Topology.ryow(settings));
      }
      ours = monitorThreads();
      ours.removeAll(others);
      long before = Topology.statementsLike(REPLICA_PORTS.get(0), "replication_applier_status_by_worker");
      Thread.sleep(1_000);
      polls = Topology.statementsLike(REPLICA_PORTS.get(0), "replication_applier_status_by_worker") - before;
    } finally {
      for (Connection c : connections) {
        c.close();
      }
    }
    System.out.printf("8 connections, %d poller thread(s) of their own; replica1 saw %d polls in 1 s at 50 ms%n",
        ours.size(), polls);
    assertThat(ours).as("one poller thread for the cluster, not one per connection").hasSize(1);
    assertThat(polls).as("one poller's worth of polls on the replica").isBetween(5L, 40L);
    Thread poller = ours.iterator().next();
    assertThat(poller.isDaemon()).isTrue();
    poller.join(10_000);
    assertThat(poller.isAlive()).as("the poller stops once no connection remains").isFalse();
  }

  @Test
  void aReplicaWhoseApplierLagsBeyondTheBoundLeavesRotationAndComesBack() throws Exception {
    String[] settings = {"ryow.maxReplicaLag=500", "ryow.pollInterval=100", "ryow.failoverTimeout=20007"};
    int lagging = REPLICA_PORTS.get(0);
    int healthy = REPLICA_PORTS.get(1);
    Topology.exec(PRIMARY_PORT, "INSERT INTO it_recovery (id, v) VALUES (1, 1)");
    Topology.awaitReplicasCaughtUp();
    try (Connection lock = Topology.plain(lagging);
        Connection c = Topology.ryow(settings)) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      // A session on replica1 holds a table lock: its applier blocks in the middle of the next update,
      // and performance_schema's applier timestamps show the lag growing.
      try (Statement s = lock.createStatement()) {
        s.execute("LOCK TABLES it_recovery READ");
      }
      Topology.exec(PRIMARY_PORT, "UPDATE it_recovery SET v = 2 WHERE id = 1");
      MetricsSnapshot m = ryow.clusterMetrics();
      for (int i = 0; i < 100 && m.replicasOutOfRotation() == 0; i++) {
        Thread.sleep(50);
        m = ryow.clusterMetrics();
      }
      System.out.printf("applier lag: %s%n", m.replicaStates());
      assertThat(m.replicaStates()).contains(":" + lagging + "=LAGGING");
      assertThat(m.maxApplierLagMillis()).isGreaterThan(500);
      for (int i = 0; i < 20; i++) {
        assertThat(ask(c, "SELECT @@port, 0")[0]).as("reads avoid the lagging replica").isEqualTo(healthy);
      }
      try (Statement s = lock.createStatement()) {
        s.execute("UNLOCK TABLES");
      }
      for (int i = 0; i < 100 && m.replicasInRotation() < REPLICA_PORTS.size(); i++) {
        Thread.sleep(50);
        m = ryow.clusterMetrics();
      }
      assertThat(m.replicasInRotation()).as("back in rotation once it applied").isEqualTo(REPLICA_PORTS.size());
    }
  }
}
