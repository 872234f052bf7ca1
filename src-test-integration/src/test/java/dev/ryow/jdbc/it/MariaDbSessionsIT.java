package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.MariaDbTopology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.MariaDbTopology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The promise where the write and the read come on different connections, on MariaDB and the driver's
 * defaults: a HikariCP pool of 4 connections shared by 8 threads under blocked appliers ({@link LagBlock}) and
 * under appliers stopped in pulses ({@link LagPulse}); a consistency token
 * carried from a writer in another JVM; and monotonic reads of a row another client keeps updating while
 * the replicas take turns being blocked (each falls behind the other in its turn). Each case also reads with
 * plain Connector/J connections, which must go wrong (stale or backward), so that the case can fail.
 * Where reads ran is the servers' own {@code @@port}.
 */
class MariaDbSessionsIT {
  @BeforeEach
  void start() {
    MariaDbTopology.start();
  }

  @AfterEach
  void caughtUp() throws SQLException {
    MariaDbTopology.awaitReplicasCaughtUp();
  }

  /** Lag for the length of a run: started by the call, stopped (and the replicas caught up) by closing. */
  @FunctionalInterface
  private interface Lag {
    Lagging start() throws SQLException;
  }

  /** Lag that is on until closed. */
  @FunctionalInterface
  private interface Lagging extends AutoCloseable {
    @Override
    void close() throws SQLException;
  }

  @Test
  void aPoolOfFourConnectionsForEightThreadsNeverReadsStaleUnderBlockedAppliers() throws Exception {
    pooled("blocked appliers", () -> LagBlock.start(MariaDbTopology.REPLICAS, 300, 500)::close);
  }

  @Test
  void aPoolOfFourConnectionsForEightThreadsNeverReadsStaleUnderPulsedAppliers() throws Exception {
    pooled("appliers stopped in pulses", () -> LagPulse.start(MariaDbTopology.REPLICAS, 300, 500)::close);
  }

