package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.proxy.LogicalConnection;
import dev.ryow.jdbc.server.ConnectorJ;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A replica read that needs no wait reuses the last read's plan ({@link ReadPlanCache}) only while
 * nothing that plan was made from changed: each test first settles a connection's reads on their home
 * (so that the next read would reuse the plan), then changes one input and checks, on the stub
 * servers, that the next read was planned again and placed as a new plan places it.
 */
class ReadPlanReuseTest {
  private static final String P = "stub-p:3306";
  private static final String R1 = "stub-r1:3307";
  private static final String R2 = "stub-r2:3308";
  /** No poll during a test (the poller's first round only); GTIDs captured by query (the stub has no OK-packet tracker). */
  private static final String BASE = "ryow.gtidCapture=query&ryow.pollInterval=600000";

  private final List<Connection> opened = new ArrayList<>();
  private StubServers servers = new StubServers(P);
  private Cluster cluster;
  private RyowConfig config;
  private ConnectorJ connector;

  @AfterEach
  void close() throws SQLException {
    for (Connection c : opened) {
      c.close();
    }
  }

  private Connection cluster(String... addresses) throws SQLException {
    servers = new StubServers(addresses);
    config = RyowConfig.from("jdbc:ryow:mysql://" + String.join(",", addresses) + "/app?" + BASE, new Properties());
    connector = new ConnectorJ(servers);
    cluster = new Cluster(config, connector);
    Connection c = open();
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
    return c;
  }

  private Connection open() throws SQLException {
    Connection c = LogicalConnection.open(cluster, config, connector);
    opened.add(c);
    return c;
  }

  private static void read(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
    }
  }

  private static void write(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.executeUpdate(sql);
    }
  }

  /** Three reads: the second finds its home (the first's server) and runs there without a wait; the third reuses that plan. */
  private StubServers.Server settle(Connection c) throws SQLException {
    for (int i = 1; i <= 3; i++) {
      read(c, "SELECT c FROM t WHERE id = " + i);
    }
    String home = c.unwrap(RyowConnection.class).lastServerAddress();
    StubServers.Server s = servers.server(home);
    assertThat(count(s, "SELECT c FROM t WHERE id = 3")).as("settled on a replica").isEqualTo(1);
    return s;
  }

  @Test
  void aWriteOfTheConnectionMakesItsNextReadWaitInsteadOfReusingThePlan() throws SQLException {
    Connection c = cluster(P, R1);
    StubServers.Server home = settle(c);
    home.lag();
    write(c, "INSERT INTO t VALUES (1)");
    read(c, "SELECT c FROM t WHERE id = 4");
    assertThat(count(home, "SELECT c FROM t WHERE id = 4")).as("never the lagging replica without a wait").isZero();
    assertThat(count(servers.server(P), "SELECT c FROM t WHERE id = 4")).as("its wait timed out: the primary").isEqualTo(1);
  }

  @Test
  void aWriteOfAnotherConnectionOfTheJvmMakesTheNextReadWaitInsteadOfReusingThePlan() throws SQLException {
    Connection c = cluster(P, R1);
    StubServers.Server home = settle(c);
    home.lag();
    write(open(), "INSERT INTO t VALUES (2)");
    read(c, "SELECT c FROM t WHERE id = 5");
    assertThat(count(home, "SELECT c FROM t WHERE id = 5")).as("never the lagging replica without a wait").isZero();
    assertThat(count(servers.server(P), "SELECT c FROM t WHERE id = 5")).isEqualTo(1);
  }

  @Test
  void aHomeTakenOutOfRotationIsLeftAtTheNextRead() throws SQLException {
    Connection c = cluster(P, R1, R2);
    StubServers.Server home = settle(c);
    StubServers.Server other = servers.server(home.address.equals(R1) ? R2 : R1);
    cluster.unreachable(cluster.servers().get(home.index), "taken out by the test");
    read(c, "SELECT c FROM t WHERE id = 6");
    assertThat(count(home, "SELECT c FROM t WHERE id = 6")).isZero();
    assertThat(count(other, "SELECT c FROM t WHERE id = 6")).isEqualTo(1);
  }

  @Test
  void aReadOfTheJvmPendingOnAnotherServerIsBoundedBeforeTheNextRead() throws SQLException {
    Connection c = cluster(P, R1, R2);
    StubServers.Server home = settle(c);
    StubServers.Server other = servers.server(home.address.equals(R1) ? R2 : R1);
    long before = cluster.metrics().snapshot().positionReads();
    ReplicaEndpoint otherEndpoint = cluster.servers().get(other.index);
    assertThat(otherEndpoint.serverUuid()).isEqualTo(other.uuid);
    cluster.jvm().reads().observed(other.uuid, System.nanoTime()); // another connection's read there just completed
    read(c, "SELECT c FROM t WHERE id = 7");
    assertThat(cluster.metrics().snapshot().positionReads() - before)
        .as("the other server's position read first (monotonic reads across the JVM)").isEqualTo(1);
    assertThat(count(home, "SELECT c FROM t WHERE id = 7")).as("the read stays home").isEqualTo(1);
  }

  @Test
  void aReadWhoseTurnMovedToAReplicaThatCannotServeItRunsAtTheHomeItLeftNotOnThePrimary() throws SQLException {
    Connection c = cluster(P, R1, R2);
    StubServers.Server home = settle(c);
    StubServers.Server turn = servers.server(home.address.equals(R1) ? R2 : R1);
    turn.lag();
    write(c, "INSERT INTO t VALUES (3)"); // the home has it; the replica whose turn comes next never will
    cluster.rounds().roundDone(System.nanoTime()); // a round ends: the turn goes to the replica that served fewer reads
    read(c, "SELECT c FROM t WHERE id = 9");
    assertThat(turn.waits.get()).as("the read went to the replica whose turn it was, and waited there").isPositive();
    assertThat(count(turn, "SELECT c FROM t WHERE id = 9")).isZero();
    assertThat(count(servers.server(P), "SELECT c FROM t WHERE id = 9")).as("not the primary").isZero();
    assertThat(count(home, "SELECT c FROM t WHERE id = 9")).as("back at the home it left, without a wait").isEqualTo(1);
  }

  @Test
  void anIsolationLevelSetAfterThePlanReachesTheReplicaBeforeTheNextRead() throws SQLException {
    Connection c = cluster(P, R1);
    StubServers.Server home = settle(c);
    assertThat(home.isolations).isEmpty();
    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    read(c, "SELECT c FROM t WHERE id = 8");
    assertThat(home.isolations).as("set on the replica connection before the read")
        .containsExactly(Connection.TRANSACTION_READ_COMMITTED);
    assertThat(count(home, "SELECT c FROM t WHERE id = 8")).isEqualTo(1);
  }

  private static int count(StubServers.Server s, String sql) {
    synchronized (s.ran) {
      return (int) s.ran.stream().filter(sql::equals).count();
    }
  }
}
