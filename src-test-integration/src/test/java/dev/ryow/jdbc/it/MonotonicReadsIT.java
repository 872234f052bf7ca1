package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Monotonic reads, as the issue measured them: a writer that is not this driver (a plain Connector/J
 * connection on the primary) inserts a row and then updates it without pause; replica1's applier is
 * blocked (running, but unable to commit: it never gets the row), replica2 is current; a reader takes
 * the four connections of a HikariCP pool in turn and reads the row. A read is <em>backward</em> when
 * it returns the row missing or at a lower value than an earlier read of the same reader had shown.
 * Every read also returns the {@code @@port} of the server that ran it, so the counts come from the
 * rows and the servers, never from the driver.
 *
 * <p>With the default URL: 0 backward reads, in one JVM and across two JVMs joined by a consistency
 * token, and also under even lag (both appliers blocked 200 ms of every second). With
 * {@code ryow.monotonicReads=false} ({@link WithoutTheGuarantee}): backward reads, so the test has teeth.
 * Each run prints reads per server, replica share, round trips per read (counted on the
 * servers: the reads, the waits and the on-demand position reads) and read latency.
 */
class MonotonicReadsIT {
  static final String TABLE = "it_monotonic";
  /** One row whatever happens: the value (NULL while the server lacks the row) and the server's port. */
  static final String READ = "SELECT (SELECT v FROM " + TABLE + " WHERE id = 1), @@port";
  private static final int POOL = 4;
  private static final int READS = 1_600;

  private LagBlock blocked;
  private Thread writer;
  private final AtomicBoolean stopWriter = new AtomicBoolean();
  private final AtomicReference<Throwable> writerFailure = new AtomicReference<>();

