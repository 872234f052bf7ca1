package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.JvmHistories;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.proxy.LogicalConnection;
import dev.ryow.jdbc.server.ConnectorJ;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * JDBC calls that must answer as Connector/J does, or run where Connector/J's physical connection
 * would make them write, decided without a server ({@link StubServers}): every expectation about
 * where a statement ran is read from the stub servers. {@code JdbcFidelityIT} proves the same on real
 * servers, against plain Connector/J.
 */
class JdbcFidelityTest {
  private static final String P = "stub-p:3306";
  private static final String R1 = "stub-r1:3307";
  private static final String R2 = "stub-r2:3308";
  /** No poll during a test (the poller's first round only); GTIDs captured by query (the stub has no OK-packet tracker). */
  private static final String BASE = "ryow.gtidCapture=query&ryow.pollInterval=600000";

  private final List<Connection> opened = new ArrayList<>();
  private StubServers servers;

  @AfterEach
  void close() throws SQLException {
    for (Connection c : opened) {
      c.close();
    }
  }

  private Connection open(String parameters) throws SQLException {
    servers = new StubServers(P, R1);
    return open(P + "," + R1, parameters, null);
  }

  /** A connection through a cluster of its own for {@code hosts}, on {@link #servers}. */
  private Connection open(String hosts, String parameters, @Nullable JvmHistories histories) throws SQLException {
    String url = "jdbc:ryow:mysql://" + hosts + "/app?" + BASE + (parameters.isEmpty() ? "" : "&" + parameters);
    RyowConfig config = RyowConfig.from(url, new Properties());
    ConnectorJ connector = new ConnectorJ(servers);
    Cluster cluster = new Cluster(config, connector, GtidSet.EMPTY, histories);
    Connection c = LogicalConnection.open(cluster, config, connector);
    opened.add(c);
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

  private int ranOn(String address, String sql) {
    List<String> ran = servers.server(address).ran;
    synchronized (ran) {
      return (int) ran.stream().filter(sql::equals).count();
    }
  }

  private static void query(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
    }
  }

  // ---------------------------------------------------------------- defect 1: results that write run on the primary

  @Test
  void aReadOnlyStatementsQueryRunsOnTheReplica() throws SQLException {
    Connection c = open("");
    try (Statement s = c.createStatement(ResultSet.TYPE_SCROLL_SENSITIVE, ResultSet.CONCUR_READ_ONLY)) {
      query(s, "SELECT c FROM t WHERE id = 1");
    }
    assertThat(ranOn(R1, "SELECT c FROM t WHERE id = 1")).isEqualTo(1);
    assertThat(ranOn(P, "SELECT c FROM t WHERE id = 1")).isZero();
  }

  @Test
  void anUpdatableStatementsQueryRunsOnThePrimary() throws SQLException {
    Connection c = open("");
    try (Statement s = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE)) {
      query(s, "SELECT c FROM t WHERE id = 2");
    }
    try (Statement s = c.createStatement(
        ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE, ResultSet.HOLD_CURSORS_OVER_COMMIT)) {
      query(s, "SELECT c FROM t WHERE id = 3");
    }
    assertThat(ranOn(P, "SELECT c FROM t WHERE id = 2")).isEqualTo(1);
    assertThat(ranOn(P, "SELECT c FROM t WHERE id = 3")).isEqualTo(1);
    assertThat(servers.server(R1).ran).isEmpty();
  }

  @Test
  void anUpdatablePreparedQueryRunsOnThePrimary() throws SQLException {
    Connection c = open("");
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT c FROM t WHERE id = 4", ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE)) {
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
      }
    }
    assertThat(ranOn(P, "SELECT c FROM t WHERE id = 4")).isEqualTo(1);
    assertThat(servers.server(R1).ran).isEmpty();
  }

  @Test
  void withBlobLocatorsEveryQueryRunsOnThePrimary() throws SQLException {
    Connection c = open("emulateLocators=true");
    try (Statement s = c.createStatement()) {
      query(s, "SELECT c FROM t WHERE id = 5");
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT c FROM t WHERE id = 6"); ResultSet rs = ps.executeQuery()) {
      assertThat(rs.next()).isTrue();
    }
    assertThat(ranOn(P, "SELECT c FROM t WHERE id = 5")).isEqualTo(1);
    assertThat(ranOn(P, "SELECT c FROM t WHERE id = 6")).isEqualTo(1);
    assertThat(servers.server(R1).ran).isEmpty();
  }

  // ---------------------------------------------------------------- defect 10: one guarantee per set of servers

  /**
   * Two pools on the same three servers, whose URLs differ in the replicas' order and in a setting: two
   * clusters (the settings are each their own), one JVM history. A read through the second waits for the
   * write made through the first; the replicas lack it, so the read falls back to the primary.
   */
  @Test
  void clustersOfTheSameServersSeeEachOthersWrites() throws SQLException {
    servers = new StubServers(P, R1, R2);
    JvmHistories histories = new JvmHistories();
    Connection writer = open(P + "," + R1 + "," + R2, "", histories);
    Connection reader = open(P + "," + R2 + "," + R1, "ryow.waitTimeout=150", histories);
    servers.server(R1).lag();
    servers.server(R2).lag();
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("INSERT INTO t VALUES (10)");
    }
    try (Statement s = reader.createStatement()) {
      query(s, "SELECT c FROM t WHERE id = 10");
    }
    assertThat(ranOn(P, "SELECT c FROM t WHERE id = 10")).as("the read waited, then fell back to the primary").isEqualTo(1);
    assertThat(ranOn(R1, "SELECT c FROM t WHERE id = 10") + ranOn(R2, "SELECT c FROM t WHERE id = 10"))
        .as("no lagging replica served the read").isZero();
  }
}
