package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * New logical connections opened while the primary is down (killed), on the sandbox with the driver's
 * defaults: they open, serve reads on the replicas (every read must see the rows this JVM wrote before the
 * kill), a write on one fails fast while no server is writable (HYT01) and runs on the primary once it is
 * back. Without a
 * pool ({@code DriverManager}) and under a HikariCP pool that replaces all its connections right after
 * the kill. Which server ran each read is its own {@code @@port}; the replicas' performance_schema digests
 * count the reads they ran.
 */
class OutageLoginIT {
  private static final String TABLE = "it_outage_login";
  private static final int ROWS = 10;
  private static final String READ = "SELECT @@port, COUNT(*), COALESCE(SUM(v), 0) FROM " + TABLE + " WHERE id <= " + ROWS;
  private static final long SUM = (long) ROWS * (ROWS + 1) / 2;

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL, port INT NOT NULL");
  }

  @AfterEach
  void restore() {
    Sandbox.restoreTopology();
  }

  private static MetricsSnapshot metrics() throws SQLException {
    try (Connection c = Topology.ryow()) {
      return c.unwrap(RyowConnection.class).clusterMetrics();
    }
  }

  /** The rows every later read must see, written through the driver (the JVM's watermark has them). */
  private static void writeRows(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (id, v, port) VALUES (?, ?, @@port)")) {
      for (int i = 1; i <= ROWS; i++) {
        ps.setInt(1, i);
        ps.setInt(2, i);
        ps.executeUpdate();
      }
    }
  }

  /** Runs {@link #READ} and returns the port that served it; fails when the read missed a row. */
  private static int readAll(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(READ)) {
      rs.next();
      assertThat(rs.getLong(2)).as("rows seen by a read on port %d", rs.getInt(1)).isEqualTo(ROWS);
      assertThat(rs.getLong(3)).as("sum seen by a read on port %d", rs.getInt(1)).isEqualTo(SUM);
      return rs.getInt(1);
    }
  }

  private static long replicaReadsCounted() throws SQLException {
    long n = 0;
    for (int port : REPLICA_PORTS) {
      n += Topology.statementsLike(port, TABLE + "` WHERE `id` <=");
    }
    return n;
  }

  @Test
  void connectionsOpenedWhileThePrimaryIsKilledServeReadsOnReplicasAndWriteWhenItIsBack() throws Exception {
    try (Connection c = Topology.ryow()) {
      writeRows(c);
    }
    Topology.awaitReplicasCaughtUp();
    MetricsSnapshot before = metrics();
    long replicaReadsBefore = replicaReadsCounted();
    Sandbox.run("kill", "primary");
    long killedAt = System.nanoTime();
    List<Connection> opened = new ArrayList<>();
    try {
      Map<Integer, Integer> readsByPort = new TreeMap<>();
      for (int i = 0; i < 6; i++) {
        Connection c = DriverManager.getConnection(Topology.ryowUrl());
        opened.add(c);
        for (int r = 0; r < 3; r++) {
          readsByPort.merge(readAll(c), 1, Integer::sum);
        }
      }
      long openedMillis = (System.nanoTime() - killedAt) / 1_000_000;
      assertThat(readsByPort.keySet()).as("servers that ran the reads").isSubsetOf(REPLICA_PORTS);
      Topology.assertCounted(Topology.settled(() -> replicaReadsCounted() - replicaReadsBefore, 18), 18,
          "reads the replicas ran while the primary was down");

      // A write on a connection opened during the outage fails fast (the primary died: no switchover is under
      // way), with a retryable SQLState a pool does not evict for, and the same connection writes once it is back.
      Connection writer = opened.get(0);
      long writeStart = System.nanoTime();
      SQLException refused = null;
      try (Statement s = writer.createStatement()) {
        s.executeUpdate("INSERT INTO " + TABLE + " (id, v, port) VALUES (100, 100, @@port)");
      } catch (SQLException e) {
        refused = e;
      }
      long refusedMillis = (System.nanoTime() - writeStart) / 1_000_000;
      assertThat((Throwable) refused).as("a write while no server is writable").isNotNull();
      assertThat(refused.getSQLState()).as("its SQLState (%s)", refused.getMessage()).isEqualTo("HYT01");
      assertThat(refused.getMessage()).contains("is unreachable since");
      assertThat(refusedMillis).as("time to the write's failure").isLessThan(10_000);
      Sandbox.run("restart", "primary");
      long downMillis = (System.nanoTime() - killedAt) / 1_000_000;
      try (Statement s = writer.createStatement()) {
        assertThat(s.executeUpdate("INSERT INTO " + TABLE + " (id, v, port) VALUES (100, 100, @@port)"))
            .as("rows the write inserted after the restart").isEqualTo(1);
      }
      assertThat(Topology.queryLong(PRIMARY_PORT, "SELECT port FROM " + TABLE + " WHERE id = 100"))
          .as("the server that ran the write").isEqualTo(PRIMARY_PORT);
      try (Statement s = writer.createStatement();
          ResultSet rs = s.executeQuery("SELECT v FROM " + TABLE + " WHERE id = 100")) {
        assertThat(rs.next()).as("the connection reads its own write back").isTrue();
        assertThat(rs.getInt(1)).isEqualTo(100);
      }
      // Every connection opened during the outage now writes on the primary.
      for (int i = 1; i < opened.size(); i++) {
        try (Statement s = opened.get(i).createStatement()) {
          s.executeUpdate("INSERT INTO " + TABLE + " (id, v, port) VALUES (" + (100 + i) + ", 0, @@port)");
        }
      }
      assertThat(Topology.queryLong(PRIMARY_PORT, "SELECT COUNT(*) FROM " + TABLE + " WHERE id > 100 AND port = "
          + PRIMARY_PORT)).as("writes on the primary by the other connections opened during the outage")
          .isEqualTo(opened.size() - 1L);
      MetricsSnapshot after = metrics();
      System.out.printf("OUTAGE LOGIN (no pool): %d connections opened in %d ms after the kill, reads by port %s;"
              + " a write failed in %d ms (%s); primary down %d ms; logins without primary %d%n", opened.size(),
          openedMillis, readsByPort, refusedMillis, refused.getSQLState(), downMillis,
          after.loginsWithoutPrimary() - before.loginsWithoutPrimary());
      assertThat(after.loginsWithoutPrimary() - before.loginsWithoutPrimary())
          .as("logins that found no writable primary").isGreaterThanOrEqualTo(opened.size());
    } finally {
      for (Connection c : opened) {
        c.close();
      }
    }
  }

  @Test
  void aHikariPoolThatReplacesItsConnectionsDuringAKillOfThePrimaryKeepsServingReads() throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(Topology.ryowUrl());
    config.setMaximumPoolSize(4);
    config.setConnectionTimeout(5_000);
    config.setPoolName("outage-login");
    try (HikariDataSource pool = new HikariDataSource(config)) {
      try (Connection c = pool.getConnection()) {
        writeRows(c);
      }
      Topology.awaitReplicasCaughtUp();
      MetricsSnapshot before = metrics();
      AtomicBoolean stop = new AtomicBoolean();
      // 0 before the kill, 1 while down, 2 while the restart command runs (the primary comes back during it), 3 after.
      AtomicInteger phase = new AtomicInteger();
      AtomicInteger[] reads = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
      Map<Integer, AtomicInteger> downReadsByPort = new ConcurrentHashMap<>();
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      ExecutorService readers = Executors.newFixedThreadPool(6);
      for (int t = 0; t < 6; t++) {
        readers.submit(() -> {
          while (!stop.get()) {
            int p = phase.get();
            try (Connection c = pool.getConnection()) {
              int port = readAll(c);
              reads[p].incrementAndGet();
              if (p == 1) {
                downReadsByPort.computeIfAbsent(port, k -> new AtomicInteger()).incrementAndGet();
              }
            } catch (SQLException | AssertionError e) {
              failures.add(e);
            }
          }
          return null;
        });
      }
      long downMillis;
      long firstWriteMillis;
      try {
        Thread.sleep(1_000);
        Sandbox.run("kill", "primary");
        long killedAt = System.nanoTime();
        phase.set(1);
        // Every pooled connection is replaced while the primary is down (as a pool does after 08xxx errors).
        pool.getHikariPoolMXBean().softEvictConnections();
        Thread.sleep(4_000);
        // Reads that begin from here on may find the primary back before the restart command returns.
        phase.set(2);
        Sandbox.run("restart", "primary");
        downMillis = (System.nanoTime() - killedAt) / 1_000_000;
        phase.set(3);
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
          s.executeUpdate("INSERT INTO " + TABLE + " (id, v, port) VALUES (200, 0, @@port)");
        }
        firstWriteMillis = (System.nanoTime() - killedAt) / 1_000_000;
        Thread.sleep(1_000);
      } finally {
        stop.set(true);
        readers.shutdown();
        assertThat(readers.awaitTermination(60, TimeUnit.SECONDS)).as("readers stopped").isTrue();
      }
      MetricsSnapshot after = metrics();
      System.out.printf("OUTAGE LOGIN (HikariCP, pool 4, 6 readers): reads before/down/restarting/after %d/%d/%d/%d, down"
              + " reads by port %s, failed reads %d, primary down %d ms, first write %d ms after the kill, logins"
              + " without primary %d%n", reads[0].get(), reads[1].get(), reads[2].get(), reads[3].get(), downReadsByPort,
          failures.size(),
          downMillis, firstWriteMillis, after.loginsWithoutPrimary() - before.loginsWithoutPrimary());
      assertThat(failures).as("failed or stale reads").isEmpty();
      assertThat(reads[1].get()).as("reads while the primary was down").isPositive();
      assertThat(downReadsByPort.keySet()).as("servers that ran reads while the primary was down")
          .isSubsetOf(REPLICA_PORTS);
      assertThat(after.loginsWithoutPrimary() - before.loginsWithoutPrimary())
          .as("pooled connections opened while the primary was down").isPositive();
      assertThat(Topology.queryLong(PRIMARY_PORT, "SELECT port FROM " + TABLE + " WHERE id = 200"))
          .as("the server that ran the write after the restart").isEqualTo(PRIMARY_PORT);
    }
  }
}
