package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One guarantee per set of servers, not per URL text: two HikariCP pools in one JVM on the same three
 * servers, whose URLs differ only in the replicas' order, or in one {@code ryow.*} setting, see each
 * other's writes. Each write (autocommit, acknowledged) goes through one pool, the read right after it
 * through the other, alternating directions, with the replicas' appliers blocked (they stay in rotation
 * and fall behind), pulsed (stopped in pulses), and free. A miss is a read that did not return the row
 * just written; the rows are then counted on the primary and every read on the server that ran it.
 */
@AboutSettings(value = "ryow.waitTimeout", why = "the second pool differs from the first in one setting only"
    + " (ryow.waitTimeout=150): two clusters, each with its own settings, must keep one guarantee")
class SameServersIT {
  private static final String TABLE = "it_same_servers";
  private static final String READ = "SELECT v, @@port FROM " + TABLE + " WHERE id = ?";

  private long nextId;

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id BIGINT PRIMARY KEY, v BIGINT NOT NULL");
  }

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  /** The topology's URL with the replicas in the opposite order. */
  private static String reorderedUrl() {
    String url = Topology.ryowUrl();
    String a = Topology.HOST + ":" + REPLICA_PORTS.get(0);
    String b = Topology.HOST + ":" + REPLICA_PORTS.get(1);
    String reordered = url.replace(a + "," + b, b + "," + a);
    assertThat(reordered).isNotEqualTo(url);
    return reordered;
  }

  @Test
  void poolsWhoseUrlsListTheReplicasInAnotherOrderSeeEachOthersWrites() throws Exception {
    run(Topology.ryowUrl(), reorderedUrl());
  }

  @Test
  void poolsWhoseUrlsDifferInOneSettingSeeEachOthersWrites() throws Exception {
    run(Topology.ryowUrl(), Topology.ryowUrl("ryow.waitTimeout=150"));
  }

  /** What a run counted. */
  private static final class Tally {
    int writes;
    int reads;
    int misses;
    int replicaReads;
  }

  @SuppressWarnings("try") // the lag runs while the blocks run
  private void run(String urlA, String urlB) throws Exception {
    Tally t = new Tally();
    ServerCounts before = ServerCounts.of("FROM `" + TABLE + "` WHERE");
    try (HikariDataSource a = pool(urlA, "a"); HikariDataSource b = pool(urlB, "b")) {
      try (LagBlock blocked = LagBlock.holdAll(REPLICA_PORTS)) {
        rounds(a, b, 10, t);
      }
      Topology.awaitReplicasCaughtUp();
      try (LagPulse pulsed = LagPulse.start(150, 400)) {
        rounds(a, b, 150, t);
      }
      int replicaReadsBefore = t.replicaReads;
      rounds(a, b, 100, t);
      System.out.printf("SameServersIT %s | %s: %d writes, %d reads, %d misses, %d on replicas%n",
          urlA.replaceAll("password=[^&]*", "password=***"), urlB.replaceAll("password=[^&]*", "password=***"),
          t.writes, t.reads, t.misses, t.replicaReads);
      assertThat(t.replicaReads - replicaReadsBefore).as("reads on the replicas without lag").isPositive();
    }
    assertThat(t.misses).as("reads through one pool that missed the write just acknowledged through the other")
        .isZero();
    assertThat(Topology.queryLong(PRIMARY_PORT, "SELECT COUNT(*) FROM " + TABLE)).as("rows on the primary")
        .isEqualTo(t.writes);
    long counted = Topology.settled(() -> before.delta().total(), t.reads);
    Topology.assertCounted(counted, t.reads, "reads of " + TABLE + " executed by the servers");
  }

  private static HikariDataSource pool(String url, String name) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setPoolName("same-servers-" + name);
    config.setMaximumPoolSize(2);
    config.setMinimumIdle(2);
    return new HikariDataSource(config);
  }

  /** {@code n} rounds, each a write through one pool and its read through the other, alternating. */
  private void rounds(DataSource a, DataSource b, int n, Tally t) throws SQLException {
    for (int i = 0; i < n; i++) {
      boolean fromA = (i & 1) == 0;
      long id = ++nextId;
      write(fromA ? a : b, id);
      t.writes++;
      read(fromA ? b : a, id, t);
    }
  }

  private static void write(DataSource pool, long id) throws SQLException {
    try (Connection c = pool.getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)")) {
      ps.setLong(1, id);
      ps.setLong(2, id * 7);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
  }

  private static void read(DataSource pool, long id, Tally t) throws SQLException {
    try (Connection c = pool.getConnection();
        PreparedStatement ps = c.prepareStatement(READ)) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        t.reads++;
        if (!rs.next() || rs.getLong(1) != id * 7) {
          t.misses++;
          return;
        }
        if (rs.getInt(2) != PRIMARY_PORT) {
          t.replicaReads++;
        }
      }
    }
  }
}
