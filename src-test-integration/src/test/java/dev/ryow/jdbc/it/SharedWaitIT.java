package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reads that need the same write on the same replica share one wait there ({@code SharedWait}), on the defaults:
 * one connection writes a row, and at once four other connections of the JVM (each its own, no pool) read it.
 * The write is not on the replicas yet, so the first of them sends its wait with its query and the others ride on
 * it in the JVM. Over the rounds, every read returns its row; the replicas ran exactly the waits the driver counts
 * (their digest counts of the wait sent in a query's packet), and some reads rode on another's wait instead: fewer
 * waits than reads that waited.
 */
class SharedWaitIT {
  private static final String TABLE = "it_shared_wait";
  /** Readers, each on a logical connection of its own. */
  private static final int READERS = 4;
  private static final int ROUNDS = 50;
  /** The digest of the wait sent in a query's packet ({@code PipelinedWait}), as the servers count it. */
  private static final String PIPELINED_WAIT = "DO CASE WHEN `WAIT_FOR_EXECUTED_GTID_SET`";

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @Test
  void readsThatNeedTheSameWriteOnAReplicaShareOneWaitThere() throws Exception {
    List<Connection> readers = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(READERS);
    try (Connection writer = Topology.ryow()) {
      for (int i = 0; i < READERS; i++) {
        readers.add(Topology.ryow());
      }
      Topology.awaitInRotation(writer);
      write(writer, 0);
      Topology.awaitReplicasCaughtUp();
      for (Connection r : readers) {
        assertThat(read(r, 0)).as("a warm-up read").isNotNull();
      }
      long waitsBefore = Topology.unchanged(SharedWaitIT::serverWaits);
      MetricsSnapshot before = writer.unwrap(RyowConnection.class).clusterMetrics();
      int onReplicas = 0;
      for (int id = 1; id <= ROUNDS; id++) {
        write(writer, id);
        List<Future<Integer>> reads = new ArrayList<>();
        for (Connection r : readers) {
          int row = id;
          reads.add(pool.submit(() -> read(r, row)));
        }
        for (Future<Integer> f : reads) {
          onReplicas += REPLICA_PORTS.contains(f.get(60, TimeUnit.SECONDS)) ? 1 : 0;
        }
      }
      long serverWaits = Topology.unchanged(SharedWaitIT::serverWaits) - waitsBefore;
      MetricsSnapshot after = writer.unwrap(RyowConnection.class).clusterMetrics();
      long rides = after.waitsShared() - before.waitsShared();
      long driverWaits = after.waits() - before.waits();
      assertThat(onReplicas).as("reads of %d that ran on a replica (each found its row)", ROUNDS * READERS)
          .isPositive();
      Topology.assertCounted(serverWaits, driverWaits, "waits the replicas ran, as the driver counts them");
      assertThat(rides).as("reads that rode on another read's wait instead of sending one (%d waits sent)",
          driverWaits).isPositive();
    } finally {
      pool.shutdownNow();
      for (Connection r : readers) {
        r.close();
      }
    }
  }

  private static long serverWaits() throws SQLException {
    long n = 0;
    for (int port : REPLICA_PORTS) {
      n += Topology.statementsLike(port, PIPELINED_WAIT);
    }
    return n;
  }

  private static void write(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)")) {
      ps.setInt(1, id);
      ps.setInt(2, id);
      ps.executeUpdate();
    }
  }

  /** Reads row {@code id}: the port of the server that ran the read; fails when the row was missing. */
  private static Integer read(Connection c, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT v, @@port FROM " + TABLE + " WHERE id = ?")) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).as("row %d, read right after its write", id).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(id);
        return rs.getInt(2);
      }
    }
  }
}
