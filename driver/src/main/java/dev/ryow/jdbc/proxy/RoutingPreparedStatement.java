package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.session.Execution;
import dev.ryow.jdbc.session.ParameterRecorder;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.PipelinedWait;
import dev.ryow.jdbc.server.Sql;
import dev.ryow.jdbc.server.StatementTimeouts;
import dev.ryow.jdbc.sql.StatementKind;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import org.jspecify.annotations.Nullable;

/**
 * A {@link PreparedStatement} classified once, when it is prepared. Parameters are recorded and
 * replayed onto the physical prepared statement of whichever server runs each execution (each
 * created once, on first use). Batches run on the primary.
 */
final class RoutingPreparedStatement extends RoutingStatement implements PreparedStatement {
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
   * prepared there at once, so syntax errors surface here as they would with Connector/J.
   */
  static RoutingPreparedStatement prepare(LogicalConnection connection, String sql, StatementShape shape)
      throws SQLException {
    RoutingPreparedStatement ps = new RoutingPreparedStatement(
        connection, sql, shape, connection.session().cluster().classifications().classify(sql));
    if (ps.kind != StatementKind.READ) {
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
    ready(session.primary()).addBatch();
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
    PreparedStatement ps = onReplica != null ? onReplica : prepared(session.primary());
    return ps.getMetaData();
  }

  @Override
  public ParameterMetaData getParameterMetaData() throws SQLException {
    checkOpen();
    PreparedStatement ps = onReplica != null ? onReplica : prepared(session.primary());
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

  // ---------------------------------------------------------------- parameters (recorded)

  @Override
  public void setNull(int parameterIndex, int sqlType) throws SQLException {
    checkOpen();
    recorder.setNull(parameterIndex, sqlType);
  }

  @Override
  public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
    checkOpen();
    recorder.setNull(parameterIndex, sqlType, typeName);
  }

  @Override
  public void setBoolean(int parameterIndex, boolean x) throws SQLException {
    checkOpen();
    recorder.setBoolean(parameterIndex, x);
  }

  @Override
  public void setByte(int parameterIndex, byte x) throws SQLException {
    checkOpen();
    recorder.setByte(parameterIndex, x);
  }

  @Override
  public void setShort(int parameterIndex, short x) throws SQLException {
    checkOpen();
    recorder.setShort(parameterIndex, x);
  }

  @Override
  public void setInt(int parameterIndex, int x) throws SQLException {
    checkOpen();
    recorder.setInt(parameterIndex, x);
  }

  @Override
  public void setLong(int parameterIndex, long x) throws SQLException {
    checkOpen();
    recorder.setLong(parameterIndex, x);
  }

  @Override
  public void setFloat(int parameterIndex, float x) throws SQLException {
    checkOpen();
    recorder.setFloat(parameterIndex, x);
  }

  @Override
  public void setDouble(int parameterIndex, double x) throws SQLException {
    checkOpen();
    recorder.setDouble(parameterIndex, x);
  }

  @Override
  public void setBigDecimal(int parameterIndex, @Nullable BigDecimal x) throws SQLException {
    checkOpen();
    recorder.setBigDecimal(parameterIndex, x);
  }

  @Override
  public void setString(int parameterIndex, @Nullable String x) throws SQLException {
    checkOpen();
    recorder.setString(parameterIndex, x);
  }

  @Override
  public void setNString(int parameterIndex, @Nullable String value) throws SQLException {
    checkOpen();
    recorder.setNString(parameterIndex, value);
  }

  @Override
  public void setBytes(int parameterIndex, byte @Nullable [] x) throws SQLException {
    checkOpen();
    recorder.setBytes(parameterIndex, x);
  }

  @Override
  public void setDate(int parameterIndex, @Nullable Date x) throws SQLException {
    checkOpen();
    recorder.setDate(parameterIndex, x, null);
  }

  @Override
  public void setDate(int parameterIndex, @Nullable Date x, @Nullable Calendar cal) throws SQLException {
    checkOpen();
    recorder.setDate(parameterIndex, x, cal);
  }

  @Override
  public void setTime(int parameterIndex, @Nullable Time x) throws SQLException {
    checkOpen();
    recorder.setTime(parameterIndex, x, null);
  }

  @Override
  public void setTime(int parameterIndex, @Nullable Time x, @Nullable Calendar cal) throws SQLException {
    checkOpen();
    recorder.setTime(parameterIndex, x, cal);
  }

  @Override
  public void setTimestamp(int parameterIndex, @Nullable Timestamp x) throws SQLException {
    checkOpen();
    recorder.setTimestamp(parameterIndex, x, null);
  }

  @Override
  public void setTimestamp(int parameterIndex, @Nullable Timestamp x, @Nullable Calendar cal) throws SQLException {
    checkOpen();
    recorder.setTimestamp(parameterIndex, x, cal);
  }

  @Override
  public void setObject(int parameterIndex, @Nullable Object x) throws SQLException {
    checkOpen();
    recorder.setObject(parameterIndex, x);
  }

  @Override
  public void setObject(int parameterIndex, @Nullable Object x, int targetSqlType) throws SQLException {
    checkOpen();
    recorder.setObject(parameterIndex, x, targetSqlType);
  }

  @Override
  public void setObject(int parameterIndex, @Nullable Object x, int targetSqlType, int scaleOrLength) throws SQLException {
    checkOpen();
    recorder.setObject(parameterIndex, x, targetSqlType, scaleOrLength);
  }

  @Override
  public void setObject(int parameterIndex, @Nullable Object x, SQLType targetSqlType) throws SQLException {
    checkOpen();
    recorder.setObject(parameterIndex, x, targetSqlType);
  }

  @Override
  public void setObject(int parameterIndex, @Nullable Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
    checkOpen();
    recorder.setObject(parameterIndex, x, targetSqlType, scaleOrLength);
  }

  @Override
  public void setAsciiStream(int parameterIndex, @Nullable InputStream x, int length) throws SQLException {
    checkOpen();
    recorder.setAsciiStream(parameterIndex, x, length);
  }

  @Override
  public void setAsciiStream(int parameterIndex, @Nullable InputStream x, long length) throws SQLException {
    checkOpen();
    recorder.setAsciiStream(parameterIndex, x, length);
  }

  @Override
  public void setAsciiStream(int parameterIndex, @Nullable InputStream x) throws SQLException {
    checkOpen();
    recorder.setAsciiStream(parameterIndex, x, -1);
  }

  @Override
  public void setBinaryStream(int parameterIndex, @Nullable InputStream x, int length) throws SQLException {
    checkOpen();
    recorder.setBinaryStream(parameterIndex, x, length);
  }

  @Override
  public void setBinaryStream(int parameterIndex, @Nullable InputStream x, long length) throws SQLException {
    checkOpen();
    recorder.setBinaryStream(parameterIndex, x, length);
  }

  @Override
  public void setBinaryStream(int parameterIndex, @Nullable InputStream x) throws SQLException {
    checkOpen();
    recorder.setBinaryStream(parameterIndex, x, -1);
  }

  @Override
  public void setCharacterStream(int parameterIndex, @Nullable Reader reader, int length) throws SQLException {
    checkOpen();
    recorder.setCharacterStream(parameterIndex, reader, length);
  }

  @Override
  public void setCharacterStream(int parameterIndex, @Nullable Reader reader, long length) throws SQLException {
    checkOpen();
    recorder.setCharacterStream(parameterIndex, reader, length);
  }

  @Override
  public void setCharacterStream(int parameterIndex, @Nullable Reader reader) throws SQLException {
    checkOpen();
    recorder.setCharacterStream(parameterIndex, reader, -1);
  }

  @Override
  public void setNCharacterStream(int parameterIndex, @Nullable Reader value, long length) throws SQLException {
    checkOpen();
    recorder.setNCharacterStream(parameterIndex, value, length);
  }

  @Override
  public void setNCharacterStream(int parameterIndex, @Nullable Reader value) throws SQLException {
    checkOpen();
    recorder.setNCharacterStream(parameterIndex, value, -1);
  }

  @Override
  public void setBlob(int parameterIndex, @Nullable Blob x) throws SQLException {
    checkOpen();
    recorder.setBlob(parameterIndex, x);
  }

  @Override
  public void setBlob(int parameterIndex, @Nullable InputStream inputStream, long length) throws SQLException {
    checkOpen();
    recorder.setBlob(parameterIndex, inputStream, length);
  }

  @Override
  public void setBlob(int parameterIndex, @Nullable InputStream inputStream) throws SQLException {
    checkOpen();
    recorder.setBlob(parameterIndex, inputStream, -1);
  }

  @Override
  public void setClob(int parameterIndex, @Nullable Clob x) throws SQLException {
    checkOpen();
    recorder.setClob(parameterIndex, x);
  }

  @Override
  public void setClob(int parameterIndex, @Nullable Reader reader, long length) throws SQLException {
    checkOpen();
    recorder.setClob(parameterIndex, reader, length);
  }

  @Override
  public void setClob(int parameterIndex, @Nullable Reader reader) throws SQLException {
    checkOpen();
    recorder.setClob(parameterIndex, reader, -1);
  }

  @Override
  public void setNClob(int parameterIndex, @Nullable NClob value) throws SQLException {
    checkOpen();
    recorder.setNClob(parameterIndex, value);
  }

  @Override
  public void setNClob(int parameterIndex, @Nullable Reader reader, long length) throws SQLException {
    checkOpen();
    recorder.setNClob(parameterIndex, reader, length);
  }

  @Override
  public void setNClob(int parameterIndex, @Nullable Reader reader) throws SQLException {
    checkOpen();
    recorder.setNClob(parameterIndex, reader, -1);
  }

  @Override
  public void setRef(int parameterIndex, @Nullable Ref x) throws SQLException {
    checkOpen();
    recorder.setRef(parameterIndex, x);
  }

  @Override
  public void setArray(int parameterIndex, @Nullable Array x) throws SQLException {
    checkOpen();
    recorder.setArray(parameterIndex, x);
  }

  @Override
  public void setURL(int parameterIndex, @Nullable URL x) throws SQLException {
    checkOpen();
    recorder.setURL(parameterIndex, x);
  }

  @Override
  public void setRowId(int parameterIndex, @Nullable RowId x) throws SQLException {
    checkOpen();
    recorder.setRowId(parameterIndex, x);
  }

  @Override
  public void setSQLXML(int parameterIndex, @Nullable SQLXML xmlObject) throws SQLException {
    checkOpen();
    recorder.setSQLXML(parameterIndex, xmlObject);
  }

  @Override
  @Deprecated
  public void setUnicodeStream(int parameterIndex, @Nullable InputStream x, int length) throws SQLException {
    checkOpen();
    recorder.setUnicodeStream(parameterIndex, x, length);
  }
}