  /**
   * A HikariCP pool of 4 on the driver's defaults for 8 threads under {@code lag}: each iteration borrows for
   * the write and again for the read-back (usually another connection), which must see the write.
   */
  private static void pooled(String what, Lag lag) throws Exception {
    MariaDbTopology.recreateTable("it_mdb_pool", "id INT PRIMARY KEY, v INT NOT NULL");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(MariaDbTopology.ryowUrl());
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(4);
    AtomicInteger stale = new AtomicInteger();
    AtomicInteger plainStale = new AtomicInteger();
    AtomicInteger onReplicas = new AtomicInteger();
    AtomicInteger onPrimary = new AtomicInteger();
    int threads = 8;
    int iterations = 60;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    Lagging lagging = lag.start();
    try (lagging; HikariDataSource ds = new HikariDataSource(config)) {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          try (Connection plain = MariaDbTopology.plain(REPLICA_PORTS.get(thread % 2))) {
            for (int i = 0; i < iterations; i++) {
              int id = thread * 100_000 + i;
              try (Connection c = ds.getConnection();
                  Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO it_mdb_pool VALUES (" + id + ", " + i + ")");
              }
              // The read borrows again: with 8 threads on 4 connections, usually another one.
              try (Connection c = ds.getConnection();
                  Statement s = c.createStatement();
                  ResultSet rs = s.executeQuery("SELECT v, @@port FROM it_mdb_pool WHERE id = " + id)) {
                if (!rs.next() || rs.getInt(1) != i) {
                  stale.incrementAndGet();
                } else if (rs.getInt(2) == PRIMARY_PORT) {
                  onPrimary.incrementAndGet();
                } else if (REPLICA_PORTS.contains(rs.getInt(2))) {
                  onReplicas.incrementAndGet();
                }
              }
              try (Statement s = plain.createStatement();
                  ResultSet rs = s.executeQuery("SELECT v FROM it_mdb_pool WHERE id = " + id)) {
                if (!rs.next()) {
                  plainStale.incrementAndGet();
                }
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    System.out.printf("MariaDB pool 4 x 8 threads, %s: %d reads, stale %d, plain stale %d, primary %d, replicas %d%n",
        what, threads * iterations, stale.get(), plainStale.get(), onPrimary.get(), onReplicas.get());
    assertThat(stale.get()).isZero();
    assertThat(onPrimary.get() + onReplicas.get()).isEqualTo(threads * iterations);
    assertThat(plainStale.get()).as("the lag must show to a plain replica connection").isPositive();
  }

  @Test
  void aTokenFromAWriterInAnotherJvmIsWaitedFor() throws Exception {
    MariaDbTopology.recreateTable("it_scope", "id INT PRIMARY KEY, v INT NOT NULL");
    int rounds = 4;
    int stale = 0;
    int plainStale = 0;
    LagBlock block = LagBlock.holdAll(MariaDbTopology.REPLICAS, REPLICA_PORTS);
    try (block) {
      for (int round = 1; round <= rounds; round++) {
        String token = TokenWriterMain.run(MariaDbTopology.ryowUrl(), round, 10 * round);
        assertThat(token).as("a MariaDB token names its kind").startsWith("d1:").contains("0-21-");
        try (Connection plain = MariaDbTopology.plain(REPLICA_PORTS.get(round % 2));
            Statement s = plain.createStatement();
            ResultSet rs = s.executeQuery("SELECT v FROM it_scope WHERE id = " + round)) {
          if (!rs.next()) {
            plainStale++;
          }
        }
        try (Connection c = MariaDbTopology.ryow()) {
          c.unwrap(RyowConnection.class).mergeConsistencyToken(token);
          try (PreparedStatement ps = c.prepareStatement("SELECT v FROM it_scope WHERE id = ?")) {
            ps.setInt(1, round);
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next() || rs.getInt(1) != 10 * round) {
                stale++;
              }
            }
          }
        }
      }
    }
    System.out.printf("MariaDB token across JVMs, replicas blocked: %d rounds, stale %d, plain stale %d%n", rounds,
        stale, plainStale);
    assertThat(stale).isZero();
    assertThat(plainStale).as("the blocked replicas lack each row").isEqualTo(rounds);
  }

  @Test
  void readsNeverGoBackwardWhileTheReplicasTakeTurnsBeingBlocked() throws Exception {
    MariaDbTopology.recreateTable("it_mdb_monotonic", "id INT PRIMARY KEY, v BIGINT NOT NULL");
    MariaDbTopology.exec(PRIMARY_PORT, "INSERT INTO it_mdb_monotonic VALUES (1, 0)");
    MariaDbTopology.awaitReplicasCaughtUp();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread writer = new Thread(() -> {
      try (Connection c = MariaDbTopology.plain(PRIMARY_PORT);
          Statement s = c.createStatement()) {
        while (!stop.get()) {
          s.executeUpdate("UPDATE it_mdb_monotonic SET v = v + 1 WHERE id = 1");
        }
      } catch (Throwable t) {
        failure.set(t);
      }
    }, "outside-writer");
    // One replica blocked at a time, in turns of 400 ms: each falls behind, then catches up past the other.
    Thread turns = new Thread(() -> {
      try (Connection r1 = MariaDbTopology.plain(REPLICA_PORTS.get(0));
          Connection r2 = MariaDbTopology.plain(REPLICA_PORTS.get(1))) {
        Connection[] sessions = {r1, r2};
        for (int turn = 0; !stop.get(); turn++) {
          try (Statement s = sessions[turn % 2].createStatement()) {
            s.execute("FLUSH TABLES WITH READ LOCK");
            Thread.sleep(400);
            s.execute("UNLOCK TABLES");
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Throwable t) {
        failure.set(t);
      }
    }, "blocking-turns");
    writer.start();
    turns.start();
    int reads = 1_200;
    int backward = 0;
    int plainBackward = 0;
    int[] byPort = new int[3];
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(MariaDbTopology.ryowUrl());
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(4);
    try (HikariDataSource ds = new HikariDataSource(config);
        Connection plain1 = MariaDbTopology.plain(REPLICA_PORTS.get(0));
        Connection plain2 = MariaDbTopology.plain(REPLICA_PORTS.get(1))) {
      long seen = -1;
      long plainSeen = -1;
      for (int i = 0; i < reads; i++) {
        try (Connection c = ds.getConnection();
            Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT (SELECT v FROM it_mdb_monotonic WHERE id = 1), @@port")) {
          rs.next();
          long v = rs.getLong(1);
          if (v < seen) {
            backward++;
          }
          seen = Math.max(seen, v);
          byPort[MariaDbTopology.ALL_PORTS.indexOf(rs.getInt(2))]++;
        }
        // The control: plain reads alternating between the two replicas.
        try (Statement s = (i % 2 == 0 ? plain2 : plain1).createStatement();
            ResultSet rs = s.executeQuery("SELECT v FROM it_mdb_monotonic WHERE id = 1")) {
          rs.next();
          long v = rs.getLong(1);
          if (v < plainSeen) {
            plainBackward++;
          }
          plainSeen = Math.max(plainSeen, v);
        }
      }
    } finally {
      stop.set(true);
      writer.join(30_000);
      turns.join(30_000);
    }
    assertThat(failure.get()).as("the writer and the blocking turns").isNull();
    System.out.printf("MariaDB monotonic reads, replicas blocked in turns: %d reads, backward %d (plain %d);"
        + " primary %d, replica1 %d, replica2 %d%n", reads, backward, plainBackward, byPort[0], byPort[1], byPort[2]);
    assertThat(backward).isZero();
    assertThat(plainBackward).as("plain reads across the two replicas go backward").isPositive();
    assertThat(byPort[0] + byPort[1] + byPort[2]).isEqualTo(reads);
    assertThat(byPort[1] + byPort[2]).as("reads leave the primary").isPositive();
  }
}
