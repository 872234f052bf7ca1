package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.session.Execution;
import dev.ryow.jdbc.session.Session;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.StatementTimeouts;
import dev.ryow.jdbc.sql.ClassificationCache;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Statement} that classifies each SQL string, lets the logical connection pick the server,
 * and runs it on a physical statement of that server. Settings (max rows, fetch size, timeouts...)
 * are recorded and applied to every physical statement it creates. Batches run on the primary. The
 * executions of an SQL string are generated ({@link RoutedExecutions}) around the hooks here.
 */
class RoutingStatement extends RoutedExecutions {
  final LogicalConnection connection;
  final Session session;
  final StatementShape shape;
  private final ClassificationCache classifications;
  /** The database the connection was in when this statement was created: Connector/J runs it there. */
  final @Nullable String database;

  private @Nullable Statement onPrimary;
  private @Nullable PhysicalConnection primaryOwner;
  /** addBatch was called since the last executeBatch/clearBatch: the entries live on {@link #onPrimary}. */
  boolean batchPending;
  private @Nullable Statement onReplica;
  private @Nullable PhysicalConnection replicaOwner;
  /** The physical statement that ran last: results, update counts and warnings come from it. */
  @Nullable Statement current;
  /** The physical connection {@link #current} belongs to. */
  @Nullable PhysicalConnection currentOn;
  /** {@link #cancel()} was called since the current execution started (cleared by the executions that read it). */
  volatile boolean cancelRequested;
  boolean closed;
  private final ResultSetWrappers results;
  /** Every execution of this statement, handed to the session: begin, retry, done. */
  final Execution execution = new Execution(this);

  private int maxRows;
  private long largeMaxRows = -1;
  private int fetchSize;
  private int fetchDirection = ResultSet.FETCH_FORWARD;
  private int queryTimeout;
  private int maxFieldSize;
  private boolean escapeProcessing = true;
  private boolean poolable;
  private boolean closeOnCompletion;
  private @Nullable String cursorName;

  RoutingStatement(LogicalConnection connection, StatementShape shape) throws SQLException {
    this.connection = connection;
    this.session = connection.session();
    this.shape = shape;
    this.classifications = session.cluster().classifications();
    this.database = session.settings().currentDatabase();
    this.results = new ResultSetWrappers(this, connection);
  }

  // ---------------------------------------------------------------- physical statements

  /** The physical statement on {@code on}, created and configured on first use. */
  private Statement physical(PhysicalConnection on) throws SQLException {
    if (on == session.primary()) {
      Statement s = onPrimary;
      if (s == null || primaryOwner != on) {
        if (s != null) {
          primaryChanged(s);
        }
        s = configure(session.settings().createIn(database, on, shape::createStatement));
        onPrimary = s;
        primaryOwner = on;
      }
      currentOn = on;
      current = s;
      return s;
    }
    Statement s = onReplica;
    if (s == null || replicaOwner != on) {
      if (s != null) {
        closeQuietly(s);
      }
      s = configure(session.settings().createIn(database, on, shape::createStatement));
      onReplica = s;
      replicaOwner = on;
    }
    currentOn = on;
    current = s;
    return s;
  }

  /**
   * The logical connection moved to a new physical primary connection (reconnect or failover): the
   * old physical statement is dropped; a batch built on it is lost, which is reported, not hidden.
   */
  final void primaryChanged(Statement old) throws SQLException {
    try {
      old.close();
    } catch (SQLException ignored) {
      // The old connection is gone; nothing to release.
    }
    if (batchPending) {
      batchPending = false;
      throw new java.sql.SQLRecoverableException(
          "The connection to the primary was re-established (reconnect or failover) after addBatch: the batch"
              + " entries were lost with the old connection; add them again.",
          "08003");
    }
  }

  private static void closeQuietly(Statement s) {
    try {
      s.close();
    } catch (SQLException ignored) {
      // Its connection may be gone (a replica that failed); nothing left to release.
    }
  }

