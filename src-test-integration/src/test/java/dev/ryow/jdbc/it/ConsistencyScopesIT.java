package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.InvalidTokenException;
import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Consistency beyond one connection: scopes, JVM and latest modes, tokens across processes. */
@AboutSettings(value = {"ryow.consistency", "ryow.monotonicReads"},
    why = "compares the default (jvm) with the opt-in modes: connection misses other connections' writes, scope and"
        + " latest add what they promise; the connection-mode runs switch monotonic reads off, which would otherwise"
        + " keep a reader that once fell back to the primary there while the replicas are stopped")
class ConsistencyScopesIT {
  private static final int THREADS = 4;
  private static final int ITERATIONS_PER_THREAD = 250;
  /** Each run of {@link #writeThenReadOnAnotherConnection} writes its own ids. */
  private static final AtomicInteger RUNS = new AtomicInteger(1);

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_scope", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  private static boolean reads(PreparedStatement read, int id, int expected) throws SQLException {
    read.setInt(1, id);
    try (ResultSet rs = read.executeQuery()) {
      return rs.next() && rs.getInt(1) == expected;
    }
  }

  /** Stale reads of a run, and reads the primary answered (each read returns its server's {@code @@port}). */
  private record Outcome(int stale, int servedByPrimary) {}

  /**
   * Each thread writes on one connection and reads on another (as a pool would hand them out), with
   * or without a scope per iteration.
   */
  @SuppressWarnings("try") // the scope is used through the thread binding, not by name
  private static Outcome writeThenReadOnAnotherConnection(boolean withScope, String... params) throws Exception {
    int run = RUNS.getAndIncrement();
    AtomicInteger stale = new AtomicInteger();
    AtomicInteger servedByPrimary = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          try (Connection writer = Topology.ryow(params);
              Connection reader = Topology.ryow(params);
              PreparedStatement write = writer.prepareStatement("INSERT INTO it_scope (id, v) VALUES (?, ?)");
              PreparedStatement read = reader.prepareStatement("SELECT v, @@port FROM it_scope WHERE id = ?")) {
            for (int i = 0; i < ITERATIONS_PER_THREAD; i++) {
              int id = run * 100_000 + thread * 10_000 + i;
              if (withScope) {
                try (ConsistencyScope scope = ConsistencyScope.open()) {
                  write.setInt(1, id);
                  write.setInt(2, i);
                  write.executeUpdate();
                  if (!readsAt(read, id, i, servedByPrimary)) {
                    stale.incrementAndGet();
                  }
                }
              } else {
                write.setInt(1, id);
                write.setInt(2, i);
                write.executeUpdate();
                if (!readsAt(read, id, i, servedByPrimary)) {
                  stale.incrementAndGet();
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
    return new Outcome(stale.get(), servedByPrimary.get());
  }

  /** Like {@link #reads}, and counts the read in {@code primaryHits} when the primary answered it. */
  private static boolean readsAt(PreparedStatement read, int id, int expected, AtomicInteger primaryHits)
      throws SQLException {
    read.setInt(1, id);
    try (ResultSet rs = read.executeQuery()) {
      if (!rs.next()) {
        return false;
      }
      if (rs.getInt(2) == PRIMARY_PORT) {
        primaryHits.incrementAndGet();
      }
      return rs.getInt(1) == expected;
    }
  }

  @Test
  void aScopeCarriesWritesToOtherPooledConnections() throws Exception {
    Topology.pauseAppliers();
    Outcome inScope = writeThenReadOnAnotherConnection(true, "ryow.waitTimeout=20");
    Outcome without = writeThenReadOnAnotherConnection(false, "ryow.waitTimeout=20", "ryow.consistency=connection",
        "ryow.monotonicReads=false");
    int iterations = THREADS * ITERATIONS_PER_THREAD;
    System.out.printf("scope, appliers paused: %d iterations, stale in scope %d, stale without scope %d,"
        + " primary answered %d scoped reads%n", iterations, inScope.stale(), without.stale(), inScope.servedByPrimary());
    assertThat(inScope.stale()).isZero();
    // Asked of the servers themselves: each read returns the @@port of the server that ran it. (Digest counts
    // of performance_schema are not exact under concurrency: its summary rows are updated without locks.)
    assertThat(inScope.servedByPrimary()).as("reads the primary answered").isEqualTo(iterations);
    assertThat(without.stale()).as("in connection mode, without the scope, the other connection reads stale data")
        .isEqualTo(iterations);
  }

  @Test
  void theDefaultSeesEveryWriteOfTheDriverWhileConnectionModeDoesNot() throws Exception {
    Topology.pauseAppliers();
    int staleDefault = writeThenReadOnAnotherConnection(false, "ryow.waitTimeout=20").stale();
    int staleJvm = writeThenReadOnAnotherConnection(false, "ryow.waitTimeout=20", "ryow.consistency=jvm").stale();
    int staleConnection =
        writeThenReadOnAnotherConnection(false, "ryow.waitTimeout=20", "ryow.consistency=connection",
        "ryow.monotonicReads=false").stale();
    int iterations = THREADS * ITERATIONS_PER_THREAD;
    System.out.printf("appliers paused, write and read on two connections: stale %d of %d by default, %d in jvm mode,"
        + " %d in connection mode%n", staleDefault, iterations, staleJvm, staleConnection);
    assertThat(staleDefault).isZero();
    assertThat(staleJvm).isZero();
    assertThat(staleConnection).as("connection mode only covers the connection's own writes").isEqualTo(iterations);
  }

  @Test
  void latestModeSeesWritesMadeOutsideTheDriver() throws SQLException {
    try (Connection plainPrimary = Topology.plain(PRIMARY_PORT);
        Connection latest = Topology.ryow("ryow.consistency=latest", "ryow.waitTimeout=20");
        // Its own writes only, and no bound from what other connections of this JVM read: the JVM's
        // history is per set of servers, so the latest-mode reads would otherwise carry the writes to it.
        Connection perConnection =
            Topology.ryow("ryow.waitTimeout=20", "ryow.consistency=connection", "ryow.monotonicReads=false");
        PreparedStatement write = plainPrimary.prepareStatement("INSERT INTO it_scope (id, v) VALUES (?, ?)");
        PreparedStatement latestRead = latest.prepareStatement("SELECT v FROM it_scope WHERE id = ?");
        PreparedStatement ownRead = perConnection.prepareStatement("SELECT v FROM it_scope WHERE id = ?")) {
      Topology.pauseAppliers();
      int staleLatest = 0;
      int staleOwn = 0;
      for (int i = 0; i < 100; i++) {
        write.setInt(1, 900_000 + i);
        write.setInt(2, i);
        write.executeUpdate();
        staleLatest += reads(latestRead, 900_000 + i, i) ? 0 : 1;
        staleOwn += reads(ownRead, 900_000 + i, i) ? 0 : 1;
      }
      System.out.printf("latest mode: 100 writes by another client, stale %d (connection mode: %d)%n", staleLatest, staleOwn);
      assertThat(staleLatest).isZero();
      assertThat(staleOwn).isEqualTo(100);
      Topology.resumeAppliers();
      Topology.awaitInRotation(latest);
      assertThat(reads(latestRead, 900_000, 0)).isTrue();
      assertThat(latest.unwrap(RyowConnection.class).lastRead().role()).isEqualTo(ServerRole.REPLICA);
    }
  }

  @Test
  @SuppressWarnings("try")
  void aTokenFromAnotherProcessGivesTheSameGuarantee() throws Exception {
    for (String key : new String[] {null, "ryow.tokenKey=integration-test-key-0123"}) {
      String[] params = key == null ? new String[] {"ryow.waitTimeout=20"} : new String[] {"ryow.waitTimeout=20", key};
      Topology.pauseAppliers();
      int id = key == null ? 700_001 : 700_002;
      String token = runWriterProcess(Topology.ryowUrl(params), id, 42);
      // Without the token the reader's requirement is its own (no writes) and nothing this JVM read before:
      // the JVM's history is per set of servers, shared with the other tests' connections.
      String[] own = java.util.stream.Stream.concat(java.util.Arrays.stream(params),
          java.util.stream.Stream.of("ryow.consistency=connection", "ryow.monotonicReads=false")).toArray(String[]::new);
      try (Connection c = Topology.ryow(own);
          PreparedStatement read = c.prepareStatement("SELECT v FROM it_scope WHERE id = ?")) {
        assertThat(reads(read, id, 42)).as("without the token: stale").isFalse();
        c.unwrap(RyowConnection.class).mergeConsistencyToken(token);
        assertThat(reads(read, id, 42)).as("with the token from the other JVM").isTrue();
        assertThat(c.unwrap(RyowConnection.class).lastRead().placement()).isEqualTo(ReadPlacement.PRIMARY_FALLBACK);
      }
      try (ConsistencyScope scope = ConsistencyScope.open(token, tokenCodecOf(params));
          Connection c = Topology.ryow(params);
          PreparedStatement read = c.prepareStatement("SELECT v FROM it_scope WHERE id = ?")) {
        assertThat(reads(read, id, 42)).as("a scope opened with the token").isTrue();
      }
      Topology.resumeAppliers();
    }
  }

  private static dev.ryow.jdbc.TokenCodec tokenCodecOf(String... params) throws SQLException {
    return dev.ryow.jdbc.TokenCodec.of(
        dev.ryow.jdbc.config.RyowConfig.from(Topology.ryowUrl(params), new java.util.Properties()));
  }

  private static String runWriterProcess(String url, int id, int value) throws Exception {
    return TokenWriterMain.run(url, id, value);
  }


  @Test
  void badTokensAreRejectedOrDroppedNeverWaitedOn() throws SQLException {
    try (Connection c = Topology.ryow("ryow.waitTimeout=1000");
        Statement s = c.createStatement()) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      for (String bad : new String[] {"garbage", "x'); DROP TABLE it_scope; --", "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-",
          "3e11fa47-71ca-11e1-9e33-c80aa9429562:" + "1:".repeat(5000) + "1"}) {
        assertThatThrownBy(() -> ryow.mergeConsistencyToken(bad)).isInstanceOf(InvalidTokenException.class);
      }
      assertThat(ryow.consistencyToken()).isEmpty();

      // Well-formed, but for a server this cluster never had: detected, read on the primary at once.
      ryow.mergeConsistencyToken("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5");
      MetricsSnapshot before = ryow.clusterMetrics();
      long start = System.nanoTime();
      try (ResultSet rs = s.executeQuery("SELECT @@port")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(PRIMARY_PORT);
      }
      long tookMillis = (System.nanoTime() - start) / 1_000_000;
      MetricsSnapshot after = ryow.clusterMetrics();
      ReadReport report = ryow.lastRead();
      assertThat(report.placement()).isEqualTo(ReadPlacement.PRIMARY_UNKNOWN_GTIDS);
      assertThat(report.waited()).isFalse();
      assertThat(after.waits()).as("no WAIT_FOR_EXECUTED_GTID_SET was sent").isEqualTo(before.waits());
      assertThat(after.unknownGtidReads()).isGreaterThan(before.unknownGtidReads());
      System.out.printf("foreign token: read on the primary in %d ms without a wait (ryow.waitTimeout=1000)%n", tookMillis);
    }
    String primaryUuid;
    try (Connection p = Topology.plain(PRIMARY_PORT)) {
      primaryUuid = Topology.queryString(p, "SELECT @@server_uuid");
    }
    try (Connection c = Topology.ryow("ryow.unknownGtids=error");
        Statement s = c.createStatement()) {
      // The real primary's uuid, but GTIDs from its future.
      c.unwrap(RyowConnection.class).mergeConsistencyToken(primaryUuid + ":1-999999999");
      assertThatThrownBy(() -> s.executeQuery("SELECT 1").close())
          .isInstanceOf(SQLDataException.class)
          .hasMessageContaining("never executed")
          .hasMessageContaining("ryow.unknownGtids");
    }
  }

  @Test
  void perReadTelemetry() throws SQLException {
    // A slow poller cannot take the paused replicas out of rotation mid-test: the read below must wait.
    // Its first round (started when the cluster opened) has finished before the appliers are paused.
    try (Connection c = Topology.ryowPolledOnce("ryow.waitTimeout=30", "ryow.pollInterval=600000");
        Statement s = c.createStatement()) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      assertThat(ryow.lastRead()).isNull();
      s.executeUpdate("INSERT INTO it_scope (id, v) VALUES (1, 1)");
      // The replicas have the row before the read: its 30 ms wait cannot time out on a busy machine.
      Topology.awaitReplicasCaughtUp();
      s.executeQuery("SELECT v FROM it_scope WHERE id = 1").close();
      ReadReport waited = ryow.lastRead();
      assertThat(waited.role()).isEqualTo(ServerRole.REPLICA);
      assertThat(waited.placement()).isIn(ReadPlacement.REPLICA_AFTER_WAIT, ReadPlacement.REPLICA_NO_WAIT);
      assertThat(REPLICA_PORTS).contains(Integer.parseInt(waited.server().substring(waited.server().lastIndexOf(':') + 1)));

      Topology.pauseAppliers();
      s.executeUpdate("INSERT INTO it_scope (id, v) VALUES (2, 2)");
      s.executeQuery("SELECT v FROM it_scope WHERE id = 2").close();
      ReadReport fell = ryow.lastRead();
      assertThat(fell.fellBack()).isTrue();
      assertThat(fell.waited()).isTrue();
      assertThat(fell.role()).isEqualTo(ServerRole.PRIMARY);

      ryow.setConsistencyMode(ConsistencyMode.NONE);
      s.executeQuery("SELECT v FROM it_scope WHERE id = 2").close();
      assertThat(ryow.lastRead().placement()).isEqualTo(ReadPlacement.REPLICA_UNCHECKED);
      ryow.setConsistencyMode(null);
      assertThat(ryow.consistencyMode()).isEqualTo(ConsistencyMode.JVM);
      try (ConsistencyScope added = ConsistencyScope.open()) {
        assertThat(added.modeGiven()).isFalse();
        assertThat(ryow.consistencyMode()).as("a scope without a mode keeps the default's guarantee")
            .isEqualTo(ConsistencyMode.JVM);
        try (ConsistencyScope imposed = ConsistencyScope.open(ConsistencyMode.SCOPE)) {
          assertThat(imposed.modeGiven()).isTrue();
          assertThat(ryow.consistencyMode()).isEqualTo(ConsistencyMode.SCOPE);
        }
      }
    }
  }
}
