package dev.ryow.bench;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One point select round trip through raw Connector/J and through {@code jdbc:ryow:}, against the
 * sandbox ({@code RYOW_SANDBOX_URL}), side by side in one JMH run. The methods come in pairs named
 * {@code <case>_raw} and {@code <case>_ryow…}; the suite reports their ratio.
 *
 * <ul>
 *   <li>{@code primaryPrepared}/{@code primaryStatement}: the select carries {@code /* ryow:primary *}{@code /},
 *       so both run it on the primary; prepared once, or a plain {@code Statement} (classified on
 *       every execution).
 *   <li>{@code replicaEmptyWatermark}/{@code replicaKnownWatermark}: a prepared point select on the
 *       same replica; through ryow a read that needs no wait: the connection's watermark is empty, or
 *       known to be on that replica (it wrote once and waited once in setup).
 * </ul>
 *
 * <p>Each case is a JMH {@code @Group}: its raw and ryow methods run at the same time, one thread each,
 * against the same server, so both see the same noise of a shared machine; SampleTime mode gives
 * each method's p50, which is robust against that noise's long tail. The absolute figures are those
 * of two concurrent clients; the ratio is the result.
 *
 * <p>Both sides use the same Connector/J settings (the URL's, plus the GTID tracking ryow's primary
 * connection has, {@link #PRIMARY_TRACKING}, and the multi-statements its replica connections allow,
 * {@link #REPLICA_MULTI_QUERIES}). Three forks give the per-iteration ratios an interval. On
 * a busy machine the two threads of a group do not get the CPUs alike, so one iteration's ratio can
 * fall below 1 (a result of 0.786x "ryow over raw" was such noise: a wrapper cannot be faster than
 * what it wraps); the wrapper's own cost is measured where it can be resolved, in
 * {@link WrapperOverheadBenchmark}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
public class RoundTripBenchmark {
  static final String TABLE = "bench_point";
  static final String PRIMARY_SELECT = "/* ryow:primary */ SELECT v FROM " + TABLE + " WHERE id = ?";
  static final String PRIMARY_SELECT_LITERAL = "/* ryow:primary */ SELECT v FROM " + TABLE + " WHERE id = 1";
  static final String REPLICA_SELECT = "SELECT v FROM " + TABLE + " WHERE id = ?";

  /**
   * Connector/J settings both sides use, so that only the wrapper differs: ryow's primary connection
   * tracks its GTIDs ({@code server.ConnectorJ}), so the raw primary connection does too (the server
   * then appends the GTID session-state to each OK packet, and Connector/J parses it, on both sides).
   */
  static final String PRIMARY_TRACKING = "trackSessionState=true&sessionVariables=session_track_gtids=OWN_GTID";

  /**
   * Connector/J settings both replica sides use: ryow opens its replica connections with multi-statements
   * allowed (its pipelined wait, {@code server.PipelinedWait}), so the raw replica connection has them too.
   */
  static final String REPLICA_MULTI_QUERIES = "allowMultiQueries=true";

  /** The raw replica URL: the sandbox's parameters and the multi-statement setting ryow's replica connections have. */
  static String rawReplicaUrl(Topology t) {
    return t.mysqlUrl(t.replicas().get(0)) + "&" + REPLICA_MULTI_QUERIES;
  }

  /** The raw primary URL: the sandbox's parameters and the GTID tracking ryow's primary connection has. */
  static String rawPrimaryUrl(Topology t) {
    return t.mysqlUrl(t.primary()) + "&" + PRIMARY_TRACKING;
  }

  /** The ryow URL with the same pass-through Connector/J parameters as the raw URLs. */
  static String ryowUrl(Topology t) {
    return t.ryowUrl("allowPublicKeyRetrieval=true");
  }

  static Topology fixture() throws SQLException {
    Topology t = Topology.fromEnvironment();
    Topology.exec(t.mysqlUrl(t.primary()),
        "CREATE TABLE IF NOT EXISTS " + TABLE + " (id BIGINT PRIMARY KEY, v INT NOT NULL)",
        "INSERT IGNORE INTO " + TABLE + " (id, v) VALUES (1, 42), (2, 0)");
    t.awaitReplicasCaughtUp(30);
    return t;
  }

  static int read(PreparedStatement ps) throws SQLException {
    ps.setLong(1, 1L);
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  static int read(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** Raw Connector/J on the primary. */
  @State(Scope.Thread)
  public static class RawPrimary {
    Connection connection;
    PreparedStatement prepared;
    Statement statement;

    /** Connects. */
    @Setup(Level.Trial)
    public void setUp() throws SQLException {
      Topology t = fixture();
      connection = DriverManager.getConnection(rawPrimaryUrl(t));
      prepared = connection.prepareStatement(PRIMARY_SELECT);
      statement = connection.createStatement();
    }

    /** Disconnects. */
    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
      connection.close();
    }
  }

  /** {@code jdbc:ryow:}, reads hinted to the primary. */
  @State(Scope.Thread)
  public static class RyowPrimary {
    Connection connection;
    PreparedStatement prepared;
    Statement statement;

    /** Connects and checks the route. */
    @Setup(Level.Trial)
    public void setUp() throws SQLException {
      Topology t = fixture();
      connection = DriverManager.getConnection(ryowUrl(t));
      prepared = connection.prepareStatement(PRIMARY_SELECT);
      statement = connection.createStatement();
      read(prepared);
      expect(connection, ServerRole.PRIMARY, t.primary());
    }

    /** Disconnects. */
    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
      connection.close();
    }
  }

  /** Raw Connector/J on the first replica. */
  @State(Scope.Thread)
  public static class RawReplica {
    Connection connection;
    PreparedStatement prepared;

    /** Connects. */
    @Setup(Level.Trial)
    public void setUp() throws SQLException {
      Topology t = fixture();
      connection = DriverManager.getConnection(rawReplicaUrl(t));
      prepared = connection.prepareStatement(REPLICA_SELECT);
    }

    /** Disconnects. */
    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
      connection.close();
    }
  }

  /** {@code jdbc:ryow:} reading from the first replica; with {@link #wrote}, after one write of its own. */
  abstract static class RyowReplica {
    Connection connection;
    PreparedStatement prepared;
    MetricsSnapshot before;

    abstract boolean wrote();

    /** Connects until a connection reads from the first replica (the one {@link RawReplica} uses). */
    @Setup(Level.Trial)
    public void setUp() throws SQLException {
      Topology t = fixture();
      String target = t.replicas().get(0);
      for (int attempt = 0; ; attempt++) {
        connection = DriverManager.getConnection(ryowUrl(t));
        if (wrote()) {
          try (Statement s = connection.createStatement()) {
            // A write that changes a row (a no-op UPDATE has no GTID), away from the row that is read.
            s.executeUpdate("UPDATE " + TABLE + " SET v = v + 1 WHERE id = 2");
          }
        }
        prepared = connection.prepareStatement(REPLICA_SELECT);
        read(prepared); // waits once if wrote(); from then on the watermark is known on this replica
        RyowConnection ryow = connection.unwrap(RyowConnection.class);
        if (ryow.lastServerRole() == ServerRole.REPLICA && target.equals(ryow.lastServerAddress())) {
          break;
        }
        connection.close();
        if (attempt == 8) {
          throw new IllegalStateException("no jdbc:ryow: connection read from " + target + "; last read ran on "
              + ryow.lastServerRole() + " " + ryow.lastServerAddress());
        }
      }
      if (wrote() && connection.unwrap(RyowConnection.class).consistencyToken().isEmpty()) {
        throw new IllegalStateException("the write left no watermark");
      }
      before = connection.unwrap(RyowConnection.class).clusterMetrics();
    }

    /** Says what the driver did during the trial (waits should be 0), then disconnects. */
    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
      MetricsSnapshot after = connection.unwrap(RyowConnection.class).clusterMetrics();
      System.out.printf("%n[ryow metrics during trial] replicaReads=%d primaryReads=%d waits=%d waitsSkipped=%d%n",
          after.replicaReads() - before.replicaReads(), after.primaryReads() - before.primaryReads(),
          after.waits() - before.waits(), after.waitsSkipped() - before.waitsSkipped());
      connection.close();
    }
  }

  /** Empty watermark: the connection never wrote. */
  @State(Scope.Thread)
  public static class RyowReplicaEmpty extends RyowReplica {
    @Override
    boolean wrote() {
      return false;
    }
  }

  /** Known watermark: the connection wrote once, and its replica has been seen to have that write. */
  @State(Scope.Thread)
  public static class RyowReplicaKnown extends RyowReplica {
    @Override
    boolean wrote() {
      return true;
    }
  }

  static void expect(Connection c, ServerRole role, String address) throws SQLException {
    RyowConnection ryow = c.unwrap(RyowConnection.class);
    if (ryow.lastServerRole() != role || !address.equals(ryow.lastServerAddress())) {
      throw new IllegalStateException("expected the read on " + role + " " + address + ", it ran on "
          + ryow.lastServerRole() + " " + ryow.lastServerAddress());
    }
  }

  /** Primary point select, prepared once, raw Connector/J. */
  @Benchmark
  @Group("primaryPrepared")
  @GroupThreads(1)
  public int primaryPrepared_raw(RawPrimary s) throws SQLException {
    return read(s.prepared);
  }

  /** Primary point select, prepared once, through ryow. */
  @Benchmark
  @Group("primaryPrepared")
  @GroupThreads(1)
  public int primaryPrepared_ryow(RyowPrimary s) throws SQLException {
    return read(s.prepared);
  }

  /** Primary point select as a plain statement, raw Connector/J. */
  @Benchmark
  @Group("primaryStatement")
  @GroupThreads(1)
  public int primaryStatement_raw(RawPrimary s) throws SQLException {
    return read(s.statement, PRIMARY_SELECT_LITERAL);
  }

  /** Primary point select as a plain statement through ryow (classified on every call). */
  @Benchmark
  @Group("primaryStatement")
  @GroupThreads(1)
  public int primaryStatement_ryow(RyowPrimary s) throws SQLException {
    return read(s.statement, PRIMARY_SELECT_LITERAL);
  }

  /** Replica point select, raw Connector/J (beside the empty-watermark read). */
  @Benchmark
  @Group("replicaEmptyWatermark")
  @GroupThreads(1)
  public int replicaEmptyWatermark_raw(RawReplica s) throws SQLException {
    return read(s.prepared);
  }

  /** Replica point select through ryow, empty watermark (no wait). */
  @Benchmark
  @Group("replicaEmptyWatermark")
  @GroupThreads(1)
  public int replicaEmptyWatermark_ryow(RyowReplicaEmpty s) throws SQLException {
    return read(s.prepared);
  }

  /** Replica point select, raw Connector/J (beside the known-watermark read). */
  @Benchmark
  @Group("replicaKnownWatermark")
  @GroupThreads(1)
  public int replicaKnownWatermark_raw(RawReplica s) throws SQLException {
    return read(s.prepared);
  }

  /** Replica point select through ryow, watermark known on the replica (no wait). */
  @Benchmark
  @Group("replicaKnownWatermark")
  @GroupThreads(1)
  public int replicaKnownWatermark_ryow(RyowReplicaKnown s) throws SQLException {
    return read(s.prepared);
  }
}