  /** Applies the recorded settings to a new physical statement. */
  final <S extends Statement> S configure(S s) throws SQLException {
    if (largeMaxRows >= 0) {
      s.setLargeMaxRows(largeMaxRows);
    } else if (maxRows != 0) {
      s.setMaxRows(maxRows);
    }
    if (fetchSize != 0) {
      s.setFetchSize(fetchSize);
    }
    if (fetchDirection != ResultSet.FETCH_FORWARD) {
      s.setFetchDirection(fetchDirection);
    }
    if (queryTimeout != 0) {
      s.setQueryTimeout(queryTimeout);
    }
    if (maxFieldSize != 0) {
      s.setMaxFieldSize(maxFieldSize);
    }
    if (!escapeProcessing) {
      s.setEscapeProcessing(false);
    }
    if (poolable) {
      s.setPoolable(true);
    }
    if (closeOnCompletion) {
      s.closeOnCompletion();
    }
    if (cursorName != null) {
      s.setCursorName(cursorName);
    }
    return s;
  }

  /** Every physical statement created so far (for settings that change later). */
  void forEachPhysical(PhysicalAction action) throws SQLException {
    Statement p = onPrimary;
    if (p != null) {
      action.apply(p);
    }
    Statement r = onReplica;
    if (r != null) {
      action.apply(r);
    }
  }

  /** A setting applied to one physical statement. */
  @FunctionalInterface
  interface PhysicalAction {
    void apply(Statement s) throws SQLException;
  }

  /**
   * The application's view of a physical result set: reports this statement from
   * {@code getStatement()}; the same wrapper is returned for the same physical result set.
   */
  @Override
  final ResultSet wrap(ResultSet physical) {
    PhysicalConnection on = currentOn; // set with current, before any result set exists
    return results.wrap(physical, on != null ? on : session.primary());
  }

  @Override
  final void checkOpen() throws SQLException {
    if (closed || connection.isClosed()) {
      throw closedStatement();
    }
  }

  /** What every method of a closed statement wrapper throws. */
  static SQLException closedStatement() {
    return new SQLException("Statement is closed", "HY010");
  }

  /**
   * When this execution's query timeout expires ({@link System#nanoTime()}), 0 when it has none. The
   * timeout covers the replica wait and the statement: {@link Session#begin} waits no longer,
   * and {@link #timed} gives the statement what is left.
   */
  final long deadline() {
    if (queryTimeout == 0) {
      return 0;
    }
    long d = System.nanoTime() + queryTimeout * 1_000_000_000L;
    return d == 0 ? 1 : d;
  }

  /** {@code s}, given the rest of the query timeout that expires at {@code deadline} (0: none, untouched). */
  static <S extends Statement> S timed(S s, long deadline) throws SQLException {
    if (deadline != 0) {
      StatementTimeouts.limit(s, (deadline - System.nanoTime() + 999_999) / 1_000_000);
    }
    return s;
  }

  // ---------------------------------------------------------------- execution (generated: RoutedExecutions)

  /** Bookkeeping after {@code x} ran; a session {@code SET}/{@code USE} on the primary is recorded for the replicas. */
  @Override
  final void ran(Execution x) throws SQLException {
    session.done(x);
    StatementKind kind = x.kind();
    if ((kind == StatementKind.SET_SESSION || kind == StatementKind.USE) && x.on() == session.primary()) {
      session.settings().statement(kind, x.sql());
    }
  }

  @Override
  final Execution routed(String sql) {
    return execution.of(classifications.classify(sql), sql, deadline(), false);
  }

  @Override
  final PhysicalConnection placed(Execution x) throws SQLException {
    return session.begin(x);
  }

  @Override
  final Statement runner(PhysicalConnection on, Execution x) throws SQLException {
    return timed(physical(on), x.deadlineNanos());
  }

  @Override
  final PhysicalConnection placedAgain(Execution x, SQLException e) throws SQLException {
    return session.retry(x, e);
  }

  // ---------------------------------------------------------------- batches (always the primary)

  /** Starts the execution of a batch: a write. */
  final Execution batch() {
    return execution.of(StatementKind.WRITE, "", 0, false);
  }

