package dev.ryow.jdbc.it;

import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The real primary + replicas the integration tests run against: by default the project's sandbox
 * ({@code sandbox/ryow-sandbox start}), or servers named by the {@code ryow.it.*} system properties.
 * Gives plain Connector/J connections to each server for setting up, lag injection and counting
 * what each server executed. A server that cannot be reached fails the test; nothing here skips.
 */
final class Topology {
  static final String HOST = System.getProperty("ryow.it.host", "127.0.0.1");
  /** The sandbox's port base: {@code RYOW_SANDBOX_PORT_BASE} as for {@code sandbox/ryow-sandbox}, default 23306. */
  private static final int PORT_BASE =
      Integer.parseInt(System.getenv().getOrDefault("RYOW_SANDBOX_PORT_BASE", "23306"));
  static final int PRIMARY_PORT = Integer.getInteger("ryow.it.primaryPort", PORT_BASE);
  static final List<Integer> REPLICA_PORTS =
      List.of(
          Integer.getInteger("ryow.it.replica1Port", PORT_BASE + 1),
          Integer.getInteger("ryow.it.replica2Port", PORT_BASE + 2));
  static final String USER = System.getProperty("ryow.it.user", "ryow");
  static final String PASSWORD = System.getProperty("ryow.it.password", "ryow");
  static final String DATABASE = System.getProperty("ryow.it.database", "ryow");
  /** The replicas, for lag injection. */
  static final Replicas REPLICAS = new Replicas(REPLICA_PORTS, Topology::plain, "STOP REPLICA SQL_THREAD",
      "START REPLICA SQL_THREAD", Topology::resumeAppliers, Topology::awaitReplicasCaughtUp);

  private Topology() {}

  /**
   * A {@code jdbc:ryow:} URL for the topology, with extra {@code key=value} parameters. Tests use the
   * driver's defaults: a {@code ryow.*} parameter belongs only in a test about that setting
   * ({@link ItSettingsRuleTest} enforces it).
   */
  static String ryowUrl(String... parameters) {
    StringBuilder url = new StringBuilder("jdbc:ryow:mysql://").append(HOST).append(':').append(PRIMARY_PORT);
    for (int port : REPLICA_PORTS) {
      url.append(',').append(HOST).append(':').append(port);
    }
    url.append('/').append(DATABASE).append("?user=").append(USER).append("&password=").append(PASSWORD);
    for (String p : parameters) {
      url.append('&').append(p);
    }
    return url.toString();
  }

