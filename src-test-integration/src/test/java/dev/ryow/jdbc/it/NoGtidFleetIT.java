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
 * on with a position: its file and offset are replica1's, not the primary's.
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
    assertThat(load.stale.get()).as("stale reads").isZero();
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
    assertThat(load.stale.get()).as("stale reads").isZero();
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
      assertThat(Long.parseLong(NoGtidTopology.queryString(CHAINED_PORT, "SELECT COUNT(*) FROM " + TABLE)))
          .as("the chained replica does replicate").isGreaterThan(0);
    } finally {
      Sandbox.run("--no-gtid", "detach", "chained");
    }
  }
}