  @Override
  public void addBatch(String sql) throws SQLException {
    checkOpen();
    physical(session.primary()).addBatch(sql);
    batchPending = true;
  }

  @Override
  public void clearBatch() throws SQLException {
    checkOpen();
    Statement p = onPrimary;
    batchPending = false;
    if (p != null) {
      p.clearBatch();
    }
  }

  @Override
  public int[] executeBatch() throws SQLException {
    checkOpen();
    Statement s = physical(session.begin(batch()));
    batchPending = false;
    int[] counts = s.executeBatch();
    session.done(execution);
    return counts;
  }

  @Override
  public long[] executeLargeBatch() throws SQLException {
    checkOpen();
    Statement s = physical(session.begin(batch()));
    batchPending = false;
    long[] counts = s.executeLargeBatch();
    session.done(execution);
    return counts;
  }

  // ---------------------------------------------------------------- results of the last execution

  private Statement currentOrFail() throws SQLException {
    checkOpen();
    Statement s = current;
    if (s == null) {
      throw new SQLException("No statement has been executed yet", "HY010");
    }
    return s;
  }

  @Override
  public @Nullable ResultSet getResultSet() throws SQLException {
    checkOpen();
    Statement s = current;
    ResultSet rs = s == null ? null : s.getResultSet();
    return rs == null ? null : wrap(rs);
  }

  @Override
  public int getUpdateCount() throws SQLException {
    checkOpen();
    Statement s = current;
    return s == null ? -1 : s.getUpdateCount();
  }

  @Override
  public long getLargeUpdateCount() throws SQLException {
    checkOpen();
    Statement s = current;
    return s == null ? -1 : s.getLargeUpdateCount();
  }

  @Override
  public boolean getMoreResults() throws SQLException {
    checkOpen();
    Statement s = current;
    return s != null && s.getMoreResults();
  }

  @Override
  public boolean getMoreResults(int behaviour) throws SQLException {
    checkOpen();
    Statement s = current;
    return s != null && s.getMoreResults(behaviour);
  }

  @Override
  public ResultSet getGeneratedKeys() throws SQLException {
    return wrap(currentOrFail().getGeneratedKeys());
  }

  @Override
  public @Nullable SQLWarning getWarnings() throws SQLException {
    checkOpen();
    Statement s = current;
    return s == null ? null : s.getWarnings();
  }

  @Override
  public void clearWarnings() throws SQLException {
    checkOpen();
    forEachPhysical(Statement::clearWarnings);
  }

  @Override
  public void cancel() throws SQLException {
    checkOpen();
    cancelRequested = true;
    if (session.cancelWait(this)) {
      return;
    }
    Statement s = current;
    if (s != null) {
      s.cancel();
    }
  }

  // ---------------------------------------------------------------- settings

  @Override
  public int getMaxFieldSize() throws SQLException {
    checkOpen();
    return maxFieldSize;
  }

  @Override
  public void setMaxFieldSize(int max) throws SQLException {
    checkOpen();
    forEachPhysical(s -> s.setMaxFieldSize(max));
    maxFieldSize = max;
  }

  @Override
  public int getMaxRows() throws SQLException {
    checkOpen();
    return largeMaxRows >= 0 ? (int) Math.min(Integer.MAX_VALUE, largeMaxRows) : maxRows;
  }

  @Override
  public void setMaxRows(int max) throws SQLException {
    checkOpen();
    forEachPhysical(s -> s.setMaxRows(max));
    maxRows = max;
    largeMaxRows = -1;
  }

  @Override
  public long getLargeMaxRows() throws SQLException {
    checkOpen();
    return largeMaxRows >= 0 ? largeMaxRows : maxRows;
  }

  @Override
  public void setLargeMaxRows(long max) throws SQLException {
    checkOpen();
    forEachPhysical(s -> s.setLargeMaxRows(max));
    largeMaxRows = max;
  }

  @Override
  public void setEscapeProcessing(boolean enable) throws SQLException {
    checkOpen();
    forEachPhysical(s -> s.setEscapeProcessing(enable));
    escapeProcessing = enable;
  }

