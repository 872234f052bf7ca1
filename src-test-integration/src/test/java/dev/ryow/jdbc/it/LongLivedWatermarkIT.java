package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.gtid.Position;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pooled connection lives for hours and writes thousands of times, interleaved with everyone else's
 * writes: its watermark (and its token) must stay a few intervals long, name only GTIDs the primary
 * executed, and still make every read see the connection's writes.
 */
class LongLivedWatermarkIT {
  private static final int WRITES = 300;

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_long", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  @Test
  void interleavedWritesKeepTheWatermarkCompactAndEveryReadSeesItsWrite() throws Exception {
    int seen;
    long[] waitTexts;
    Position token;
    Position scopeToken;
    try (Connection other = Topology.plain(PRIMARY_PORT);
        Statement otherWrites = other.createStatement();
        Connection c = Topology.ryow();
        PreparedStatement write = c.prepareStatement("INSERT INTO it_long (id, v) VALUES (?, ?)");
        PreparedStatement read = c.prepareStatement("SELECT v FROM it_long WHERE id = ?");
        ConsistencyScope scope = ConsistencyScope.open()) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      LagPulse pulse = LagPulse.start(100, 400);
      try {
        seen = writeAndReadBack(otherWrites, write, read);
      } finally {
        pulse.close();
      }
      // What the replicas were sent: the last statements of each session (performance_schema keeps ten,
      // texts up to 1,024 characters). 300 own GTIDs alone would make each wait's text longer than that.
      waitTexts = longestRecentWaitText();
      // Writes and what the reads saw (monotonic reads): both count against the token's bounds.
      token = TokenCodec.DEFAULT.decode(ryow.consistencyToken());
      scopeToken = TokenCodec.DEFAULT.decode(scope.token(TokenCodec.DEFAULT));
      System.out.printf("after %d interleaved writes: connection token %d intervals, scope %d intervals,"
              + " longest of the last %d waits on the replicas %d characters%n",
          WRITES, token.intervalCount(), scopeToken.intervalCount(), waitTexts[1], waitTexts[0]);
    }
    assertThat(seen).as("reads that saw their own write").isEqualTo(WRITES);
    assertThat(waitTexts[1]).as("waits in the replicas' recent statements").isPositive();
    // Not asserted: the length of those waits. A wait names the watermark as compacted at the last poll of
    // the primary's position (ryow.pollInterval), plus the writes since, so its length depends on how late
    // the poller runs on a loaded machine (a CI run beside a busy loop saw one of 1,024 characters, where
    // performance_schema cuts the text). What stays compact whatever the machine's speed is asserted here:
    // Compact: far fewer intervals than writes, and within the default token bounds, unwidened.
    assertThat(token.intervalCount()).isLessThanOrEqualTo(TokenCodec.DEFAULT_MAX_INTERVALS);
    assertThat(TokenCodec.DEFAULT.fits(token)).isTrue();
    // Only real GTIDs: the primary has executed every one the watermark names.
    assertThat(gtidSubsetOfPrimary(token)).isTrue();
    assertThat(scopeToken.intervalCount()).isLessThanOrEqualTo(TokenCodec.DEFAULT_MAX_INTERVALS);
    assertThat(gtidSubsetOfPrimary(scopeToken)).isTrue();
  }

  /** Each iteration: someone else's write, ours, and our read of it; returns the reads that saw it. */
  private static int writeAndReadBack(Statement otherWrites, PreparedStatement write, PreparedStatement read)
      throws SQLException {
    int seen = 0;
    for (int i = 1; i <= WRITES; i++) {
      // Someone else's transaction between each two of ours: our own GTIDs alone are 300 intervals.
      otherWrites.executeUpdate("INSERT INTO it_long (id, v) VALUES (" + -i + ", 0)");
      write.setInt(1, i);
      write.setInt(2, i);
      write.executeUpdate();
      read.setInt(1, i);
      try (ResultSet rs = read.executeQuery()) {
        if (rs.next() && rs.getInt(1) == i) {
          seen++;
        }
      }
    }
    return seen;
  }

  @Test
  void aTokenBeyondItsBoundsIsCompactedExactlyWithOneQueryOnThePrimary() throws Exception {
    // Slow polling, its first round over before the writes: the gaps between our writes are not known
    // to be executed until the export asks.
    try (Connection other = Topology.plain(PRIMARY_PORT);
        Statement otherWrites = other.createStatement();
        Connection c = Topology.ryowPolledOnce("ryow.tokenMaxIntervals=4", "ryow.pollInterval=600000");
        Statement s = c.createStatement()) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      for (int i = 1; i <= 20; i++) {
        otherWrites.executeUpdate("INSERT INTO it_long (id, v) VALUES (" + -i + ", 0)");
        s.executeUpdate("INSERT INTO it_long (id, v) VALUES (" + i + ", " + i + ")");
      }
      long queriesBefore = ryow.clusterMetrics().gtidQueries();
      String token = ryow.consistencyToken();
      Position set = TokenCodec.of(2048, 4, null).decode(token);
      assertThat(ryow.clusterMetrics().gtidQueries() - queriesBefore).isEqualTo(1);
      assertThat(set.intervalCount()).isLessThanOrEqualTo(4);
      assertThat(gtidSubsetOfPrimary(set)).isTrue();
      // The watermark itself was compacted: the next export needs no query.
      assertThat(ryow.consistencyToken()).isEqualTo(token);
      assertThat(ryow.clusterMetrics().gtidQueries() - queriesBefore).isEqualTo(1);
    }
  }

  /** The longest text among the waits in the replicas' statement history, and how many there are. */
  private static long[] longestRecentWaitText() throws SQLException {
    long longest = 0;
    long count = 0;
    for (int port : Topology.REPLICA_PORTS) {
      try (Connection r = Topology.plain(port);
          Statement s = r.createStatement();
          ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(LENGTH(SQL_TEXT)), 0), COUNT(*)"
              + " FROM performance_schema.events_statements_history"
              // A wait alone, or the wait a query sends in its own packet (a statement of its own here).
              + " WHERE SQL_TEXT LIKE 'SELECT WAIT_FOR_EXECUTED_GTID_SET%'"
              + " OR SQL_TEXT LIKE 'DO CASE WHEN WAIT_FOR_EXECUTED_GTID_SET%'")) {
        rs.next();
        longest = Math.max(longest, rs.getLong(1));
        count += rs.getLong(2);
      }
    }
    return new long[] {longest, count};
  }

  private static boolean gtidSubsetOfPrimary(Position set) throws SQLException {
    try (Connection p = Topology.plain(PRIMARY_PORT);
        PreparedStatement ps = p.prepareStatement("SELECT GTID_SUBSET(?, @@global.gtid_executed)")) {
      ps.setString(1, set.toString());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1) == 1;
      }
    }
  }
}
