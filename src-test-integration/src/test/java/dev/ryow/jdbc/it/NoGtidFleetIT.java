package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.NoGtidTopology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.NoGtidTopology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Servers without GTIDs through changes of the fleet, on defaults: a switchover by binary-log position
 * ({@code ryow-sandbox --no-gtid switchover}: the old primary read-only, the replicas caught up, the others pointed
 * at the new primary's position) under load from held connections and from HikariCP (0 stale reads, 0 lost
 * writes; the old positions mean nothing on the new primary, so each connection's next read waits for the new
 * primary's position), and a chained replica (a replica of replica1, {@code attach chained}) that is never waited
 * on with a position: its file and offset are replica1's, not the primary's. The primary killed ({@code SIGKILL})
 * and restarted under held connections and under HikariCP: 0 stale, 0 acknowledged writes lost, and after the
 * restart the replicas serve reads again, waited for with positions in the primary's new binary log file.
 */
class NoGtidFleetIT {
  private static final String TABLE = "it_nogtid_fleet";
  private static final int CHAINED_PORT = PRIMARY_PORT + 3;

  @BeforeEach
  void table() throws SQLException {
    NoGtidTopology.start();
    Sandbox.run("--no-gtid", "switchover", "primary");
    NoGtidTopology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL, port INT NOT NULL");
  }

  @AfterEach
  void back() {
    Sandbox.run("--no-gtid", "switchover", "primary");
  }

  private static void switchoverUnder(ReadBackLoad load, String target) throws Exception {
    try (load) {
      load.awaitWrites(ReadBackLoad.BEFORE, 100, 30);
      load.phase.set(ReadBackLoad.DURING);
      Sandbox.run("--no-gtid", "switchover", target);
      load.phase.set(ReadBackLoad.AFTER);
      load.awaitWrites(ReadBackLoad.AFTER, 200, 60);
      load.awaitReads(ReadBackLoad.AFTER, PRIMARY_PORT, 20, 30); // the old primary is a replica now
    }
  }

  private static void assertFollowed(ReadBackLoad load, int newPrimary) throws SQLException {
    assertThat(load.stale.get()).as("stale reads (%s)", load.staleReads).isZero();
    assertThat(load.wrongServer.get()).isZero();
    assertThat(load.writes(ReadBackLoad.AFTER)).as("writes continue on the new primary").isGreaterThanOrEqualTo(200);
    try (Connection p = NoGtidTopology.plain(newPrimary)) {
      assertThat(load.lostOn(p)).as("acknowledged writes missing on the new primary").isEmpty();
    }
    assertThat(Long.parseLong(NoGtidTopology.queryString(newPrimary,
        "SELECT COUNT(*) FROM " + TABLE + " WHERE port = " + newPrimary))).as("writes the new primary ran").isPositive();
    assertThat(load.reads(ReadBackLoad.AFTER, PRIMARY_PORT) + load.reads(ReadBackLoad.AFTER, REPLICA_PORTS.get(1)))
        .as("reads after the switchover on the new replicas (the old primary, replica2)").isPositive();
    assertThat(load.failedReads.get()).as("failed reads (%s)", load.failures).isZero();
  }

  @Test
  void aSwitchoverUnderHeldConnectionsLosesNothingAndReadsNeverStale() throws Exception {
    int newPrimary = REPLICA_PORTS.get(0);
    ReadBackLoad load = new ReadBackLoad(TABLE, ReadBackLoad.held(2, NoGtidTopology::ryow), 2,
        NoGtidTopology.SERVER_IDS);
    switchoverUnder(load, "replica1");
    System.out.printf("no GTIDs, switchover to replica1, held connections: %s%n", load);
    assertFollowed(load, newPrimary);
  }

  @Test
  void aSwitchoverUnderHikariLosesNothingAndReadsNeverStale() throws Exception {
    int newPrimary = REPLICA_PORTS.get(1);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(NoGtidTopology.ryowUrl());
    config.setMaximumPoolSize(4);
    ReadBackLoad load;
    try (HikariDataSource pool = new HikariDataSource(config)) {
      load = new ReadBackLoad(TABLE, ReadBackLoad.pooled(pool), 4, NoGtidTopology.SERVER_IDS);
      switchoverUnder(load, "replica2");
    }
    System.out.printf("no GTIDs, switchover to replica2, HikariCP: %s%n", load);
    assertThat(load.stale.get()).as("stale reads (%s)", load.staleReads).isZero();
    assertThat(load.wrongServer.get()).isZero();
    try (Connection p = NoGtidTopology.plain(newPrimary)) {
      assertThat(load.lostOn(p)).as("acknowledged writes missing on the new primary").isEmpty();
    }
    assertThat(load.writes(ReadBackLoad.AFTER)).as("writes continue on the new primary").isGreaterThanOrEqualTo(200);
    assertThat(load.reads(ReadBackLoad.AFTER, PRIMARY_PORT) + load.reads(ReadBackLoad.AFTER, REPLICA_PORTS.get(0)))
        .as("reads after the switchover on the new replicas (the old primary, replica1)").isPositive();
  }

  @Test
  void aChainedReplicaIsNeverWaitedOnWithAPosition() throws Exception {
    Sandbox.run("--no-gtid", "attach", "chained");
    try {
      String url = "jdbc:ryow:mysql://" + NoGtidTopology.HOST + ":" + PRIMARY_PORT + "," + NoGtidTopology.HOST + ":"
          + CHAINED_PORT + "/ryow?user=ryow&password=ryow";
      long waitsBefore = NoGtidTopology.statementsLike(CHAINED_PORT, "SOURCE_POS_WAIT");
      int onChained = 0;
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        RyowConnection r = c.unwrap(RyowConnection.class);
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!r.clusterMetrics().replicaStates().contains("=INDIRECT")) {
          assertThat(System.nanoTime()).as("the poller judged the chained replica: %s",
              r.clusterMetrics().replicaStates()).isLessThan(deadline);
          Thread.sleep(50);
        }
        for (int i = 1; i <= 30; i++) {
          s.executeUpdate("INSERT INTO " + TABLE + " VALUES (" + i + ", " + i + ", @@port)");
          try (ResultSet rs = s.executeQuery("SELECT COUNT(*), @@port FROM " + TABLE + " WHERE id = " + i)) {
            rs.next();
            assertThat(rs.getInt(1)).as("read %d saw its own write", i).isEqualTo(1);
            onChained += rs.getInt(2) == CHAINED_PORT ? 1 : 0;
          }
        }
        assertThat(r.clusterMetrics().replicaStates()).as("why").contains("not directly from the primary");
      }
      assertThat(NoGtidTopology.statementsLike(CHAINED_PORT, "SOURCE_POS_WAIT") - waitsBefore)
          .as("position waits sent to the chained replica").isZero();
      assertThat(onChained).as("reads after a write the chained replica answered").isZero();
      // The chained replica applies what replica1 applied and logged, a little later: on a busy machine the 30 rows
      // may not be there yet when the loop ends (a loaded CI run of 6b22439 read 0 here). Wait for them, bounded.
      String count = "SELECT COUNT(*) FROM " + TABLE + " WHERE id BETWEEN 1 AND 30";
      long deadline = System.nanoTime() + 60_000_000_000L;
      long rows = Long.parseLong(NoGtidTopology.queryString(CHAINED_PORT, count));
      while (rows < 30 && System.nanoTime() < deadline) {
        Thread.sleep(50);
        rows = Long.parseLong(NoGtidTopology.queryString(CHAINED_PORT, count));
      }
      assertThat(rows).as("the chained replica does replicate: it applied the 30 rows within 60 s").isEqualTo(30);
    } finally {
      Sandbox.run("--no-gtid", "detach", "chained");
    }
  }

  /** Kills the primary (SIGKILL), waits 3 s, restarts it; returns the reads the replicas ran meanwhile. */
  private static long killAndRestartThePrimary(String table, java.util.concurrent.atomic.AtomicInteger phase)
      throws Exception {
    long before = replicaReads(table);
    Sandbox.run("--no-gtid", "kill", "primary");
    phase.set(ReadBackLoad.DURING);
    Thread.sleep(3_000);
    long whileDead = replicaReads(table) - before;
    Sandbox.run("--no-gtid", "restart", "primary");
    phase.set(ReadBackLoad.AFTER);
    return whileDead;
  }

  private static long replicaReads(String table) throws SQLException {
    long n = 0;
    for (int port : REPLICA_PORTS) {
      n += NoGtidTopology.statementsLike(port, "SELECT `v` , @@PORT , @@SERVER_ID FROM `" + table);
    }
    return n;
  }

  @Test
  void thePrimaryKilledAndRestartedUnderHeldConnectionsLosesNothingAndReadsNeverStale() throws Exception {
    String table = "it_nogtid_held";
    NoGtidTopology.recreateTable(table, "id INT PRIMARY KEY, v INT NOT NULL, port INT NOT NULL, conn INT NOT NULL");
    HeldConnections w = new HeldConnections(NoGtidTopology.ryowUrl(), table, 4, 8, 2);
    long replicaReadsWhileDead;
    try (w) {
      Thread.sleep(1_500);
      replicaReadsWhileDead = killAndRestartThePrimary(table, w.phase);
      w.awaitWritesAfter(20, 90);
    }
    System.out.printf("no GTIDs, held connections shared by threads, primary killed and restarted: %d acknowledged,"
            + " per connection before/during/after %s; stale %d; failed %d %s; reader reads after %d%n",
        w.acknowledged.size(), w.perConnection(), w.stale.get(), w.failedStatements.get(), w.failures,
        w.readerReads(HeldConnections.AFTER));
    try (Connection p = NoGtidTopology.plain(PRIMARY_PORT)) {
      w.assertSurvived(p, 20);
    }
    assertThat(w.readerReads(HeldConnections.AFTER)).as("reader reads after the restart").isPositive();
    assertThat(w.failedReaderStatements.get()).as("failed reads of the readers (%s)", w.readerFailures).isZero();
  }

  @Test
  void thePrimaryKilledAndRestartedUnderHikariLosesNothingAndReadsNeverStale() throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(NoGtidTopology.ryowUrl());
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(4);
    int threads = 8;
    ReadBackLoad load;
    long replicaReadsWhileDead;
    try (HikariDataSource pool = new HikariDataSource(config)) {
      load = new ReadBackLoad(TABLE, ReadBackLoad.pooled(pool), threads, NoGtidTopology.SERVER_IDS);
      try (load) {
        load.awaitWrites(ReadBackLoad.BEFORE, 100, 30);
        replicaReadsWhileDead = killAndRestartThePrimary(TABLE, load.phase);
        load.awaitWrites(ReadBackLoad.AFTER, 100, 60);
        // The replicas' receivers reconnect to the restarted primary, whose binary log went on in a new file.
        load.awaitReads(ReadBackLoad.AFTER, REPLICA_PORTS.get(0), 20, 30);
      }
    }
    System.out.printf("no GTIDs, HikariCP, primary killed and restarted: %s; reads the replicas ran while it was dead"
        + " %d%n", load, replicaReadsWhileDead);
    assertThat(load.stale.get()).as("stale reads (%s)", load.staleReads).isZero();
    assertThat(load.wrongServer.get()).isZero();
    try (Connection p = NoGtidTopology.plain(PRIMARY_PORT)) {
      assertThat(load.lostOn(p)).as("acknowledged writes missing on the primary").isEmpty();
    }
    assertThat(load.writes(ReadBackLoad.AFTER)).as("writes after the restart").isGreaterThanOrEqualTo(100);
    assertThat(load.failedReads.get()).as("failed reads (%s)", load.failures).isZero();
    load.assertWritesFailedAsDocumentedForADeadPrimary(threads);
    assertThat(load.reads(ReadBackLoad.AFTER, REPLICA_PORTS.get(0))).as("reads on replica1 after the restart, waited"
        + " for with positions in the primary's new binary log file").isGreaterThanOrEqualTo(20);
  }
}