  @Override
  public int getQueryTimeout() throws SQLException {
    checkOpen();
    return queryTimeout;
  }

  @Override
  public void setQueryTimeout(int seconds) throws SQLException {
    checkOpen();
    forEachPhysical(s -> s.setQueryTimeout(seconds));
    queryTimeout = seconds;
  }

  @Override
  public void setCursorName(String name) throws SQLException {
    checkOpen();
    forEachPhysical(s -> s.setCursorName(name));
    cursorName = name;
  }

  @Override
  public void setFetchDirection(int direction) throws SQLException {
    checkOpen();
    forEachPhysical(s -> s.setFetchDirection(direction));
    fetchDirection = direction;
  }

  @Override
  public int getFetchDirection() throws SQLException {
    checkOpen();
    return fetchDirection;
  }

  @Override
  public void setFetchSize(int rows) throws SQLException {
    checkOpen();
    forEachPhysical(s -> s.setFetchSize(rows));
    fetchSize = rows;
  }

  @Override
  public int getFetchSize() throws SQLException {
    checkOpen();
    return fetchSize;
  }

  @Override
  public int getResultSetConcurrency() throws SQLException {
    checkOpen();
    return shape.concurrency();
  }

  @Override
  public int getResultSetType() throws SQLException {
    checkOpen();
    return shape.type();
  }

  @Override
  public int getResultSetHoldability() throws SQLException {
    checkOpen();
    return shape.holdability(session.primary().jdbc());
  }

  @Override
  public void setPoolable(boolean poolable) throws SQLException {
    checkOpen();
    forEachPhysical(s -> s.setPoolable(poolable));
    this.poolable = poolable;
  }

  @Override
  public boolean isPoolable() throws SQLException {
    checkOpen();
    return poolable;
  }

  @Override
  public void closeOnCompletion() throws SQLException {
    checkOpen();
    forEachPhysical(Statement::closeOnCompletion);
    closeOnCompletion = true;
  }

  @Override
  public boolean isCloseOnCompletion() throws SQLException {
    checkOpen();
    return closeOnCompletion;
  }

  @Override
  public Connection getConnection() throws SQLException {
    checkOpen();
    return connection;
  }

  // ---------------------------------------------------------------- quoting helpers: pure text, JDBC's standard rules

  @Override
  public String enquoteLiteral(String val) throws SQLException {
    return super.enquoteLiteral(val);
  }

  @Override
  public String enquoteIdentifier(String identifier, boolean alwaysQuote) throws SQLException {
    return super.enquoteIdentifier(identifier, alwaysQuote);
  }

  @Override
  public boolean isSimpleIdentifier(String identifier) throws SQLException {
    return super.isSimpleIdentifier(identifier);
  }

  @Override
  public String enquoteNCharLiteral(String val) throws SQLException {
    return super.enquoteNCharLiteral(val);
  }

  // ---------------------------------------------------------------- lifecycle and wrapper

  @Override
  public boolean isClosed() {
    return closed || connection.isClosed();
  }

  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    SQLException failure = closeQuietly(onPrimary, null);
    failure = closeQuietly(onReplica, failure);
    onPrimary = null;
    onReplica = null;
    current = null;
    currentOn = null;
    results.clear();
    if (failure != null && !connection.isClosed()) {
      throw failure;
    }
  }

  /** Closes {@code s} (if any); returns {@code failure}, or its failure, or {@code failure} with it suppressed. */
  private static @Nullable SQLException closeQuietly(@Nullable Statement s, @Nullable SQLException failure) {
    if (s == null) {
      return failure;
    }
    try {
      s.close();
      return failure;
    } catch (SQLException e) {
      if (failure == null) {
        return e;
      }
      failure.addSuppressed(e);
      return failure;
    }
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    Statement s = current != null ? current : physical(session.primary());
    return s.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return true;
    }
    Statement s = current != null ? current : physical(session.primary());
    return s.isWrapperFor(iface);
  }
}
