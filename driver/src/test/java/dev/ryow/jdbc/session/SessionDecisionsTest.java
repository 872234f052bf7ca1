package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.Health;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.proxy.LogicalConnection;
import dev.ryow.jdbc.server.ConnectorJ;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The session's decisions without a server: where a statement runs, where it runs again after a
 * failure (or why it must not), admission and fallback, session replay and transaction bookkeeping,
 * through {@code ConnectorJ}'s driver seam over {@link StubServers}. Every expectation is read from the
 * stub servers (which ran the statement, how often), never from the driver's own report. The
 * integration tests prove the same behaviour on real servers; these pin the decisions down one by one.
 */
class SessionDecisionsTest {
  private static final String P = "stub-p:3306";
  private static final String R1 = "stub-r1:3307";
  private static final String R2 = "stub-r2:3308";
  /** No poll during a test (the poller's first round only); GTIDs captured by query (the stub has no OK-packet tracker). */
  private static final String BASE = "ryow.gtidCapture=query&ryow.pollInterval=600000";

  private final List<Connection> opened = new ArrayList<>();

  @AfterEach
  void close() throws SQLException {
    for (Connection c : opened) {
      c.close();
    }
  }

  private record World(StubServers servers, Cluster cluster, Connection connection) {
    StubServers.Server p() {
      return servers.server(P);
    }

    StubServers.Server r1() {
      return servers.server(R1);
    }

    StubServers.Server r2() {
      return servers.server(R2);
    }
  }

