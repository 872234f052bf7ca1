package dev.ryow.bench;

import dev.ryow.bench.stub.StubCluster;
import dev.ryow.bench.stub.StubDriver;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the wrapper itself costs per JDBC call, where nanoseconds can be resolved: the same calls on
 * a stub physical connection ({@link StubDriver}: in-process, no network, answers at once) directly
 * ({@code raw}) and through a {@code jdbc:ryow:} logical connection over those stub connections
 * ({@code ryow}, the driver's defaults). ns/op, and B/op with {@code -prof gc}; the suite reports
 * ryow minus raw per case.
 *
 * <ul>
 *   <li>{@code statementQuery}: a plain {@code Statement} runs a primary-hinted point select (classified
 *       through the cluster's cache), reads one row, closes the result set.
 *   <li>{@code preparedPrimaryQuery}: the same through a prepared statement, prepared once.
 *   <li>{@code preparedReplicaQuery}: a prepared point select a replica serves (ryow: no wait needed).
 *   <li>{@code preparedUpdate}: a prepared insert on the primary, which reports a new GTID in its OK
 *       packet each time (ryow parses it into the watermark).
 *   <li>{@code statementUpdate}: a plain {@code Statement} update on the primary (a new GTID each time).
 *   <li>{@code next}: per row of a {@value StubDriver#MANY_ROWS}-row result set ({@code next()} and
 *       {@code getInt}), the query's own cost spread over its rows.
 *   <li>{@code prepareExecuteClose}: what an ORM does per query: prepare the same text, bind, execute,
 *       read, close (ryow classifies at prepare, through the cache).
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Thread)
public class WrapperOverheadBenchmark {
  static final String PRIMARY_SELECT = "/* ryow:primary */ SELECT v FROM bench_point WHERE id = 1";
  static final String PRIMARY_SELECT_PARAM = "/* ryow:primary */ SELECT v FROM bench_point WHERE id = ?";
  static final String REPLICA_SELECT = "SELECT v FROM bench_point WHERE id = ?";
  static final String INSERT = "INSERT INTO bench_point (id, v) VALUES (?, ?)";
  static final String UPDATE = "UPDATE bench_point SET v = v + 1 WHERE id = 1";
  static final String MANY = "/* ryow:primary */ SELECT v FROM stub_rows";

  /** {@code raw}: the stub connections directly; {@code ryow}: through the wrapper. */
  @Param({"raw", "ryow"})
  public String side;

  private StubCluster stub;
  private Connection primary;
  private Connection replica;
  private Statement statement;
  private PreparedStatement primaryQuery;
  private PreparedStatement replicaQuery;
  private PreparedStatement insert;
  private Statement updates;
  private long id;

  /** Opens the connections and statements of {@link #side}. */
  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    stub = new StubCluster();
    if (side.equals("raw")) {
      primary = stub.raw(true);
      replica = stub.raw(false);
    } else {
      primary = stub.ryow();
      replica = stub.ryow();
    }
    statement = primary.createStatement();
    primaryQuery = primary.prepareStatement(PRIMARY_SELECT_PARAM);
    replicaQuery = replica.prepareStatement(REPLICA_SELECT);
    insert = primary.prepareStatement(INSERT);
    updates = primary.createStatement();
  }

  /** Closes them. */
  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    primary.close();
    replica.close();
  }

  private static int one(ResultSet rs) throws SQLException {
    try (rs) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** Plain statement, primary point select. */
  @Benchmark
  public int statementQuery() throws SQLException {
    return one(statement.executeQuery(PRIMARY_SELECT));
  }

  /** Prepared once, primary point select. */
  @Benchmark
  public int preparedPrimaryQuery() throws SQLException {
    primaryQuery.setLong(1, 1L);
    return one(primaryQuery.executeQuery());
  }

  /** Prepared once, replica point select (ryow: the watermark needs no wait). */
  @Benchmark
  public int preparedReplicaQuery() throws SQLException {
    replicaQuery.setLong(1, 1L);
    return one(replicaQuery.executeQuery());
  }

  /** Prepared once, insert on the primary (a new GTID each time). */
  @Benchmark
  public int preparedUpdate() throws SQLException {
    insert.setLong(1, ++id);
    insert.setInt(2, 7);
    return insert.executeUpdate();
  }

  /** Plain statement, update on the primary (a new GTID each time). */
  @Benchmark
  public int statementUpdate() throws SQLException {
    return updates.executeUpdate(UPDATE);
  }

  /** Per row: {@code next()} and {@code getInt} over a {@value StubDriver#MANY_ROWS}-row result set. */
  @Benchmark
  @OperationsPerInvocation(StubDriver.MANY_ROWS)
  public long next() throws SQLException {
    long sum = 0;
    try (ResultSet rs = statement.executeQuery(MANY)) {
      while (rs.next()) {
        sum += rs.getInt(1);
      }
    }
    return sum;
  }

  /** Prepare the same text, bind, execute, read, close: an ORM's query. */
  @Benchmark
  public int prepareExecuteClose() throws SQLException {
    try (PreparedStatement ps = primary.prepareStatement(PRIMARY_SELECT_PARAM)) {
      ps.setLong(1, 1L);
      return one(ps.executeQuery());
    }
  }
}
