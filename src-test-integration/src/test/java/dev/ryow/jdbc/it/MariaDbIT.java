package dev.ryow.jdbc.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.gtid.MariaDbGtidPosition;
import dev.ryow.jdbc.server.LastGtidTracker;
import dev.ryow.jdbc.server.MariaDbWait;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The MariaDB building blocks against a real MariaDB primary and GTID replicas
 * ({@code sandbox/ryow-sandbox --mariadb}, 11.8 by default, 10.11 with {@code RYOW_SANDBOX_MARIADB=10.11}):
 * capture from {@code last_gtid} including the repeated-seq_no trap, the pipelined {@code MASTER_GTID_WAIT}
 * under a stopped and a blocked applier. The driver routing on MariaDB is proven by the other
 * {@code MariaDb*IT} classes. Where a read ran is asked of the server ({@code @@port}, {@code @@server_id}).
 */
class MariaDbIT {
  private static final int PORT_BASE =
      Integer.parseInt(System.getenv().getOrDefault("RYOW_SANDBOX_PORT_BASE", "23306"));
  private static final int PRIMARY = PORT_BASE + 30;
  private static final int REPLICA1 = PORT_BASE + 31;
  private static final int REPLICA1_SERVER_ID = 22;
  private static final String DOMAIN_A = "0";
  private static final String DOMAIN_B = "7";
  private static final String READ = MariaDbWait.PREFIX + "SELECT @@port, @@server_id, v FROM it_mdb WHERE id = ?";

  private Connection primary;
  private Connection replica;
  private LastGtidTracker tracker;

  @BeforeEach
  void open() throws SQLException {
    Sandbox.run("--mariadb", "start");
    primary = DriverManager.getConnection(
        "jdbc:mysql://127.0.0.1:" + PRIMARY + "/ryow?user=ryow&password=ryow&trackSessionState=true");
    tracker = LastGtidTracker.attach(primary);
    replica = DriverManager.getConnection(
        "jdbc:mysql://127.0.0.1:" + REPLICA1 + "/ryow?user=ryow&password=ryow&allowMultiQueries=true");
    try (Statement s = primary.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS it_mdb (id BIGINT PRIMARY KEY, v INT NOT NULL)");
    }
  }

  @AfterEach
  void close() throws SQLException {
    Sandbox.run("--mariadb", "resume");
    if (replica != null) {
      replica.close();
    }
    if (primary != null) {
      primary.close();
    }
  }

  @Test
  void aWriteWhoseSeqNoRepeatsInAnotherDomainIsCapturedThroughTheFallback() throws SQLException {
    long seq = 1 + Math.max(seqOnPrimary(DOMAIN_A), seqOnPrimary(DOMAIN_B));
    long id = System.nanoTime();
    // Domain A, seq n: reported in the OK packet (the session's first GTID).
    write(DOMAIN_A, seq, "INSERT INTO it_mdb VALUES (" + id + ", 1)");
    assertThat(tracker.afterWrite().seqOf(Long.parseLong(DOMAIN_A))).isEqualTo(seq);
    MariaDbGtidPosition beforeTrap = tracker.reported();
    // Domain B, the same seq n: the server does not report it (the trap).
    write(DOMAIN_B, seq, "INSERT INTO it_mdb VALUES (" + (id + 1) + ", 2)");
    assertThat(tracker.reported()).as("the listener alone misses the write").isEqualTo(beforeTrap);
    MariaDbGtidPosition captured = tracker.afterWrite();
    assertThat(captured.seqOf(Long.parseLong(DOMAIN_B))).as("captured through @@last_gtid").isEqualTo(seq);
    MariaDbGtidPosition binlog = primaryBinlogPos();
    assertThat(binlog.seqOf(Long.parseLong(DOMAIN_B))).isEqualTo(seq);

    // The captured position is what a replica must reach to have both rows: the wait on it returns them.
    Sandbox.run("--mariadb", "pause", "replica1");
    long id2 = id + 2;
    write(DOMAIN_B, seq + 1, "INSERT INTO it_mdb VALUES (" + id2 + ", 3)");
    MariaDbGtidPosition withLast = tracker.afterWrite();
    assertThat(withLast.seqOf(Long.parseLong(DOMAIN_B))).isEqualTo(seq + 1);
    assertThat(waitedRead(withLast, "0.3", id2)).as("stopped applier: the read must not run").isNull();
    Sandbox.run("--mariadb", "resume", "replica1");
    assertThat(waitedRead(withLast, "30", id2)).isEqualTo(REPLICA1 + "/" + REPLICA1_SERVER_ID + "/3");
  }

