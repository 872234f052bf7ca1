package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.MariaDbTopology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.MariaDbTopology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The promise on MariaDB, on the driver's defaults: a write followed by a read on the same logical
 * connection never returns stale data, with the replicas' appliers stopped ({@link LagPulse}: {@code STOP SLAVE
 * SQL_THREAD}) or blocked while running ({@code FLUSH TABLES WITH READ LOCK} held on the replicas), while
 * a plain replica connection in the same run does read stale data (so the test can fail). Where a read
 * ran is the answer of the server that ran it ({@code @@port}, {@code @@server_id}).
 */
class MariaDbReadYourWritesIT {
  private static final int THREADS = 4;
  private static final int ITERATIONS_PER_THREAD = 150;

  @BeforeEach
  void table() throws SQLException {
    MariaDbTopology.start();
    MariaDbTopology.recreateTable("it_mdb_ryow", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void resume() throws SQLException {
    MariaDbTopology.startAppliers();
  }

  /** One run: stale counts, and which servers answered the ryow reads (by their own {@code @@port}). */
  record Tally(int iterations, int ryowStale, int plainStale, int byPrimary, int byReplicas, int reportedOnReplica,
      int wrongServerId) {}

  static Tally run() throws Exception {
    AtomicInteger ryowStale = new AtomicInteger();
    AtomicInteger plainStale = new AtomicInteger();
    AtomicInteger byPrimary = new AtomicInteger();
    AtomicInteger byReplicas = new AtomicInteger();
    AtomicInteger reported = new AtomicInteger();
    AtomicInteger wrongId = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          try (Connection ryow = MariaDbTopology.ryow();
              Connection plain = MariaDbTopology.plain(REPLICA_PORTS.get(thread % REPLICA_PORTS.size()));
              PreparedStatement write = ryow.prepareStatement(
                  "INSERT INTO it_mdb_ryow (id, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v)");
              PreparedStatement read = ryow.prepareStatement("SELECT v, @@port, @@server_id FROM it_mdb_ryow WHERE id = ?");
              PreparedStatement plainRead = plain.prepareStatement("SELECT v FROM it_mdb_ryow WHERE id = ?")) {
            RyowConnection info = ryow.unwrap(RyowConnection.class);
            for (int i = 0; i < ITERATIONS_PER_THREAD; i++) {
              int id = thread * 1_000_000 + i;
              write.setInt(1, id);
              write.setInt(2, i);
              write.executeUpdate();
              read.setInt(1, id);
              try (ResultSet rs = read.executeQuery()) {
                if (!rs.next() || rs.getInt(1) != i) {
                  ryowStale.incrementAndGet();
                } else {
                  int port = rs.getInt(2);
                  long serverId = rs.getLong(3);
                  if (port == PRIMARY_PORT) {
                    byPrimary.incrementAndGet();
                  } else if (REPLICA_PORTS.contains(port)) {
                    byReplicas.incrementAndGet();
                  }
                  // The sandbox's server ids are 21 + the node's index: the port and the id name the same server.
                  if (serverId != 21 + MariaDbTopology.ALL_PORTS.indexOf(port)) {
                    wrongId.incrementAndGet();
                  }
                }
              }
              if (info.lastServerRole() == ServerRole.REPLICA) {
                reported.incrementAndGet();
              }
              plainRead.setInt(1, id);
              try (ResultSet rs = plainRead.executeQuery()) {
                if (!rs.next() || rs.getInt(1) != i) {
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
    return new Tally(THREADS * ITERATIONS_PER_THREAD, ryowStale.get(), plainStale.get(), byPrimary.get(),
        byReplicas.get(), reported.get(), wrongId.get());
  }

  @Test
  void noLagMostReadsAreServedByTheReplicas() throws Exception {
    Tally tally = run();
    System.out.printf("MariaDB no lag: %s%n", tally);
    assertThat(tally.ryowStale()).isZero();
    assertThat(tally.wrongServerId()).isZero();
    assertThat(tally.byPrimary() + tally.byReplicas()).isEqualTo(tally.iterations());
    assertThat(tally.reportedOnReplica()).as("the driver's report agrees with the servers").isEqualTo(tally.byReplicas());
    assertThat(tally.byReplicas()).as("reads leave the primary on MariaDB").isGreaterThanOrEqualTo(tally.iterations() / 2);
  }

  @Test
  void stoppedAppliersNeverStale() throws Exception {
    Tally tally;
    LagPulse pulse = LagPulse.start(MariaDbTopology.REPLICAS, 300, 500);
    try (pulse) {
      tally = run();
    }
    System.out.printf("MariaDB stopped appliers (pulsed): %s%n", tally);
    assertThat(tally.ryowStale()).isZero();
    assertThat(tally.wrongServerId()).isZero();
    assertThat(tally.plainStale()).as("stopped appliers must be visible to a plain replica connection").isPositive();
  }

  @Test
  void blockedAppliersNeverStale() throws Exception {
    Tally tally;
    LagBlock block = LagBlock.start(MariaDbTopology.REPLICAS, 300, 500);
    try (block) {
      tally = run();
    }
    System.out.printf("MariaDB blocked appliers: %s%n", tally);
    assertThat(tally.ryowStale()).isZero();
    assertThat(tally.wrongServerId()).isZero();
    assertThat(tally.plainStale()).as("blocked appliers must be visible to a plain replica connection").isPositive();
  }
}