  /** A plain Connector/J connection to one server. */
  /** Sleeps; an interrupt fails the test. */
  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  static Connection plain(int port) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:mysql://" + HOST + ":" + port + "/" + DATABASE + "?allowPublicKeyRetrieval=true", USER, PASSWORD);
  }

  static Connection ryow(String... parameters) throws SQLException {
    return DriverManager.getConnection(ryowUrl(parameters));
  }

  /** Runs one statement on a server. */
  static void exec(int port, String sql) throws SQLException {
    try (Connection c = plain(port);
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  static String queryString(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  static long queryLong(int port, String sql) throws SQLException {
    try (Connection c = plain(port);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Stops the SQL (applier) thread of every replica: from now on they fall behind. */
  static void pauseAppliers() throws SQLException {
    for (int port : REPLICA_PORTS) {
      exec(port, "STOP REPLICA SQL_THREAD");
    }
  }

  /** Starts the appliers again and waits until every replica has what the primary has. */
  static void resumeAppliers() throws SQLException {
    boolean wasPaused = false;
    for (int port : REPLICA_PORTS) {
      wasPaused |= !"ON".equalsIgnoreCase(applierState(port));
      exec(port, "START REPLICA SQL_THREAD");
    }
    awaitReplicasCaughtUp();
    if (wasPaused) {
      // Every cluster's poller took the stopped replicas out of rotation; it puts them back at its next
      // poll (ryow.pollInterval, 200 ms by default). Give it three intervals before tests expect replica reads.
      try {
        Thread.sleep(600);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static String applierState(int port) throws SQLException {
    try (Connection c = plain(port)) {
      return queryString(c, "SELECT COALESCE(MIN(SERVICE_STATE), 'OFF') FROM performance_schema.replication_applier_status");
    }
  }

  /**
   * Blocks (up to 10 s) until the cluster of {@code ryow} has every replica back in rotation: after
   * the appliers were stopped, the cluster's poller takes them out of rotation and puts them back at
   * its next poll ({@code ryow.pollInterval}) once they replicate again. Fails if they do not come back.
   */
  static void awaitInRotation(Connection ryow) throws SQLException {
    awaitInRotation(ryow, REPLICA_PORTS.size());
  }

  /** {@link #awaitInRotation(Connection)} for a cluster of {@code replicas} replicas (another sandbox's). */
  static void awaitInRotation(Connection ryow, int replicas) throws SQLException {
    dev.ryow.jdbc.RyowConnection r = ryow.unwrap(dev.ryow.jdbc.RyowConnection.class);
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (r.clusterMetrics().replicasInRotation() < replicas) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("replicas in rotation after 10 s: " + r.clusterMetrics().replicasInRotation());
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for the replicas to be in rotation", e);
      }
    }
  }

  /**
   * Opens a {@code jdbc:ryow:} connection and returns once its cluster's poller has finished a round
   * with every replica in rotation (the health gauges are published at the end of a round). Tests that
   * slow the poller down ({@code ryow.pollInterval=600000}) use it before they pause the appliers, so
   * that the first poll, which starts when the cluster opens, cannot run late and see them paused.
   */
  static Connection ryowPolledOnce(String... parameters) throws SQLException {
    Connection c = ryow(parameters);
    try {
      awaitInRotation(c);
    } catch (AssertionError | SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }

  /**
   * Returns once the replicas have every write so far and the driver's poller has polled every server
   * after that (two rounds of polls counted: at least one whole round began after the catch-up), so that
   * the driver's known positions of {@code c}'s cluster hold every write so far, and a replica it predicted
   * stalled during a lag that ended is seen to have advanced. A condition, not a guess at how long a poll
   * round takes on a busy machine: tests that expect replica reads right after a lag call it first.
   */
  static void driverSeesReplicasCurrent(Connection c) throws SQLException {
    Topology.awaitReplicasCaughtUp();
    awaitPollRounds(c, 2, 1 + REPLICA_PORTS.size());
  }

  /**
   * Returns once the poller of {@code c}'s cluster has polled {@code rounds} more rounds of {@code servers}
   * servers (counted by its polls, {@code positionPolls}): a condition, not a guess at how long a round takes.
   * Fails after 10 s per round.
   */
  static void awaitPollRounds(Connection c, int rounds, int servers) throws SQLException {
    RyowConnection r = c.unwrap(RyowConnection.class);
    long target = r.clusterMetrics().positionPolls() + (long) rounds * servers;
    long deadline = System.nanoTime() + rounds * 10_000_000_000L;
    while (r.clusterMetrics().positionPolls() < target) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("the poller did not poll " + rounds + " rounds of " + servers + " servers in "
            + rounds * 10 + " s");
      }
      sleep(20);
    }
  }

  /**
   * Before a read that must run on a replica right after its write, in a test about something else than waits:
   * such a read falls back to the primary, as documented, when no replica applies the write within
   * {@code ryow.waitTimeout} (a busy machine, a loaded CI run); once both replicas have it, the read must run on
   * one. {@link #awaitReplicasCaughtUp()}.
   */
  static void awaitWriteOnReplicas() throws SQLException {
    awaitReplicasCaughtUp();
  }

  /** Blocks (up to 60 s) until every replica has executed the primary's {@code gtid_executed}. */
  static void awaitReplicasCaughtUp() throws SQLException {
    String executed;
    try (Connection c = plain(PRIMARY_PORT)) {
      executed = queryString(c, "SELECT @@global.gtid_executed");
    }
    for (int port : REPLICA_PORTS) {
      try (Connection c = plain(port);
          PreparedStatement ps = c.prepareStatement("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 60)")) {
        ps.setString(1, executed);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (rs.getInt(1) != 0) {
            throw new AssertionError("replica on port " + port + " did not catch up with " + executed + " in 60 s");
          }
        }
      }
    }
  }

  /**
   * Blocks (up to 60 s) until every replica has received the primary's {@code gtid_executed}: executed it, or
   * holds it in its relay log ({@code RECEIVED_TRANSACTION_SET}), even while its applier is stopped or blocked.
   * A test that kills the primary right after its writes and expects the replicas to serve them must wait for
   * this first: an acknowledged write reaches a replica asynchronously, and on a busy machine its receiver
   * may still be behind when the primary dies (then no replica ever has the write until the primary returns).
   */
  static void awaitReplicasReceived() throws SQLException {
    String executed;
    try (Connection c = plain(PRIMARY_PORT)) {
      executed = queryString(c, "SELECT @@global.gtid_executed");
    }
    for (int port : REPLICA_PORTS) {
      long deadline = System.nanoTime() + 60_000_000_000L;
      try (Connection c = plain(port);
          PreparedStatement ps = c.prepareStatement("SELECT GTID_SUBSET(GTID_SUBTRACT(?, @@global.gtid_executed),"
              + " RECEIVED_TRANSACTION_SET) FROM performance_schema.replication_connection_status"
              + " WHERE CHANNEL_NAME = ''")) {
        ps.setString(1, executed);
        while (true) {
          try (ResultSet rs = ps.executeQuery()) {
            if (rs.next() && rs.getInt(1) == 1) {
              break;
            }
          }
          if (System.nanoTime() - deadline > 0) {
            throw new AssertionError("replica on port " + port + " did not receive " + executed + " in 60 s");
          }
          sleep(10);
        }
      }
    }
  }

  /** Recreates a table on the primary and waits until the replicas have it. */
  static void recreateTable(String table, String columns) throws SQLException {
    exec(PRIMARY_PORT, "DROP TABLE IF EXISTS " + table);
    exec(PRIMARY_PORT, "CREATE TABLE " + table + " (" + columns + ")");
    awaitReplicasCaughtUp();
  }

  /**
   * How many statements whose normalised text contains {@code digestFragment} the server on
   * {@code port} has executed (performance_schema digest summary, all sessions).
   */
  static long statementsLike(int port, String digestFragment) throws SQLException {
    try (Connection c = plain(port);
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT COALESCE(SUM(COUNT_STAR), 0) FROM performance_schema.events_statements_summary_by_digest"
                    + " WHERE DIGEST_TEXT LIKE ?")) {
      ps.setString(1, "%" + digestFragment + "%");
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** A count read from the servers. */
  @FunctionalInterface
  interface ServerCount {
    long read() throws SQLException;
  }

  /**
   * Checks a count read from performance_schema's digest summaries against the exact number the test
   * knows, for workloads where several sessions run the same statement at once. Those summary rows are
   * updated without locks, so concurrent sessions now and then lose an increment (seen: about one in a
   * few thousand statements on this machine under load). Such a count may fall short of the truth by a
   * little (0.5 %, at least 2) and never exceed it; anything else fails. Single-session counts are exact
   * and are compared exactly.
   */
  static void assertCounted(long counted, long exact, String what) {
    long slack = Math.max(2, exact / 200);
    org.assertj.core.api.Assertions.assertThat(counted)
        .as("%s, counted by performance_schema digests (exactly %d ran)", what, exact)
        .isBetween(exact - slack, exact);
  }

  /**
   * Reads {@code count} until it reaches {@code expected} or 3 s pass, and returns the last value.
   * performance_schema records a statement when it ends, which is just after the client has its
   * result: a count taken at once can miss the last statement of another session.
   */
  static long settled(ServerCount count, long expected) throws SQLException {
    long deadline = System.nanoTime() + 3_000_000_000L;
    long value = count.read();
    while (value < expected && System.nanoTime() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      value = count.read();
    }
    return value;
  }

  /**
   * {@link #statementsLike} once it stopped changing: a server updates its digest summary after it has
   * sent a statement's result, so a count taken right after the last client saw its result can miss it.
   */
  static long settledStatementsLike(int port, String digestFragment) throws SQLException {
    return unchanged(() -> statementsLike(port, digestFragment));
  }

  /** A reading of the servers' counters. */
  @FunctionalInterface
  interface Reading<T> {
    T read() throws SQLException;
  }

  /**
   * Reads {@code reading} every 150 ms until two readings in a row are equal (at most 20 times), and returns
   * the last: servers add a statement to their counters just after the client has its result.
   */
  static <T> T unchanged(Reading<T> reading) throws SQLException {
    T previous = reading.read();
    for (int i = 0; i < 20; i++) {
      try {
        Thread.sleep(150);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      T now = reading.read();
      if (now.equals(previous)) {
        return now;
      }
      previous = now;
    }
    return previous;
  }

  /** Statements executed so far by the server session with {@code connectionId} (performance_schema). */
  static long statementsOfSession(long connectionId) throws SQLException {
    try (Connection c = plain(PRIMARY_PORT);
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT COALESCE(SUM(e.COUNT_STAR), 0)"
                    + " FROM performance_schema.events_statements_summary_by_thread_by_event_name e"
                    + " JOIN performance_schema.threads t ON t.THREAD_ID = e.THREAD_ID"
                    + " WHERE t.PROCESSLIST_ID = ?")) {
      ps.setLong(1, connectionId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * SQL statements ({@code statement/sql/*} events: not pings or other protocol commands) executed so
   * far by the session {@code connectionId} of the server on {@code port}.
   */
  static long sqlStatementsOfSession(int port, long connectionId) throws SQLException {
    try (Connection c = plain(port);
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT COALESCE(SUM(e.COUNT_STAR), 0)"
                    + " FROM performance_schema.events_statements_summary_by_thread_by_event_name e"
                    + " JOIN performance_schema.threads t ON t.THREAD_ID = e.THREAD_ID"
                    + " WHERE t.PROCESSLIST_ID = ? AND e.EVENT_NAME LIKE 'statement/sql/%'")) {
      ps.setLong(1, connectionId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * The session id ({@code PROCESSLIST_ID}) on the server on {@code port} that recently ran a statement
   * containing {@code marker}, asked of the server's statement history; fails when none did.
   */
  static long sessionThatRan(int port, String marker) throws SQLException {
    try (Connection c = plain(port);
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT DISTINCT t.PROCESSLIST_ID FROM performance_schema.events_statements_history h"
                    + " JOIN performance_schema.threads t ON t.THREAD_ID = h.THREAD_ID"
                    + " WHERE h.SQL_TEXT LIKE CONCAT('%', ?, '%') AND h.SQL_TEXT NOT LIKE '%performance_schema%'")) {
      ps.setString(1, marker);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new AssertionError("no session on port " + port + " ran a statement with " + marker);
        }
        long id = rs.getLong(1);
        if (rs.next()) {
          throw new AssertionError("several sessions on port " + port + " ran a statement with " + marker);
        }
        return id;
      }
    }
  }
}
