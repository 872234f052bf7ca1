package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.DATABASE;
import static dev.ryow.jdbc.it.Topology.HOST;
import static dev.ryow.jdbc.it.Topology.PASSWORD;
import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static dev.ryow.jdbc.it.Topology.USER;
import static dev.ryow.jdbc.it.Topology.sleep;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fleets shaped as users run them, on the sandbox's extra nodes ({@code ryow-sandbox attach}): a replica of a
 * replica ({@code chained}, from replica1), a delayed replica ({@code delayed}, {@code SOURCE_DELAY=60}), a
 * replica the URL does not name but the primary reports ({@code spare}), and a multi-source replica
 * ({@code multi}: channel {@code main} from the primary, {@code side} from an unrelated server
 * {@code source2}), whose other source's GTIDs must not join the JVM's monotonic-read bound (issue 28: they
 * once sent every later IT class of this JVM to the primary). Each test names its own URL; the nodes are
 * attached once for the class and detached after it. Routing is proven by {@code @@port}.
 */
@AboutSettings(value = "ryow.discoverReplicas",
    why = "replicas discovered from the primary's SHOW REPLICAS: a replica started later serves reads, a stopped one leaves")
class TopologiesIT {
  private static final int CHAINED_PORT = PRIMARY_PORT + 3;
  private static final int DELAYED_PORT = PRIMARY_PORT + 4;
  private static final int SPARE_PORT = PRIMARY_PORT + 5;
  private static final int SOURCE2_PORT = PRIMARY_PORT + 6;
  private static final int MULTI_PORT = PRIMARY_PORT + 7;
  private static final String TABLE = "it_topologies";

  @BeforeAll
  static void attach() throws SQLException {
    Sandbox.run("detach", "spare");
    Sandbox.run("attach", "chained", "delayed", "source2", "multi");
    Topology.exec(SOURCE2_PORT, "CREATE TABLE IF NOT EXISTS side.it_side (id INT AUTO_INCREMENT PRIMARY KEY, v INT)");
    // Dropped and created, not emptied: the attached nodes start with the tables but not their rows, and a
    // row-based DELETE of rows they lack would stop their appliers.
    Topology.exec(PRIMARY_PORT, "DROP TABLE IF EXISTS " + TABLE);
    Topology.exec(PRIMARY_PORT, "CREATE TABLE " + TABLE + " (id INT PRIMARY KEY, v INT NOT NULL)");
  }

  @AfterAll
  static void detach() {
    Sandbox.run("detach", "chained", "delayed", "spare", "multi", "source2");
  }

  private static String url(int... replicaPorts) {
    StringBuilder url = new StringBuilder("jdbc:ryow:mysql://").append(HOST).append(':').append(PRIMARY_PORT);
    for (int port : replicaPorts) {
      url.append(',').append(HOST).append(':').append(port);
    }
    return url.append('/').append(DATABASE).append("?user=").append(USER).append("&password=").append(PASSWORD)
        .toString();
  }

