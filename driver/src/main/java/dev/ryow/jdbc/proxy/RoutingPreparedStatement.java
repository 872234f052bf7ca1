package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.session.Execution;
import dev.ryow.jdbc.session.ParameterRecorder;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.PipelinedWait;
import dev.ryow.jdbc.server.Sql;
import dev.ryow.jdbc.server.StatementTimeouts;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import org.jspecify.annotations.Nullable;

/**
 * A {@link PreparedStatement} classified once, when it is prepared. Parameters are recorded and
 * replayed onto the physical prepared statement of whichever server runs each execution (each
 * created once, on first use). Batches run on the primary. The parameter setters are generated
 * ({@link RecordedParameters}).
 */
final class RoutingPreparedStatement extends RoutingStatement implements RecordedParameters {
  private final String sql;
  /** Classified once; becomes {@link StatementKind#WRITE} when a replica refused it as a write. */
  private StatementKind kind;
  private final ParameterRecorder recorder = new ParameterRecorder();
  private @Nullable PreparedStatement onPrimary;
  private @Nullable PhysicalConnection primaryOwner;
  private @Nullable PreparedStatement onReplica;
  private @Nullable PhysicalConnection replicaOwner;
  /** The query with the replica wait before it ({@link PipelinedWait}), on {@link #pipelinedOwner}. */
  private @Nullable PreparedStatement pipelined;
  private @Nullable PhysicalConnection pipelinedOwner;

  private RoutingPreparedStatement(LogicalConnection connection, String sql, StatementShape shape, StatementKind kind)
      throws SQLException {
    super(connection, shape);
    this.sql = sql;
    this.kind = kind;
  }

  /**
   * Classifies {@code sql} through the cluster's {@link dev.ryow.jdbc.sql.ClassificationCache} (ORMs
   * prepare the same text for every execution). A statement that can only run on the primary is
   * prepared there at once, so syntax errors surface here as they would with Connector/J; unless the
   * primary connection must be replaced first (it broke, or the primary moved or was away): then it is
   * prepared when it first runs, which is when the connection looks for the primary.
   */
  static RoutingPreparedStatement prepare(LogicalConnection connection, String sql, StatementShape shape)
      throws SQLException {
    RoutingPreparedStatement ps = new RoutingPreparedStatement(
        connection, sql, shape, connection.session().cluster().classifications().classify(sql));
    if (ps.kind != StatementKind.READ && connection.session().primaryCurrent()) {
      ps.prepared(connection.primary());
    }
    return ps;
  }

  /** The physical prepared statement on {@code on}, created on first use; becomes {@link #current}. */
  private PreparedStatement prepared(PhysicalConnection on) throws SQLException {
    if (on == session.primary()) {
      PreparedStatement ps = onPrimary;
      if (ps == null || primaryOwner != on) {
        if (ps != null) {
          primaryChanged(ps);
        }
        ps = configure(session.settings().createIn(database, on, c -> shape.prepare(c, sql)));
        onPrimary = ps;
        primaryOwner = on;
      }
      current = ps;
      currentOn = on;
      return ps;
    }
    PreparedStatement ps = onReplica;
    if (ps == null || replicaOwner != on) {
      if (ps != null) {
        ps.close();
      }
      ps = configure(session.settings().createIn(database, on, c -> shape.prepare(c, sql)));
      onReplica = ps;
      replicaOwner = on;
    }
    current = ps;
    currentOn = on;
    return ps;
  }

