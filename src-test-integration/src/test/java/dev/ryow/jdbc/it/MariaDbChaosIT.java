package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.MariaDbTopology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.MariaDbTopology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Servers that go away under load, on MariaDB and the driver's defaults: a replica killed (SIGKILL) while
 * writers read their own writes, and a switchover of the primary ({@code sandbox/ryow-sandbox --mariadb
 * switchover}: the old primary made read-only, the new one caught up and made writable, the others
 * repointed). Every read is checked against the value just written; where it ran is the server's
 * {@code @@port}.
 */
class MariaDbChaosIT {
  @BeforeEach
  void start() throws SQLException {
    MariaDbTopology.start();
    MariaDbTopology.recreateTable("it_mdb_chaos", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void restore() {
    Sandbox.run("--mariadb", "switchover", "primary");
    Sandbox.run("--mariadb", "start");
  }

  /** Counts of writer threads that write a row and read it back through the driver until told to stop. */
  private static final class Load {
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicInteger iterations = new AtomicInteger();
    final AtomicInteger stale = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    final AtomicInteger[] byPort = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
    final List<String> errors = java.util.Collections.synchronizedList(new ArrayList<>());

    Callable task(int thread) {
      return () -> {
        try (Connection c = MariaDbTopology.ryow();
            PreparedStatement write = c.prepareStatement("INSERT INTO it_mdb_chaos VALUES (?, ?)");
            PreparedStatement read = c.prepareStatement("SELECT v, @@port FROM it_mdb_chaos WHERE id = ?")) {
          for (int i = 0; !stop.get(); i++) {
            int id = thread * 1_000_000 + i;
            try {
              write.setInt(1, id);
              write.setInt(2, i);
              write.executeUpdate();
              read.setInt(1, id);
              try (ResultSet rs = read.executeQuery()) {
                if (!rs.next() || rs.getInt(1) != i) {
                  stale.incrementAndGet();
                } else {
                  byPort[MariaDbTopology.ALL_PORTS.indexOf(rs.getInt(2))].incrementAndGet();
                }
              }
              iterations.incrementAndGet();
            } catch (SQLException e) {
              failed.incrementAndGet();
              if (errors.size() < 5) {
                errors.add(e.toString());
              }
            }
          }
        }
        return null;
      };
    }

    int atPort(int port) {
      return byPort[MariaDbTopology.ALL_PORTS.indexOf(port)].get();
    }

    @Override
    public String toString() {
      return iterations + " iterations, stale " + stale + ", failed " + failed + " " + errors + "; primary "
          + byPort[0] + ", replica1 " + byPort[1] + ", replica2 " + byPort[2];
    }
  }

  private interface Callable extends java.util.concurrent.Callable<Void> {}

  private static void awaitIterations(Load load, int atLeast) throws InterruptedException {
    int start = load.iterations.get();
    for (int i = 0; i < 600 && load.iterations.get() < start + atLeast; i++) {
      Thread.sleep(50);
    }
  }

  @Test
  void aReplicaKilledMidRunReadsContinueAndNeverStale() throws Exception {
    Load load = new Load();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    List<Future<Void>> futures = new ArrayList<>();
    try {
      for (int t = 0; t < 3; t++) {
        futures.add(pool.submit(load.task(t)));
      }
      awaitIterations(load, 150);
      Sandbox.run("--mariadb", "kill", "replica1");
      int atKill = load.iterations.get();
      int replica2AtKill = load.atPort(REPLICA_PORTS.get(1));
      awaitIterations(load, 300);
      load.stop.set(true);
      for (Future<Void> f : futures) {
        f.get();
      }
      System.out.printf("MariaDB replica1 killed after %d iterations: %s%n", atKill, load);
      assertThat(load.stale.get()).isZero();
      assertThat(load.iterations.get() - atKill).as("writes and reads continue after the kill").isGreaterThanOrEqualTo(300);
      assertThat(load.atPort(REPLICA_PORTS.get(1)) - replica2AtKill).as("replica2 keeps serving reads").isPositive();
      assertThat(load.failed.get()).as("statements that failed: %s", load.errors).isZero();
    } finally {
      load.stop.set(true);
      pool.shutdownNow();
      Sandbox.run("--mariadb", "restart", "replica1");
    }
  }

  @Test
  void aSwitchoverIsFollowedAndReadsNeverStale() throws Exception {
    Load load = new Load();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<Void>> futures = new ArrayList<>();
    try {
      for (int t = 0; t < 2; t++) {
        futures.add(pool.submit(load.task(t)));
      }
      awaitIterations(load, 100);
      Sandbox.run("--mariadb", "switchover", "replica1");
      int atSwitch = load.iterations.get();
      awaitIterations(load, 200);
      load.stop.set(true);
      for (Future<Void> f : futures) {
        f.get();
      }
      System.out.printf("MariaDB switchover to replica1 after %d iterations: %s%n", atSwitch, load);
      assertThat(load.stale.get()).isZero();
      assertThat(load.iterations.get() - atSwitch).as("writes continue on the new primary").isGreaterThanOrEqualTo(200);
      // The new primary has the rows written after the switchover: it took the writes.
      long rows = MariaDbTopology.queryLong(REPLICA_PORTS.get(0), "SELECT COUNT(*) FROM it_mdb_chaos");
      assertThat(rows).isEqualTo(load.iterations.get());
      assertThat(MariaDbTopology.queryLong(REPLICA_PORTS.get(0), "SELECT @@global.read_only")).isZero();
      assertThat(MariaDbTopology.queryLong(PRIMARY_PORT, "SELECT @@global.read_only")).isEqualTo(1);
      System.out.printf("failed statements during the switchover: %d %s%n", load.failed.get(), load.errors);
    } finally {
      load.stop.set(true);
      pool.shutdownNow();
    }
  }
}