  @BeforeEach
  void blockReplica1AndStartTheWriter() throws Exception {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v BIGINT NOT NULL");
    blocked = LagBlock.hold(REPLICA_PORTS.get(0));
    writer = new Thread(() -> {
      try (Connection c = Topology.plain(PRIMARY_PORT);
          Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO " + TABLE + " VALUES (1, 0)");
        while (!stopWriter.get()) {
          s.executeUpdate("UPDATE " + TABLE + " SET v = v + 1 WHERE id = 1");
        }
      } catch (Throwable t) {
        writerFailure.set(t);
      }
    }, "outside-writer");
    writer.start();
    // The row exists on the primary and on replica2 before the reader starts.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (Topology.queryLong(REPLICA_PORTS.get(1), "SELECT COUNT(*) FROM " + TABLE) == 0) {
      assertThat(System.nanoTime()).as("replica2 got the row within 30 s").isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  @AfterEach
  void stopTheWriterAndRelease() throws Exception {
    stopWriter.set(true);
    if (writer != null) {
      writer.join(30_000);
    }
    if (blocked != null) {
      blocked.close();
    }
    assertThat(writerFailure.get()).as("the writer").isNull();
  }

  // ---------------------------------------------------------------- one JVM, a pool

  @Test
  void aPooledReaderNeverReadsBackwardsWithTheDefaults() throws Exception {
    Run run = pooledReader(Topology.ryowUrl(), "defaults");
    assertThat(run.backward).as("backward reads with the defaults (%s)", run).isZero();
    assertThat(run.onPort(REPLICA_PORTS.get(1))).as("reads on the current replica (%s)", run).isPositive();
    assertThat(run.valueSeen).as("the reader saw the row").isPositive();
  }

  /** Even lag: both replicas' appliers blocked 200 ms of every second (replica1 is released first). */
  private void evenLag() throws Exception {
    blocked.close();
    blocked = LagBlock.start(200, 1_000);
  }

  @Test
  void evenLagDoesNotMakeItReadBackwardsEither() throws Exception {
    evenLag();
    Run run = pooledReader(Topology.ryowUrl(), "defaults, even lag");
    assertThat(run.backward).as("backward reads with the defaults (%s)", run).isZero();
    assertThat(run.valueSeen).as("the reader saw the row").isPositive();
  }

  // ---------------------------------------------------------------- two JVMs, a token

  @Test
  void aTokenCarriesWhatTheReadsOfAnotherProcessSaw() throws Exception {
    Handoff handoff = acrossProcesses(Topology.ryowUrl());
    assertThat(handoff.first.backward).as("backward reads in the first process (%s)", handoff.first).isZero();
    assertThat(handoff.first.valueSeen).as("the first process saw the row").isPositive();
    assertThat(handoff.token).as("the token names the reads").contains("~");
    assertThat(handoff.second.backward).as("backward reads in the second process (%s)", handoff.second).isZero();
  }

  /** The same runs with the guarantee switched off: they go backwards. */
  @Nested
  @AboutSettings(value = "ryow.monotonicReads",
      why = "switches monotonic reads off (read-your-writes only) to show the same reader then reads backwards")
  class WithoutTheGuarantee {
    @Test
    void aPooledReaderReadsBackwards() throws Exception {
      Run run = pooledReader(Topology.ryowUrl("ryow.monotonicReads=false"), "monotonicReads=false");
      assertThat(run.backward).as("backward reads without the guarantee (%s)", run).isPositive();
      assertThat(run.onPort(REPLICA_PORTS.get(0))).as("reads on the blocked replica (%s)", run).isPositive();
    }

    @Test
    void evenLagMakesItReadBackwardsToo() throws Exception {
      evenLag();
      Run run = pooledReader(Topology.ryowUrl("ryow.monotonicReads=false"), "monotonicReads=false, even lag");
      assertThat(run.backward).as("backward reads without the guarantee (%s)", run).isPositive();
    }

    /**
     * The control's condition: the second process reads replica1 while it is blocked and in rotation. A blocked
     * replica leaves rotation once its applier lag passes {@code ryow.maxReplicaLag} (30 s), which a busy
     * machine reached before the second process read (a flake hunt beside busy loops: 44 s, no read on
     * replica1, no backward read). Then the run is set up again from a fresh hold, at most three times, and
     * the test fails unless the condition was met.
     */
    @Test
    void aSecondProcessReadsBackwards() throws Exception {
      int replica1 = REPLICA_PORTS.get(0);
      Handoff handoff = acrossProcesses(Topology.ryowUrl("ryow.monotonicReads=false"));
      for (int attempt = 1; attempt < 3 && handoff.second.onPort(replica1) == 0; attempt++) {
        blocked.close();
        blocked = LagBlock.hold(replica1);
        handoff = acrossProcesses(Topology.ryowUrl("ryow.monotonicReads=false"));
      }
      assertThat(handoff.second.onPort(replica1)).as("the second process read the blocked replica (%s)", handoff.second)
          .isPositive();
      assertThat(handoff.token).as("no reads in the token").doesNotContain("~");
      assertThat(handoff.first.backward + handoff.second.backward)
          .as("backward reads without the guarantee (%s / %s)", handoff.first, handoff.second).isPositive();
    }
  }

  // ---------------------------------------------------------------- the reader

  /** What one reader counted. */
  static final class Run {
    final String label;
    int reads;
    int backward;
    long valueSeen = -1;
    final int[] byPort = new int[3];
    long[] nanos = new long[0];
    double roundTripsPerRead = Double.NaN;
    String driver = "";

    Run(String label) {
      this.label = label;
    }

    /** Takes in one read's answer; value -1 when the row was missing. */
    void read(long value, int port, long tookNanos) {
      if (value < valueSeen) {
        backward++;
      }
      valueSeen = Math.max(valueSeen, value);
      byPort[port == PRIMARY_PORT ? 0 : port == REPLICA_PORTS.get(0) ? 1 : 2]++;
      if (reads == nanos.length) {
        nanos = Arrays.copyOf(nanos, Math.max(64, reads * 2));
      }
      nanos[reads++] = tookNanos;
    }

    int onPort(int port) {
      return byPort[port == PRIMARY_PORT ? 0 : port == REPLICA_PORTS.get(0) ? 1 : 2];
    }

    double percentileMs(double p) {
      long[] sorted = Arrays.copyOf(nanos, reads);
      Arrays.sort(sorted);
      return sorted.length == 0 ? Double.NaN
          : sorted[Math.max(0, (int) Math.ceil(p / 100 * sorted.length) - 1)] / 1e6;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT,
          "%s: %d reads, %d backward; primary %d, replica1 (blocked) %d, replica2 %d; replica share %.1f %%;"
              + " %.2f round trips per read; read p50 %.2f ms, p99 %.2f ms",
          label, reads, backward, byPort[0], byPort[1], byPort[2], 100.0 * (byPort[1] + byPort[2]) / Math.max(1, reads),
          roundTripsPerRead, percentileMs(50), percentileMs(99)) + driver;
    }

    /** The driver's own counters over the run, for the log only (the assertions use the servers' answers). */
    void driverSaid(MetricsSnapshot before, Connection c) throws SQLException {
      MetricsSnapshot m = c.unwrap(RyowConnection.class).clusterMetrics();
      driver = " [" + DriverCounts.between(before, m) + "]";
    }
  }