  private World world(String parameters, String... addresses) throws SQLException {
    StubServers servers = new StubServers(addresses);
    String url = "jdbc:ryow:mysql://" + String.join(",", addresses) + "/app?" + BASE
        + (parameters.isEmpty() ? "" : "&" + parameters);
    RyowConfig config = RyowConfig.from(url, new Properties());
    ConnectorJ connector = new ConnectorJ(servers);
    Cluster cluster = new Cluster(config, connector);
    Connection c = LogicalConnection.open(cluster, config, connector);
    opened.add(c);
    // The poller's first round (it ends by publishing the replicas' states) comes before any fault is
    // scripted, and the next one not before 10 minutes: no poll races a test's script.
    long giveUp = System.nanoTime() + 30_000_000_000L;
    while (cluster.metrics().snapshot().replicaStates().isEmpty()) {
      assertThat(System.nanoTime() - giveUp).as("the poller's first round ended").isNegative();
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    return new World(servers, cluster, c);
  }

  /** What the application does, on its logical connection. */
  @FunctionalInterface
  interface Step {
    void run(World w) throws SQLException;
  }

  /**
   * One row: a set-up, a fault scripted on the stub servers, the statement, and where it must have run
   * (each server's count of that statement), or the SQLState it must fail with.
   */
  record Case(String name, String parameters, Step setUp, Step fault, String sql, boolean query,
      @Nullable String failsWith, int onP, int onR1) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final Step NOTHING = w -> { };
  private static final Step WRITE_FIRST = w -> {
    try (Statement s = w.connection().createStatement()) {
      s.executeUpdate("INSERT INTO t VALUES (1)");
    }
  };
  private static final Step READ_ONLY_TRANSACTION = w -> {
    w.connection().setReadOnly(true);
    w.connection().setAutoCommit(false);
  };
  private static final Step LAG_THEN_WRITE = w -> {
    w.r1().lag();
    WRITE_FIRST.run(w);
  };
  private static final Step MANUAL_COMMIT = w -> w.connection().setAutoCommit(false);
  /** A transaction that has run a write on the primary. */
  private static final Step TRANSACTION_WROTE = w -> {
    w.connection().setAutoCommit(false);
    try (Statement s = w.connection().createStatement()) {
      s.executeUpdate("UPDATE t SET c = 30");
    }
  };

  private static SQLException linkFailure() {
    return new SQLRecoverableException("Communications link failure (scripted)", "08S01");
  }

  private static SQLException readOnlyRefusal() {
    return new SQLException("The MySQL server is running with the --super-read-only option", "HY000", 1290);
  }

  static Stream<Case> retries() {
    return Stream.of(
        new Case("a read whose replica connection breaks runs again elsewhere (the primary here)", "", NOTHING,
            w -> w.r1().failNext.add(linkFailure()), "SELECT c FROM t WHERE id = 1", true, null, 1, 0),
        new Case("a read inside a read-only transaction on a replica is never run again elsewhere", "",
            READ_ONLY_TRANSACTION, w -> w.r1().failNext.add(linkFailure()), "SELECT c FROM t WHERE id = 2", true,
            "08S01", 0, 0),
        new Case("a read a replica refuses as a write (1290) runs on the primary", "", NOTHING,
            w -> w.r1().failNext.add(readOnlyRefusal()), "SELECT f(3) FROM t", true, null, 1, 0),
        new Case("a write the primary refuses as read-only (1290) runs on the writable server found", "", NOTHING,
            w -> {
              w.p().readOnly = true;
              w.r1().readOnly = false;
            },
            "UPDATE t SET c = 4", false, null, 0, 1),
        new Case("a write whose primary connection breaks is never run again (it may have committed)", "", NOTHING,
            w -> w.p().failNext.add(linkFailure()), "UPDATE t SET c = 5", false, "08S01", 0, 0),
        new Case("a write the read-only primary refuses inside a transaction is not run again", "", MANUAL_COMMIT,
            w -> {
              w.p().readOnly = true;
              w.r1().readOnly = false;
            },
            "UPDATE t SET c = 6", false, "HY000", 0, 0),
        new Case("a write whose primary connection breaks inside a transaction is not run again", "",
            TRANSACTION_WROTE, w -> w.p().failNext.add(linkFailure()), "UPDATE t SET c = 31", false, "08S01", 0, 0),
        new Case("with ryow.transactionReplay, it runs on a new primary connection after the transaction's replay",
            "ryow.transactionReplay=true", TRANSACTION_WROTE, w -> w.p().failNext.add(linkFailure()),
            "UPDATE t SET c = 32", false, null, 1, 0),
        new Case("with ryow.transactionReplay, a COMMIT whose primary connection breaks is never sent again",
            "ryow.transactionReplay=true", TRANSACTION_WROTE, w -> w.p().failNext.add(linkFailure()),
            "COMMIT", false, "08S01", 0, 0),
        new Case("a locking read whose primary connection breaks runs again on a new connection", "", NOTHING,
            w -> w.p().failNext.add(linkFailure()), "SELECT c FROM t WHERE id = 7 FOR UPDATE", true, null, 1, 0),
        new Case("a read whose wait times out falls back to the primary", "", LAG_THEN_WRITE, NOTHING,
            "SELECT c FROM t WHERE id = 8", true, null, 1, 0),
        new Case("with ryow.fallback=error, a read whose wait times out fails (HYT00)", "ryow.fallback=error",
            LAG_THEN_WRITE, NOTHING, "SELECT c FROM t WHERE id = 9", true, "HYT00", 0, 0),
        new Case("with ryow.fallback=stale, a read whose wait times out reads the lagging replica",
            "ryow.fallback=stale", LAG_THEN_WRITE, NOTHING, "SELECT c FROM t WHERE id = 10", true, null, 0, 1),
        new Case("a read whose wait returns NULL falls back to the primary", "", LAG_THEN_WRITE,
            w -> w.r1().waitAnswerWhenLacking = null,
            "SELECT c FROM t WHERE id = 11", true, null, 1, 0),
        new Case("with consistency none a lagging replica serves the read without a wait",
            "ryow.consistency=none", LAG_THEN_WRITE, NOTHING, "SELECT c FROM t WHERE id = 12", true, null, 0, 1),
        new Case("a replica that cannot be reached leaves the read to the primary", "", NOTHING,
            w -> w.r1().down = true, "SELECT c FROM t WHERE id = 13", true, null, 1, 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("retries")
  void whereAStatementRunsAfterAFault(Case row) throws SQLException {
    World w = world(row.parameters(), P, R1);
    row.setUp().run(w);
    row.fault().run(w);
    SQLException thrown = null;
    try (Statement s = w.connection().createStatement()) {
      if (row.query()) {
        try (ResultSet rs = s.executeQuery(row.sql())) {
          assertThat(rs.next()).isTrue();
        }
      } else {
        s.executeUpdate(row.sql());
      }
    } catch (SQLException e) {
      thrown = e;
    }
    if (row.failsWith() == null) {
      assertThat((Throwable) thrown).as("statement error").isNull();
    } else {
      assertThat((Throwable) thrown).as("statement error").isNotNull();
      assertThat(thrown.getSQLState()).isEqualTo(row.failsWith());
    }
    assertThat(count(w.p(), row.sql())).as("runs on the primary").isEqualTo(row.onP());
    assertThat(count(w.r1(), row.sql())).as("runs on the replica").isEqualTo(row.onR1());
  }

  @Test
  void aPreparedReadWhoseWaitFailedAndWhosePrimaryConnectionThenBrokeIsPlacedOnceMore() throws SQLException {
    World w = world("", P, R1);
    LAG_THEN_WRITE.run(w);
    w.p().failNext.add(linkFailure()); // the primary the read falls back to loses its connection under it
    String sql = "SELECT c FROM t WHERE id = ?";
    try (PreparedStatement ps = w.connection().prepareStatement(sql)) {
      ps.setInt(1, 41);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
      }
    }
    assertThat(w.r1().waits.get()).as("it waited on the lagging replica first").isPositive();
    assertThat(count(w.r1(), sql)).isZero();
    assertThat(count(w.p(), sql)).as("then ran on the primary, on a new connection").isEqualTo(1);
  }

  @Test
  void aReplicaWhoseConnectionBreaksLeavesRotationAndTheReadRunsOnceOnTheOther() throws SQLException {
    World w = world("", P, R1, R2);
    String first = "SELECT c FROM t WHERE id = 19";
    try (Statement s = w.connection().createStatement(); ResultSet rs = s.executeQuery(first)) {
      assertThat(rs.next()).isTrue();
    }
    StubServers.Server home = count(w.r1(), first) == 1 ? w.r1() : w.r2();
    StubServers.Server other = home == w.r1() ? w.r2() : w.r1();
    assertThat(count(home, first)).isEqualTo(1);
    home.failNext.add(linkFailure()); // the server this connection reads on breaks its connection
    String sql = "SELECT c FROM t WHERE id = 20";
    try (Statement s = w.connection().createStatement(); ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
    }
    assertThat(count(other, sql)).isEqualTo(1);
    assertThat(count(home, sql) + count(w.p(), sql)).isZero();
    assertThat(w.cluster().servers().get(home.index).health()).isEqualTo(Health.UNREACHABLE);
    assertThat(w.cluster().servers().get(other.index).health()).isEqualTo(Health.UP);
  }

  @Test
  void afterAFailoverTheNextWriteRunsOnTheNewPrimaryOnTheSameConnection() throws SQLException {
    World w = world("ryow.failoverTimeout=2000", P, R1, R2);
    WRITE_FIRST.run(w);
    w.p().down = true; // the primary dies; replica2 is promoted
    w.r2().readOnly = false;
    SQLException first = null;
    try (Statement s = w.connection().createStatement()) {
      s.executeUpdate("UPDATE t SET c = 21");
    } catch (SQLException e) {
      first = e;
    }
    // Sent to the dead primary's connection, the write fails and is not run again (it may have committed).
    assertThat((Throwable) first).isNotNull();
    assertThat(first.getSQLState()).isEqualTo("08S01");
    assertThat(count(w.r2(), "UPDATE t SET c = 21")).isZero();
    assertThat(count(w.p(), "UPDATE t SET c = 21")).isZero();
    try (Statement s = w.connection().createStatement()) {
      s.executeUpdate("UPDATE t SET c = 22");
    }
    assertThat(count(w.r2(), "UPDATE t SET c = 22")).isEqualTo(1);
    assertThat(count(w.p(), "UPDATE t SET c = 22")).isZero();
    assertThat(w.connection().unwrap(RyowConnection.class).lastServerAddress()).isEqualTo(R2);
  }

  /**
   * A held connection whose write broke when the primary died prepares its next write as applications
   * do (a new {@code PreparedStatement}) after the primary restarted: the statement runs there, on the
   * same logical connection, instead of every later call failing on the dead physical connection.
   */
  @Test
  void afterThePrimaryRestartsTheSameConnectionPreparesAndRunsItsNextWriteThere() throws SQLException {
    World w = world("", P, R1);
    WRITE_FIRST.run(w);
    w.p().down = true;
    SQLException lost = null;
    try (java.sql.PreparedStatement ps = w.connection().prepareStatement("UPDATE t SET c = ? WHERE id = 40")) {
      ps.setInt(1, 1);
      ps.executeUpdate();
    } catch (SQLException e) {
      lost = e;
    }
    assertThat((Throwable) lost).as("the write that ran when the primary died").isNotNull();
    assertThat(lost.getSQLState()).isEqualTo("08S01");
    assertThat(lost.getMessage()).contains("was not run again").contains("reconnects");
    w.p().restart();
    for (int i = 0; i < 3; i++) {
      try (java.sql.PreparedStatement ps = w.connection().prepareStatement("UPDATE t SET c = ? WHERE id = 41")) {
        ps.setInt(1, i);
        ps.executeUpdate();
      }
    }
    assertThat(count(w.p(), "UPDATE t SET c = ? WHERE id = 41")).isEqualTo(3);
    assertThat(count(w.p(), "UPDATE t SET c = ? WHERE id = 40")).isZero();
  }

  /**
   * While the primary is down, a read whose replica has not applied the write yet waits on the replica
   * (it does not fall back to the dead primary) and runs there once the replica catches up. The round of
   * discovery that found the primary lost also makes every connection opened before the outage reconnect
   * before its next statement: an idle connection's write after the restart does not fail on its dead
   * physical connection.
   */
  @Test
  void whileThePrimaryIsDownAReadWaitsOnTheReplicaAndIdleConnectionsReconnectAfterTheRestart() throws Exception {
    World w = world("ryow.failoverTimeout=20000", P, R1);
    Connection idle = LogicalConnection.open(w.cluster(), RyowConfig.from("jdbc:ryow:mysql://" + P + "," + R1
        + "/app?" + BASE + "&ryow.failoverTimeout=20000", new Properties()), new ConnectorJ(w.servers()));
    opened.add(idle);
    w.r1().lag();
    WRITE_FIRST.run(w);
    w.p().down = true;
    Thread later = new Thread(() -> {
      try {
        Thread.sleep(400);
      } catch (InterruptedException e) {
        return;
      }
      w.r1().catchUp();
      w.p().restart();
    });
    later.start();
    String read = "SELECT c FROM t WHERE id = 42";
    try (Statement s = w.connection().createStatement(); ResultSet rs = s.executeQuery(read)) {
      assertThat(rs.next()).isTrue();
    } finally {
      later.join();
    }
    assertThat(count(w.r1(), read)).as("the read ran on the replica once it had the write").isEqualTo(1);
    assertThat(count(w.p(), read)).isZero();
    assertThat(w.cluster().primary().outages()).as("outages the cluster saw").isEqualTo(1);
    try (Statement s = idle.createStatement()) {
      s.executeUpdate("UPDATE t SET c = 43");
    }
    assertThat(count(w.p(), "UPDATE t SET c = 43")).as("the idle connection's write after the restart").isEqualTo(1);
    assertThat(w.cluster().tracker().primaryLost()).as("the outage is over").isFalse();
  }

  /**
   * A token written on the new primary after a switchover this cluster has not seen yet: its
   * {@code GTID_SUBSET} check reaches the demoted primary (read-only, lacking the token's GTIDs), which
   * says nothing of what the primary has. The cluster looks for the writable server, asks it, and the read
   * runs on a replica that has the token's write: never on the demoted primary, where it would miss it.
   */
  @Test
  void aTokenCheckThatReachesADemotedPrimaryFindsTheNewOneAndTheReadDoesNotRunOnTheOld() throws SQLException {
    World w = world("", P, R1, R2);
    WRITE_FIRST.run(w);
    // Switchover p -> r2 (p stops applying and turns read-only), seen by another JVM's cluster only.
    w.p().lag();
    w.p().readOnly = true;
    w.r2().readOnly = false;
    String url = "jdbc:ryow:mysql://" + P + "," + R1 + "," + R2 + "/app?" + BASE;
    RyowConfig config = RyowConfig.from(url, new Properties());
    ConnectorJ connector = new ConnectorJ(w.servers());
    Connection other = LogicalConnection.open(new Cluster(config, connector), config, connector);
    opened.add(other);
    try (Statement s = other.createStatement()) {
      s.executeUpdate("UPDATE t SET c = 50");
    }
    assertThat(count(w.r2(), "UPDATE t SET c = 50")).as("the other JVM wrote on the new primary").isEqualTo(1);
    String token = other.unwrap(RyowConnection.class).consistencyToken();
    w.connection().unwrap(RyowConnection.class).mergeConsistencyToken(token);
    String read = "SELECT c FROM t WHERE id = 51";
    try (Statement s = w.connection().createStatement(); ResultSet rs = s.executeQuery(read)) {
      assertThat(rs.next()).isTrue();
    }
    assertThat(count(w.p(), read)).as("reads on the demoted primary, which lacks the token's write").isZero();
    assertThat(count(w.r1(), read) + count(w.r2(), read)).isEqualTo(1);
    assertThat(w.cluster().primaryEndpoint().host().toString()).as("the cluster found the new primary")
        .contains("stub-r2");
  }

  @Test
  void sessionStateIsReplayedOnEveryReplicaConnectionBeforeItsFirstRead() throws SQLException {
    World w = world("", P, R1);
    try (Statement s = w.connection().createStatement()) {
      s.execute("SET time_zone = '+00:00'");
      try (ResultSet rs = s.executeQuery("SELECT c FROM t WHERE id = 30")) {
        assertThat(rs.next()).isTrue();
      }
      assertThat(w.r1().ran).containsSubsequence("SET time_zone = '+00:00'", "SELECT c FROM t WHERE id = 30");
      try (ResultSet rs = s.executeQuery("SELECT c FROM t WHERE id = 31")) {
        assertThat(rs.next()).isTrue();
      }
    }
    // Replayed once, before the replica connection's first read; the primary ran it once.
    assertThat(w.r1().ran).containsExactly(
        "SET time_zone = '+00:00'", "SELECT c FROM t WHERE id = 30", "SELECT c FROM t WHERE id = 31");
    assertThat(count(w.p(), "SET time_zone = '+00:00'")).isEqualTo(1);
  }

  @Test
  void aReadOnlyTransactionStaysOnOneReplicaAndCommitsOnlyThere() throws SQLException {
    World w = world("", P, R1, R2);
    READ_ONLY_TRANSACTION.run(w);
    try (Statement s = w.connection().createStatement()) {
      for (int i = 0; i < 3; i++) {
        try (ResultSet rs = s.executeQuery("SELECT c FROM t WHERE id = 4" + i)) {
          assertThat(rs.next()).isTrue();
        }
      }
    }
    w.connection().commit();
    StubServers.Server used = w.r1().ran.isEmpty() ? w.r2() : w.r1();
    StubServers.Server other = used == w.r1() ? w.r2() : w.r1();
    assertThat(used.ran).containsExactly("SELECT c FROM t WHERE id = 40", "SELECT c FROM t WHERE id = 41",
        "SELECT c FROM t WHERE id = 42", "COMMIT");
    assertThat(other.ran).isEmpty();
    assertThat(w.p().ran).doesNotContain("COMMIT");
  }

  @Test
  void aReadWriteTransactionCommitsOnThePrimaryAndItsReadsStayThere() throws SQLException {
    World w = world("", P, R1);
    MANUAL_COMMIT.run(w);
    try (Statement s = w.connection().createStatement()) {
      s.executeUpdate("INSERT INTO t VALUES (50)");
      try (ResultSet rs = s.executeQuery("SELECT c FROM t WHERE id = 50")) {
        assertThat(rs.next()).isTrue();
      }
    }
    w.connection().commit();
    assertThat(w.p().ran).containsExactly("INSERT INTO t VALUES (50)", "SELECT c FROM t WHERE id = 50", "COMMIT");
    assertThat(w.r1().ran).isEmpty();
  }

  /** The GTID the stub servers gave the last write. */
  private static dev.ryow.jdbc.gtid.Position lastWrite(World w) {
    return dev.ryow.jdbc.gtid.GtidSet.parse(StubServers.SOURCE_UUID + ":" + w.servers().written());
  }

  /**
   * A write made on a thread inside a {@link ConsistencyScope} joins that scope, whichever call records its
   * GTIDs: the statement itself, a {@code commit()} of a transaction whose statements ran before the scope was
   * opened, or the capture a token asks for. The scope is captured as each call begins
   * ({@code Session.beginCall}), never left over from an earlier call in another scope.
   */
  @Test
  void aWriteMadeInsideAScopeJoinsItAndNoEarlierScope() throws SQLException {
    World w = world("ryow.consistency=connection", P, R1);
    RyowConnection ryow = w.connection().unwrap(RyowConnection.class);
    dev.ryow.jdbc.gtid.Position first;
    try (ConsistencyScope a = ConsistencyScope.open(); Statement s = w.connection().createStatement()) {
      s.executeUpdate("INSERT INTO t VALUES (60)");
      first = lastWrite(w);
      assertThat(a.gtids().contains(first)).as("the statement's write joins its scope").isTrue();
    }
    MANUAL_COMMIT.run(w);
    try (Statement s = w.connection().createStatement()) {
      s.executeUpdate("INSERT INTO t VALUES (61)"); // outside any scope; its GTID is captured at the commit
    }
    dev.ryow.jdbc.gtid.Position committed = lastWrite(w);
    try (ConsistencyScope b = ConsistencyScope.open()) {
      w.connection().commit();
      assertThat(b.gtids().contains(committed)).as("the commit's GTIDs join the scope of the commit").isTrue();
    }
    w.connection().setAutoCommit(true);
    try (Statement s = w.connection().createStatement()) {
      s.executeUpdate("INSERT INTO t VALUES (62)"); // in connection mode, outside a scope: captured when due
    }
    dev.ryow.jdbc.gtid.Position due = lastWrite(w);
    try (ConsistencyScope c = ConsistencyScope.open()) {
      ryow.consistencyToken();
      assertThat(c.gtids().contains(due)).as("a capture made for the token joins the scope of that call").isTrue();
      assertThat(c.gtids().contains(first)).as("and so does what the primary had executed").isTrue();
    }
    try (ConsistencyScope d = ConsistencyScope.open(); Statement s = w.connection().createStatement()) {
      assertThat(d.gtids().isEmpty()).isTrue();
      s.executeUpdate("INSERT INTO t VALUES (63)");
      assertThat(d.gtids().contains(lastWrite(w))).isTrue();
    }
  }

  /**
   * A scope opened with a mode gives it to the connections used inside it: {@code consistencyMode()} answers
   * it, and the reads use it (here {@code none}: a read runs on the lagging replica without waiting for the
   * connection's own write); outside, the configured mode holds again (the read waits, in vain, and falls
   * back to the primary).
   */
  @Test
  void theModeOfAScopeIsTheModeOfTheReadsInsideIt() throws SQLException {
    World w = world("ryow.consistency=connection", P, R1);
    RyowConnection ryow = w.connection().unwrap(RyowConnection.class);
    LAG_THEN_WRITE.run(w);
    try (ConsistencyScope none = ConsistencyScope.open(dev.ryow.jdbc.ConsistencyMode.NONE);
        Statement s = w.connection().createStatement();
        ResultSet rs = s.executeQuery("SELECT c FROM t WHERE id = 70")) {
      rs.next();
      assertThat(ryow.consistencyMode()).isEqualTo(dev.ryow.jdbc.ConsistencyMode.NONE).isEqualTo(none.mode());
    }
    assertThat(count(w.r1(), "SELECT c FROM t WHERE id = 70")).as("no wait inside the scope").isEqualTo(1);
    try (ConsistencyScope plain = ConsistencyScope.open()) {
      assertThat(plain.modeGiven()).isFalse();
      assertThat(ryow.consistencyMode()).as("a scope without a mode adds its writes").isEqualTo(
          dev.ryow.jdbc.ConsistencyMode.SCOPE);
    }
    assertThat(ryow.consistencyMode()).isEqualTo(dev.ryow.jdbc.ConsistencyMode.CONNECTION);
    try (Statement s = w.connection().createStatement(); ResultSet rs = s.executeQuery("SELECT c FROM t WHERE id = 71")) {
      rs.next();
    }
    assertThat(count(w.r1(), "SELECT c FROM t WHERE id = 71")).as("the lagging replica").isZero();
    assertThat(count(w.p(), "SELECT c FROM t WHERE id = 71")).as("the fallback").isEqualTo(1);
  }

  private static int count(StubServers.Server s, String sql) {
    synchronized (s.ran) {
      return (int) s.ran.stream().filter(sql::equals).count();
    }
  }

  /**
   * A JDBC 4.3 request boundary (a pool's borrow and return: UCP, WildFly) forgets the previous borrower's
   * consistency mode and last-read report, and keeps the connection's watermark: with
   * {@code ryow.consistency=connection}, a read after the boundary still waits for the write made before
   * it (here the lagging replica's wait times out and the read falls back to the primary).
   */
  @Test
  void aRequestBoundaryForgetsTheBorrowersModeAndReportButNotTheWatermark() throws SQLException {
    World w = world("ryow.consistency=connection", P, R1);
    RyowConnection ryow = w.connection().unwrap(RyowConnection.class);
    w.connection().beginRequest();
    try (Statement s = w.connection().createStatement(); ResultSet rs = s.executeQuery("SELECT c FROM t WHERE id = 50")) {
      rs.next();
    }
    assertThat(count(w.r1(), "SELECT c FROM t WHERE id = 50")).isEqualTo(1);
    assertThat(ryow.lastRead()).isNotNull();
    ryow.setConsistencyMode(dev.ryow.jdbc.ConsistencyMode.LATEST);
    LAG_THEN_WRITE.run(w);
    String token = ryow.consistencyToken();
    w.connection().endRequest();

    assertThat(ryow.consistencyMode()).isEqualTo(dev.ryow.jdbc.ConsistencyMode.CONNECTION);
    assertThat(ryow.lastRead()).isNull();
    assertThat(ryow.lastServerAddress()).isNull();
    w.connection().beginRequest();
    assertThat(ryow.consistencyToken()).isEqualTo(token);
    try (Statement s = w.connection().createStatement(); ResultSet rs = s.executeQuery("SELECT c FROM t WHERE id = 51")) {
      rs.next();
    }
    assertThat(count(w.r1(), "SELECT c FROM t WHERE id = 51")).as("the lagging replica").isZero();
    assertThat(count(w.p(), "SELECT c FROM t WHERE id = 51")).as("the fallback").isEqualTo(1);
    w.connection().endRequest();
  }
  /**
   * {@code setAutoCommit(true)} commits the open transaction, and other connections of the JVM must see
   * what it wrote from then on, as after {@code commit()}: with GTIDs captured by query, the position is
   * read at once, so another connection's read does not run on a replica lacking the write.
   */
  @Test
  void setAutoCommitTrueCommitsAndOtherConnectionsOfTheJvmSeeTheWrite() throws SQLException {
    World w = world("", P, R1);
    Connection other = LogicalConnection.open(w.cluster(), RyowConfig.from("jdbc:ryow:mysql://" + P + "," + R1
        + "/app?" + BASE, new Properties()), new ConnectorJ(w.servers()));
    opened.add(other);
    w.r1().lag();
    w.connection().setAutoCommit(false);
    try (Statement s = w.connection().createStatement()) {
      s.executeUpdate("INSERT INTO t VALUES (1)");
    }
    w.connection().setAutoCommit(true);

    try (Statement s = other.createStatement(); ResultSet rs = s.executeQuery("SELECT c FROM t WHERE id = 1")) {
      rs.next();
    }
    assertThat(count(w.r1(), "SELECT c FROM t WHERE id = 1")).as("the replica lacking the write").isZero();
    assertThat(count(w.p(), "SELECT c FROM t WHERE id = 1")).as("the fallback").isEqualTo(1);
  }
}