  /**
   * Runs the query on {@code on} with the wait {@code x} carries in the same round trip: the wait's
   * result first (an update count), the query's after it. A wait that does not succeed fails the
   * packet before the query runs ({@link PipelinedWait}).
   */
  private ResultSet executePipelined(PhysicalConnection on, Execution x) throws SQLException {
    PreparedStatement ps = pipelined;
    if (ps == null || pipelinedOwner != on) {
      if (ps != null) {
        ps.close();
      }
      String text = PipelinedWait.PREFIX + sql;
      ps = configure(session.settings().createIn(database, on, c -> shape.prepare(c, text)));
      pipelined = ps;
      pipelinedOwner = on;
    }
    PipelinedWait.bind(ps, x);
    recorder.replay(ps, PipelinedWait.PARAMETERS);
    current = ps;
    currentOn = on;
    timed(ps, x.deadlineNanos()).execute();
    if (!ps.getMoreResults()) {
      throw new SQLException("The query produced no result set", "S1000");
    }
    return ps.getResultSet();
  }

  /**
   * What a pipelined query that failed with {@code e} throws when its caller ended it: Connector/J's
   * exception for a cancel requested during the execution, or for its query timeout once that expired,
   * whatever ended the packet on the server. A cancel's {@code KILL QUERY} may arrive after the wait gave
   * up on its own ({@link PipelinedWait#notReached}): the statement must not then fall back and run
   * elsewhere; and the server's 1317 may reach this thread before Connector/J marks its statement
   * cancelled. Any other failure is {@code e}.
   */
  private SQLException endedByCaller(SQLException e, long deadline) {
    if (!PipelinedWait.notReached(e) && !Sql.isCancellation(e)) {
      return e;
    }
    SQLException ended;
    if (cancelRequested) {
      ended = StatementTimeouts.cancelled();
    } else if (deadline != 0 && System.nanoTime() - deadline >= 0) {
      ended = StatementTimeouts.timedOut();
    } else {
      return e;
    }
    ended.initCause(e);
    return ended;
  }

  /** The physical statement for one execution, with the recorded parameters set. */
  private PreparedStatement ready(PhysicalConnection on) throws SQLException {
    PreparedStatement ps = prepared(on);
    recorder.replay(ps);
    return ps;
  }

  /** Where the execution {@code x} that failed with {@code e} runs again (or rethrows {@code e}). */
  private PhysicalConnection retry(Execution x, SQLException e) throws SQLException {
    PhysicalConnection again = session.retry(x, e);
    if (x.ranAsWrite()) {
      kind = StatementKind.WRITE;
    }
    return again;
  }

  /** Bookkeeping after {@code x} ran; a session {@code SET}/{@code USE} on the primary is recorded for the replicas. */
  private void done(Execution x) throws SQLException {
    session.done(x);
    if ((kind == StatementKind.SET_SESSION || kind == StatementKind.USE) && x.on() == session.primary()) {
      session.settings().statement(kind, sql, recorder);
    }
  }

  @Override
  void forEachPhysical(PhysicalAction action) throws SQLException {
    PreparedStatement p = onPrimary;
    if (p != null) {
      action.apply(p);
    }
    PreparedStatement r = onReplica;
    if (r != null) {
      action.apply(r);
    }
    PreparedStatement w = pipelined;
    if (w != null) {
      action.apply(w);
    }
  }

  // ---------------------------------------------------------------- execution

  @Override
  public ResultSet executeQuery() throws SQLException {
    checkOpen();
    cancelRequested = false;
    Execution x = execution.of(kind, sql, deadline(), true);
    PhysicalConnection on = session.begin(x);
    boolean pipelinedWait = x.pipelined();
    ResultSet rs;
    try {
      rs = pipelinedWait ? executePipelined(on, x) : timed(ready(on), x.deadlineNanos()).executeQuery();
    } catch (SQLException e) {
      on = retry(x, pipelinedWait ? endedByCaller(e, x.deadlineNanos()) : e);
      rs = timed(ready(on), x.deadlineNanos()).executeQuery();
    }
    done(x);
    return wrap(rs);
  }

  @Override
  public boolean execute() throws SQLException {
    checkOpen();
    Execution x = execution.of(kind, sql, deadline(), false);
    PhysicalConnection on = session.begin(x);
    boolean result;
    try {
      result = timed(ready(on), x.deadlineNanos()).execute();
    } catch (SQLException e) {
      on = retry(x, e);
      result = timed(ready(on), x.deadlineNanos()).execute();
    }
    done(x);
    return result;
  }