  /** Reads the row {@link #READS} times, taking the pool's four connections in turn. */
  private Run pooledReader(String url, String label) throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(POOL);
    config.setMinimumIdle(POOL);
    Run run = new Run(label);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      MetricsSnapshot driverBefore = metrics(pool);
      ServerWork before = ServerWork.now();
      Connection[] taken = new Connection[POOL];
      for (int round = 0; round < READS / POOL; round++) {
        for (int i = 0; i < POOL; i++) {
          taken[i] = pool.getConnection();
        }
        try {
          for (Connection c : taken) {
            read(c, run);
          }
        } finally {
          for (Connection c : taken) {
            c.close();
          }
        }
      }
      run.roundTripsPerRead = ServerWork.now().minus(before) / (double) run.reads;
      try (Connection c = pool.getConnection()) {
        run.driverSaid(driverBefore, c);
      }
    }
    System.out.println("MonotonicReadsIT " + run);
    return run;
  }

  private static MetricsSnapshot metrics(HikariDataSource pool) throws SQLException {
    try (Connection c = pool.getConnection()) {
      return c.unwrap(RyowConnection.class).clusterMetrics();
    }
  }

  static void read(Connection c, Run run) throws SQLException {
    long t0 = System.nanoTime();
    try (PreparedStatement ps = c.prepareStatement(READ);
        ResultSet rs = ps.executeQuery()) {
      assertThat(rs.next()).isTrue();
      long value = rs.getLong(1);
      if (rs.wasNull()) {
        value = -1;
      }
      run.read(value, rs.getInt(2), System.nanoTime() - t0);
    }
  }

  /**
   * What the servers executed for the reader: the reads, the waits, the on-demand position reads and
   * GTID checks, summed over the three servers (performance_schema digests; the poller's statement is
   * a different one).
   */
  record ServerWork(long statements) {
    static ServerWork now() throws SQLException {
      long n = 0;
      for (int port : List.of(PRIMARY_PORT, REPLICA_PORTS.get(0), REPLICA_PORTS.get(1))) {
        n += Topology.statementsLike(port, "FROM `" + TABLE + "` WHERE `id`");
        n += Topology.statementsLike(port, "WAIT_FOR_EXECUTED_GTID_SET");
        n += Topology.statementsLike(port, "SELECT @@GLOBAL . `gtid_owned` , @@GLOBAL . `gtid_executed`");
        n += Topology.statementsLike(port, "GTID_SUBSET");
      }
      return new ServerWork(n);
    }

    long minus(ServerWork before) {
      return statements - before.statements;
    }
  }

  // ---------------------------------------------------------------- two processes

  /** The first process's reads and token, and the second's reads with that token. */
  record Handoff(Run first, String token, Run second) {}

  private Handoff acrossProcesses(String url) throws Exception {
    Process p = ChildJvm.start(System.getProperty("java.class.path"), MonotonicReaderMain.class, url, "200");
    List<String> lines = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = out.readLine()) != null; ) {
        lines.add(line);
      }
    }
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("reader process output: %s", lines).isZero();
    String[] counts = lines.get(lines.size() - 2).split(" ");
    Run first = new Run("first process");
    first.reads = Integer.parseInt(counts[0]);
    first.backward = Integer.parseInt(counts[1]);
    first.valueSeen = Long.parseLong(counts[2]);
    String token = lines.get(lines.size() - 1);
    // This JVM continues where the other left off: the reads must not show less than it saw.
    Run second = new Run("second process");
    second.valueSeen = first.valueSeen;
    try (ConsistencyScope scope = ConsistencyScope.open(token, TokenCodec.DEFAULT)) {
      pooledReads(url + "&ryow.clusterName=second-" + System.nanoTime(), second, 200);
      assertThat(scope.token(TokenCodec.DEFAULT)).isNotNull();
    }
    System.out.println("MonotonicReadsIT across processes (" + url.substring(url.indexOf('?')) + "): " + first.reads
        + " reads, " + first.backward + " backward, then " + second);
    return new Handoff(first, token, second);
  }

  private static void pooledReads(String url, Run run, int reads) throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(POOL);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      MetricsSnapshot driverBefore = metrics(pool);
      ServerWork before = ServerWork.now();
      Connection[] taken = new Connection[POOL];
      for (int round = 0; round < reads / POOL; round++) {
        for (int i = 0; i < POOL; i++) {
          taken[i] = pool.getConnection();
        }
        try {
          for (Connection c : taken) {
            read(c, run);
          }
        } finally {
          for (Connection c : taken) {
            c.close();
          }
        }
      }
      run.roundTripsPerRead = ServerWork.now().minus(before) / (double) run.reads;
      try (Connection c = pool.getConnection()) {
        run.driverSaid(driverBefore, c);
      }
    }
  }
}