  @Test
  void aBlockedApplierHoldsTheReadUntilTheReplicaHasTheWrite() throws Exception {
    long id = System.nanoTime();
    CompletableFuture<String> hold =
        CompletableFuture.supplyAsync(() -> Sandbox.run("--mariadb", "block-hold", "replica1", "3000"));
    try {
      awaitHold();
      write(DOMAIN_A, 0, "INSERT INTO it_mdb VALUES (" + id + ", 5)");
      MariaDbGtidPosition pos = tracker.afterWrite();
      assertThat(waitedRead(pos, "0.3", id)).as("blocked applier: the read must not run").isNull();
      assertThat(sqlThreadRunning()).as("the applier keeps running while blocked").isTrue();
      assertThat(waitedRead(pos, "30", id)).isEqualTo(REPLICA1 + "/" + REPLICA1_SERVER_ID + "/5");
    } finally {
      hold.get(60, TimeUnit.SECONDS);
    }
  }

  /** Sets the session's domain (and seq_no when above 0) and runs one autocommit write. */
  private void write(String domain, long seq, String sql) throws SQLException {
    try (Statement s = primary.createStatement()) {
      s.execute("SET SESSION gtid_domain_id = " + domain);
      if (seq > 0) {
        s.execute("SET SESSION gtid_seq_no = " + seq);
      }
      assertThat(s.executeUpdate(sql)).isEqualTo(1);
    }
  }

  /** The pipelined wait and read on replica1: "port/server_id/v", or null when the wait did not succeed. */
  private String waitedRead(MariaDbGtidPosition pos, String seconds, long id) throws SQLException {
    try (PreparedStatement ps = replica.prepareStatement(READ)) {
      MariaDbWait.bind(ps, pos, new BigDecimal(seconds));
      ps.setLong(MariaDbWait.PARAMETERS + 1, id);
      boolean results = ps.execute();
      while (!results && ps.getUpdateCount() != -1) {
        results = ps.getMoreResults();
      }
      assertThat(results).isTrue();
      try (ResultSet rs = ps.getResultSet()) {
        assertThat(rs.next()).as("the row is there once the wait succeeded").isTrue();
        return rs.getInt(1) + "/" + rs.getLong(2) + "/" + rs.getInt(3);
      }
    } catch (SQLException e) {
      if (MariaDbWait.notReached(e)) {
        return null;
      }
      throw e;
    }
  }

  private long seqOnPrimary(String domain) throws SQLException {
    return primaryBinlogPos().seqOf(Long.parseLong(domain));
  }

  private MariaDbGtidPosition primaryBinlogPos() throws SQLException {
    try (Statement s = primary.createStatement(); ResultSet rs = s.executeQuery("SELECT @@global.gtid_binlog_pos")) {
      rs.next();
      return MariaDbGtidPosition.parse(rs.getString(1));
    }
  }

  private boolean sqlThreadRunning() throws SQLException {
    try (Statement s = replica.createStatement(); ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
      assertThat(rs.next()).isTrue();
      return "Yes".equals(rs.getString("Slave_SQL_Running"));
    }
  }

  /** Until the block-hold session holds its lock (its SLEEP shows in the processlist). */
  private void awaitHold() throws SQLException, InterruptedException {
    for (int i = 0; i < 200; i++) {
      try (Statement s = replica.createStatement(); ResultSet rs = s.executeQuery(
          "SELECT COUNT(*) FROM information_schema.processlist WHERE info LIKE 'SELECT SLEEP(%ryow_sandbox_block'")) {
        rs.next();
        if (rs.getInt(1) > 0) {
          return;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("block-hold did not take its lock within 10 s");
  }
}