  @Override
  public int executeUpdate() throws SQLException {
    return (int) executeLargeUpdate();
  }

  @Override
  public long executeLargeUpdate() throws SQLException {
    checkOpen();
    Execution x = execution.of(kind, sql, deadline(), false);
    PhysicalConnection on = session.begin(x);
    long result;
    try {
      result = timed(ready(on), x.deadlineNanos()).executeLargeUpdate();
    } catch (SQLException e) {
      on = retry(x, e);
      result = timed(ready(on), x.deadlineNanos()).executeLargeUpdate();
    }
    done(x);
    return result;
  }

  @Override
  public void addBatch() throws SQLException {
    checkOpen();
    ready(session.primaryForCall()).addBatch();
    batchPending = true;
  }

  @Override
  public void clearBatch() throws SQLException {
    checkOpen();
    PreparedStatement p = onPrimary;
    batchPending = false;
    if (p != null) {
      p.clearBatch();
    }
  }

  @Override
  public int[] executeBatch() throws SQLException {
    checkOpen();
    PreparedStatement ps = prepared(session.begin(batch()));
    batchPending = false;
    int[] counts = ps.executeBatch();
    session.done(execution);
    return counts;
  }

  @Override
  public long[] executeLargeBatch() throws SQLException {
    checkOpen();
    PreparedStatement ps = prepared(session.begin(batch()));
    batchPending = false;
    long[] counts = ps.executeLargeBatch();
    session.done(execution);
    return counts;
  }

  @Override
  public void clearParameters() throws SQLException {
    checkOpen();
    recorder.clear();
    forEachPhysical(s -> ((PreparedStatement) s).clearParameters());
  }

  @Override
  public @Nullable ResultSetMetaData getMetaData() throws SQLException {
    checkOpen();
    PreparedStatement ps = onReplica != null ? onReplica : prepared(session.primaryForCall());
    return ps.getMetaData();
  }

  @Override
  public ParameterMetaData getParameterMetaData() throws SQLException {
    checkOpen();
    PreparedStatement ps = onReplica != null ? onReplica : prepared(session.primaryForCall());
    return ps.getParameterMetaData();
  }

  // ---------------------------------------------------------------- Statement methods a PreparedStatement refuses

  private static SQLException notOnPrepared() {
    return new SQLException("This method cannot be called on a PreparedStatement", "S1009");
  }

  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    throw notOnPrepared();
  }

  @Override
  public boolean execute(String sql) throws SQLException {
    throw notOnPrepared();
  }

  @Override
  public int executeUpdate(String sql) throws SQLException {
    throw notOnPrepared();
  }

  @Override
  public void addBatch(String sql) throws SQLException {
    throw notOnPrepared();
  }

  // ---------------------------------------------------------------- lifecycle and wrapper

  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    PreparedStatement p = onPrimary;
    PreparedStatement r = onReplica;
    PreparedStatement w = pipelined;
    onPrimary = null;
    onReplica = null;
    pipelined = null;
    recorder.clear();
    try {
      if (w != null) {
        w.close();
      }
      if (r != null) {
        r.close();
      }
    } finally {
      if (p != null) {
        p.close();
      }
      super.close();
    }
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    Statement s = current != null ? current : prepared(session.primary());
    return s.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return true;
    }
    Statement s = current != null ? current : prepared(session.primary());
    return s.isWrapperFor(iface);
  }

  @Override
  public String toString() {
    return "RoutingPreparedStatement[" + kind + ": " + sql + "]";
  }

  // ---------------------------------------------------------------- parameters (recorded: RecordedParameters)

  @Override
  public ParameterRecorder openRecorder() throws SQLException {
    checkOpen();
    return recorder;
  }
}