  /** Writes row {@code id} through {@code c} and reads it back at once: the port that answered, -1 if not seen. */
  private static int writeThenRead(Connection c, int id) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO " + TABLE + " VALUES (" + id + ", " + id + ")");
      try (ResultSet rs = s.executeQuery("SELECT @@port, COUNT(*) FROM " + TABLE + " WHERE id = " + id)) {
        rs.next();
        return rs.getLong(2) == 1 ? rs.getInt(1) : -1;
      }
    }
  }

  @Test
  void aChainedReplicaIsWaitedOnLikeADirectOne() throws SQLException {
    long waitsBefore = Topology.statementsLike(CHAINED_PORT, "WAIT_FOR_EXECUTED_GTID_SET");
    int onChained = 0;
    try (Connection c = DriverManager.getConnection(url(CHAINED_PORT))) {
      Topology.awaitPollRounds(c, 2, 2);
      for (int i = 1; i <= 30; i++) {
        int port = writeThenRead(c, 1000 + i);
        assertThat(port).as("read %d saw its own write", i).isNotEqualTo(-1);
        assertThat(port).isIn(PRIMARY_PORT, CHAINED_PORT);
        onChained += port == CHAINED_PORT ? 1 : 0;
      }
    }
    long waits = Topology.statementsLike(CHAINED_PORT, "WAIT_FOR_EXECUTED_GTID_SET") - waitsBefore;
    // Two hops behind the primary: the read right after a write finds the chained replica without it and
    // waits there (pipelined), then reads the row from it.
    assertThat(waits).as("waits sent to the chained replica").isPositive();
    assertThat(onChained).as("reads answered by the chained replica, of 30").isGreaterThanOrEqualTo(15);
  }

  @Test
  void aDelayedReplicaNeverMakesAConsistentReadWaitItsDelay() throws SQLException {
    long waitsBefore = Topology.statementsLike(DELAYED_PORT, "WAIT_FOR_EXECUTED_GTID_SET");
    try (Connection c = DriverManager.getConnection(url(DELAYED_PORT))) {
      Topology.awaitPollRounds(c, 2, 2);
      for (int i = 1; i <= 10; i++) {
        assertThat(writeThenRead(c, 2000 + i)).as("read %d saw its own write, on the primary", i)
            .isEqualTo(PRIMARY_PORT);
      }
      assertThat(c.unwrap(RyowConnection.class).clusterMetrics().replicaStates())
          .as("the delayed replica's state").contains("DELAYED");
    }
    assertThat(Topology.statementsLike(DELAYED_PORT, "WAIT_FOR_EXECUTED_GTID_SET") - waitsBefore)
        .as("waits sent to the delayed replica").isZero();
  }

  @Test
  void aReplicaThePrimaryReportsServesReadsAndLeavesRotationWhenStopped() throws Exception {
    int replica1 = REPLICA_PORTS.get(0);
    String url = url(replica1) + "&ryow.discoverReplicas=true";
    try (Connection c = DriverManager.getConnection(url)) {
      Topology.awaitPollRounds(c, 2, 2);
      // replica1's applier stopped: reads go to the replicas the primary reports (replica2, multi's channel from
      // the primary, then the spare; delayed is never waited on), each in its turn.
      Topology.exec(replica1, "STOP REPLICA SQL_THREAD");
      java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.atomic.AtomicLong firstOnSpare = new java.util.concurrent.atomic.AtomicLong();
      java.util.Map<Integer, Integer> byPort = new java.util.concurrent.ConcurrentSkipListMap<>();
      java.util.concurrent.ExecutorService reader = java.util.concurrent.Executors.newSingleThreadExecutor();
      try {
        // Reads flow while the spare is added, as in an application.
        java.util.concurrent.Future<Integer> unseen = reader.submit(() -> {
          int missed = 0;
          try (Connection rc = DriverManager.getConnection(url)) {
            for (int i = 1; !stop.get(); i++) {
              // Ids of its own range: it runs until the spare serves a read, which may be thousands of pages.
              int port = writeThenRead(rc, 1_000_000 + i);
              missed += port == -1 ? 1 : 0;
              byPort.merge(port, 1, Integer::sum);
              if (port == SPARE_PORT) {
                firstOnSpare.compareAndSet(0, System.nanoTime());
              }
              sleep(10);
            }
          }
          return missed;
        });
        sleep(1_000);
        Sandbox.run("attach", "spare");
        long attached = System.nanoTime();
        RyowConnection r = c.unwrap(RyowConnection.class);
        long inRotation = 0;
        while (firstOnSpare.get() == 0) {
          if (inRotation == 0 && r.clusterMetrics().replicaStates().contains(":" + SPARE_PORT + "=UP")) {
            inRotation = System.nanoTime();
          }
          assertThat(System.nanoTime() - attached).as("a read reached the discovered replica within 20 s (reads by"
              + " port %s; replicas: %s)", byPort, r.clusterMetrics().replicaStates()).isLessThan(20_000_000_000L);
          sleep(2);
        }
        stop.set(true);
        assertThat(unseen.get(30, java.util.concurrent.TimeUnit.SECONDS)).as("reads that missed their own write")
            .isZero();
        System.out.printf("TopologiesIT: the spare was in rotation %d ms after attach returned (poll interval 200 ms)"
            + " and served its first read %d ms after attach returned (reads by port %s)%n",
            inRotation == 0 ? -1 : (inRotation - attached) / 1_000_000, (firstOnSpare.get() - attached) / 1_000_000,
            byPort);
        Sandbox.run("detach", "spare");
        Topology.awaitPollRounds(c, 2, 3);
        for (int i = 1; i <= 20; i++) {
          int port = writeThenRead(c, 4000 + i);
          assertThat(port).as("read %d after the spare stopped", i).isNotEqualTo(-1).isNotEqualTo(SPARE_PORT);
        }
      } finally {
        stop.set(true);
        reader.shutdownNow();
        Topology.exec(replica1, "START REPLICA SQL_THREAD");
      }
    }
  }

  @Test
  void aMultiSourceReplicaWaitsOnThePrimarysWritesAndItsOtherSourceBoundsNoLaterRead() throws SQLException {
    String source2Uuid;
    try (Connection side = Topology.plain(SOURCE2_PORT)) {
      source2Uuid = Topology.queryString(side, "SELECT @@server_uuid");
    }
    long waitsBefore = Topology.statementsLike(MULTI_PORT, "WAIT_FOR_EXECUTED_GTID_SET");
    int onMulti = 0;
    try (Connection c = DriverManager.getConnection(url(MULTI_PORT))) {
      RyowConnection r = c.unwrap(RyowConnection.class);
      long forgottenBefore = r.clusterMetrics().lostGtidsForgotten();
      Topology.awaitPollRounds(c, 2, 2);
      for (int i = 1; i <= 30; i++) {
        Topology.exec(SOURCE2_PORT, "INSERT INTO side.it_side (v) VALUES (" + i + ")"); // the other channel's traffic
        int port = writeThenRead(c, 5000 + i);
        assertThat(port).as("read %d saw its own write", i).isNotEqualTo(-1);
        assertThat(port).isIn(PRIMARY_PORT, MULTI_PORT);
        onMulti += port == MULTI_PORT ? 1 : 0;
      }
      Topology.awaitPollRounds(c, 2, 2); // the reads' positions are resolved, and the primary's polls rule source2 out
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT @@port")) {
        rs.next();
        assertThat(rs.getInt(1)).as("a read after the polls").isIn(PRIMARY_PORT, MULTI_PORT);
      }
      assertThat(r.consistencyToken()).as("what the reads saw, in the connection's token")
          .doesNotContain(source2Uuid);
      assertThat(r.clusterMetrics().lostGtidsForgotten() - forgottenBefore)
          .as("GTIDs forgotten because the primary lacks them").isZero();
    }
    try (Connection side = Topology.plain(SOURCE2_PORT);
        Connection multi = Topology.plain(MULTI_PORT)) {
      assertThat(Topology.queryString(multi, "SELECT @@global.gtid_executed"))
          .as("the replica's gtid_executed holds both sources")
          .contains(Topology.queryString(side, "SELECT @@server_uuid"));
    }
    assertThat(Topology.statementsLike(MULTI_PORT, "WAIT_FOR_EXECUTED_GTID_SET") - waitsBefore)
        .as("waits sent to the multi-source replica").isPositive();
    assertThat(onMulti).as("reads answered by the multi-source replica, of 30").isGreaterThanOrEqualTo(15);

    // The JVM's read bound holds nothing of source2: a fresh connection to the other replicas reads there.
    int[] replicas = REPLICA_PORTS.stream().mapToInt(Integer::intValue).toArray();
    try (Connection fresh = DriverManager.getConnection(url(replicas))) {
      RyowConnection r = fresh.unwrap(RyowConnection.class);
      long forgottenBefore = r.clusterMetrics().lostGtidsForgotten();
      Topology.awaitPollRounds(fresh, 2, 3);
      for (int i = 1; i <= 5; i++) {
        try (Statement s = fresh.createStatement(); ResultSet rs = s.executeQuery("SELECT @@port")) {
          rs.next();
          assertThat(rs.getInt(1)).as("plain read %d of a fresh connection", i).isIn(REPLICA_PORTS);
        }
      }
      assertThat(r.consistencyToken()).as("the fresh connection's token").doesNotContain(source2Uuid);
      assertThat(r.clusterMetrics().lostGtidsForgotten() - forgottenBefore)
          .as("GTIDs the fresh connection's cluster forgot").isZero();
    }
  }

  @Test
  void aStoppedChannelFromTheOtherSourceLeavesTheMultiSourceReplicaInRotation() throws Exception {
    long waitsBefore = Topology.statementsLike(MULTI_PORT, "WAIT_FOR_EXECUTED_GTID_SET");
    Topology.exec(MULTI_PORT, "STOP REPLICA FOR CHANNEL 'side'");
    try (Connection c = DriverManager.getConnection(url(MULTI_PORT))) {
      RyowConnection r = c.unwrap(RyowConnection.class);
      // Past ryow.applierStopGrace (2 s): a stopped channel of this cluster would be REPLICATION_STOPPED by now.
      Thread.sleep(2_500);
      Topology.awaitPollRounds(c, 2, 2);
      assertThat(r.clusterMetrics().replicaStates()).as("multi, its other source's channel stopped")
          .contains(":" + MULTI_PORT + "=UP");
      int onMulti = 0;
      for (int i = 1; i <= 30; i++) {
        int port = writeThenRead(c, 6000 + i);
        assertThat(port).as("read %d saw its own write", i).isNotEqualTo(-1);
        onMulti += port == MULTI_PORT ? 1 : 0;
      }
      assertThat(onMulti).as("reads after a write answered by multi, of 30").isGreaterThanOrEqualTo(15);
    } finally {
      Topology.exec(MULTI_PORT, "START REPLICA FOR CHANNEL 'side'");
    }
    assertThat(Topology.statementsLike(MULTI_PORT, "WAIT_FOR_EXECUTED_GTID_SET") - waitsBefore)
        .as("waits sent to multi").isPositive();
  }
}
