package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.route.WritableResults;
import dev.ryow.jdbc.session.Execution;
import dev.ryow.jdbc.session.Session;
import dev.ryow.jdbc.session.TransactionLog;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.StatementTimeouts;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Statement} that classifies each SQL string, lets the logical connection pick the server,
 * and runs it on a physical statement of that server. Settings (max rows, fetch size, timeouts...)
 * are recorded and applied to every physical statement it creates. Batches run on the primary. Every
 * execution, of an SQL string here or of a prepared statement's SQL, goes through the one loop of
 * {@link #run}; the generated {@link RoutedExecutions} only passes each execute method to it.
 */
class RoutingStatement extends RoutedExecutions {
  final LogicalConnection connection;
  final Session session;
  final StatementShape shape;
  /** Its results can write (updatable, or BLOB locators): its queries run on the primary ({@link WritableResults}). */
  final boolean resultsWrite;

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
  /**
   * What the last execution that was not a query returned: its update count, or 1 or 0 for {@code execute}
   * (whether its first result is a result set). A primitive: storing it costs no GC barrier.
   */
  long counted;
  /** The view of the last physical result set handed out ({@link RoutedResultSet#viewOf}). */
  private @Nullable RoutedResultSet lastResults;

  /**
   * The transaction log's entry of the last execution ({@code ryow.transactionReplay}, inside a
   * transaction): what the application reads of its results is added there. Null otherwise.
   */
  TransactionLog.@Nullable Entry recorded;

  /** {@link #closeOnCompletion()} was called: each physical statement closes when its results are closed. */
  private boolean closeOnCompletion;

  RoutingStatement(LogicalConnection connection, StatementShape shape) throws SQLException {
    this.connection = connection;
    this.session = connection.session();
    this.shape = shape;
    this.resultsWrite = session.resultsWrite(shape.concurrency());
    // The database the connection was in when this statement was created: Connector/J runs it there.
    statementOf(session.settings().currentDatabase(), null);
  }

  // ---------------------------------------------------------------- physical statements

  /**
   * The physical statement on {@code on}, created ({@link #create}) and configured on first use; it does
   * not become {@link #current}. Slot by slot: the primary's, replaced when the primary connection was;
   * the replica's, replaced when the read moves to another replica.
   */
  Statement statementOn(PhysicalConnection on) throws SQLException {
    if (on == session.primary()) {
      Statement s = onPrimary;
      if (s == null || primaryOwner != on) {
        if (s != null) {
          primaryChanged(s);
        }
        s = configure(create(on));
        onPrimary = s;
        primaryOwner = on;
      }
      return s;
    }
    Statement s = onReplica;
    if (s == null || replicaOwner != on) {
      if (s != null) {
        retiring(s);
      }
      PhysicalStatements.close(s, null); // its connection may be gone (a replica that failed): nothing left to release
      s = configure(create(on));
      onReplica = s;
      replicaOwner = on;
    }
    return s;
  }

  /**
   * Closes the physical statement on {@code on} for good (not into Connector/J's statement cache, which would
   * hand the same server statement back) and creates and configures a new one there, which becomes
   * {@link #current}.
   */
  final Statement renew(PhysicalConnection on) throws SQLException {
    Statement old = on == session.primary() ? onPrimary : onReplica;
    if (old != null) {
      notCached(old);
      PhysicalStatements.close(old, null);
      if (old == onPrimary) {
        onPrimary = null;
      } else {
        onReplica = null;
      }
    }
    return physical(on);
  }

  /** Before a physical statement of this one is closed (the statement's own close, a replica it left). */
  void retiring(Statement s) {}

  /** Closing {@code s} then closes it on the server, rather than into Connector/J's statement cache. */
  static void notCached(Statement s) {
    try {
      s.setPoolable(false);
    } catch (SQLException ignored) {
      // closed already: nothing is cached
    }
  }

  /** A new physical statement on {@code on}, in this statement's database (a prepared one prepares its text). */
  Statement create(PhysicalConnection on) throws SQLException {
    return session.settings().createIn(database(), on, shape::createStatement);
  }

  /** The replica's physical statement, if one was created. */
  final @Nullable Statement replicaStatement() {
    return onReplica;
  }

  /** The physical statement on {@code on} ({@link #statementOn}), which becomes {@link #current}. */
  final Statement physical(PhysicalConnection on) throws SQLException {
    Statement s = statementOn(on);
    currentOn = on;
    current = s;
    return s;
  }

  @Override
  int physicalSlots() {
    return 2;
  }

  /** Slot 0 is the primary's physical statement, slot 1 the replica's. */
  @Override
  @Nullable Statement physicalSlot(int i) {
    return i == 0 ? onPrimary : onReplica;
  }

  @Override
  final Statement answering() throws SQLException {
    Statement s = current;
    return s != null ? s : statementOn(session.primary());
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

  /** Gives a new physical statement the settings the application set ({@link RecordedSettings}). */
  final <S extends Statement> S configure(S s) throws SQLException {
    if (closeOnCompletion) {
      s.closeOnCompletion();
    }
    return StatementSettings.apply(this, s);
  }

  /** Every physical statement created so far (for settings that change later). */
  final void forEachPhysical(PhysicalAction action) throws SQLException {
    for (int i = 0, n = physicalSlots(); i < n; i++) {
      Statement s = physicalSlot(i);
      if (s != null) {
        action.apply(s);
      }
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
  final ResultSet wrap(ResultSet physical) {
    PhysicalConnection on = currentOn; // set with current, before any result set exists
    TransactionLog.Entry e = recorded;
    RoutedResultSet view = RoutedResultSet.viewOf(lastResults, physical, this, connection,
        on != null ? on : session.primary(), e == null ? null : e.rows());
    if (view != lastResults) {
      lastResults = view; // stored only when it changes: see Execution's class comment
    }
    return view;
  }

  /**
   * After {@code x} ran ({@link Session#done}): keeps the transaction log's entry of it, if any, with the
   * update count of {@link #current} (answered by Connector/J without a round trip).
   */
  final void recorded(TransactionLog.@Nullable Entry e) throws SQLException {
    if (e != null) {
      Statement s = current;
      e.updateCount(s == null ? -1 : s.getLargeUpdateCount());
    }
    if (recorded != e) {
      recorded = e;
    }
  }

  @Override
  final void checkOpen() throws SQLException {
    if (isClosed()) {
      throw PhysicalStatements.closed();
    }
  }

  // ---------------------------------------------------------------- execution: one loop for every execute method

  /** {@code executeQuery}: the physical result set of {@link #run}, as the application sees it. */
  @Override
  final ResultSet query(ExecuteMethod m, String sql) throws SQLException {
    return wrap(Objects.requireNonNull(run(m, sql, 0, null, null), "a query without a result set"));
  }

  /** {@code execute}: whether its first result is a result set. */
  @Override
  final boolean executed(ExecuteMethod m, String sql, int keys, int @Nullable [] indexes, String @Nullable [] names)
      throws SQLException {
    run(m, sql, keys, indexes, names);
    return counted != 0;
  }

  /** {@code executeUpdate}: its update count. */
  @Override
  final int updated(ExecuteMethod m, String sql, int keys, int @Nullable [] indexes, String @Nullable [] names)
      throws SQLException {
    run(m, sql, keys, indexes, names);
    return (int) counted;
  }

  /** {@code executeLargeUpdate}: its update count. */
  @Override
  final long largeUpdated(ExecuteMethod m, String sql, int keys, int @Nullable [] indexes, String @Nullable [] names)
      throws SQLException {
    run(m, sql, keys, indexes, names);
    return counted;
  }

  /**
   * One execution, the same for every execute method of both statements: {@link #routed} starts it, the
   * session places it ({@link Session#begin}), {@link #attempt} runs it there. After a failure the session
   * says where it runs again ({@link #placedAgain}, {@link Session#retry}) or throws, which ends it: the
   * {@link dev.ryow.jdbc.route.RetryRule} decides whether, and how many times. Once it ran, {@link #ran}
   * records it. Returns the physical result set of a query, else null ({@link #counted} holds the result).
   */
  final @Nullable ResultSet run(ExecuteMethod m, String sql, int keys, int @Nullable [] indexes,
      String @Nullable [] names) throws SQLException {
    checkOpen();
    Execution x = routed(m, sql);
    PhysicalConnection on = session.begin(x);
    ResultSet results;
    while (true) {
      try {
        results = attempt(on, x, m, sql, keys, indexes, names);
        break;
      } catch (SQLException e) {
        on = placedAgain(x, e);
      }
    }
    ran(x);
    return results;
  }

  /** This statement's execution of {@code sql}, classified. */
  Execution routed(ExecuteMethod m, String sql) {
    return of(WritableResults.kind(session.cluster().classifications().classify(sql), resultsWrite), sql,
        StatementTimeouts.deadline(queryTimeout), false);
  }

  /**
   * Runs {@code m} once on this statement's physical statement on {@code on}, given what is left of {@code x}'s
   * query timeout: returns a query's physical result set; sets {@link #counted} otherwise.
   */
  @Nullable ResultSet attempt(PhysicalConnection on, Execution x, ExecuteMethod m, String sql, int keys,
      int @Nullable [] indexes, String @Nullable [] names) throws SQLException {
    Statement s = StatementTimeouts.within(physical(on), x.deadlineNanos());
    switch (m) {
      case QUERY -> {
        return s.executeQuery(sql);
      }
      case EXECUTE -> counted = s.execute(sql) ? 1 : 0;
      case EXECUTE_KEYS -> counted = s.execute(sql, keys) ? 1 : 0;
      case EXECUTE_COLUMN_INDEXES -> counted = s.execute(sql, indexes) ? 1 : 0;
      case EXECUTE_COLUMN_NAMES -> counted = s.execute(sql, names) ? 1 : 0;
      case UPDATE -> counted = s.executeUpdate(sql);
      case UPDATE_KEYS -> counted = s.executeUpdate(sql, keys);
      case UPDATE_COLUMN_INDEXES -> counted = s.executeUpdate(sql, indexes);
      case UPDATE_COLUMN_NAMES -> counted = s.executeUpdate(sql, names);
      case LARGE_UPDATE -> counted = s.executeLargeUpdate(sql);
      case LARGE_UPDATE_KEYS -> counted = s.executeLargeUpdate(sql, keys);
      case LARGE_UPDATE_COLUMN_INDEXES -> counted = s.executeLargeUpdate(sql, indexes);
      case LARGE_UPDATE_COLUMN_NAMES -> counted = s.executeLargeUpdate(sql, names);
    }
    return null;
  }

  /** Where {@code x}, which failed with {@code e}, runs once more ({@link Session#retry}), or throws. */
  PhysicalConnection placedAgain(Execution x, SQLException e) throws SQLException {
    return session.retry(x, e);
  }

  /** Bookkeeping after {@code x} ran; a session {@code SET}/{@code USE} on the primary is recorded for the replicas. */
  void ran(Execution x) throws SQLException {
    recorded(session.done(x));
    StatementKind kind = x.kind();
    if ((kind == StatementKind.SET_SESSION || kind == StatementKind.USE) && x.on() == session.primary()) {
      session.settings().statement(kind, x.sql());
    }
  }

  // ---------------------------------------------------------------- batches (always the primary)

  @Override
  public void addBatch(String sql) throws SQLException {
    checkOpen();
    physical(session.primaryForCall()).addBatch(sql);
    batchPending = true;
  }

  @Override
  public void clearBatch() throws SQLException {
    checkOpen();
    Statement p = physicalSlot(0);
    batchPending = false;
    if (p != null) {
      p.clearBatch();
    }
  }

  @Override
  public int[] executeBatch() throws SQLException {
    int[] counts = batchRunner().executeBatch();
    recorded(session.done(this));
    return counts;
  }

  @Override
  public long[] executeLargeBatch() throws SQLException {
    long[] counts = batchRunner().executeLargeBatch();
    recorded(session.done(this));
    return counts;
  }

  /** Begins the execution of the batch (a write) on the primary's physical statement, which holds its entries. */
  private Statement batchRunner() throws SQLException {
    checkOpen();
    Statement s = physical(session.begin(of(StatementKind.WRITE, "", 0, false)));
    batchPending = false;
    return s;
  }

  // ---------------------------------------------------------------- results of the last execution

  // Each asks the physical statement that ran last (current) and, before any execution, answers what
  // Connector/J's statement answers before it ran.

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
  public boolean getMoreResults(int closing) throws SQLException {
    checkOpen();
    Statement s = current;
    return s != null && s.getMoreResults(closing);
  }

  @Override
  public @Nullable SQLWarning getWarnings() throws SQLException {
    checkOpen();
    Statement s = current;
    return s == null ? null : s.getWarnings();
  }

  /** The last execution's keys; before any, an empty result set (Connector/J's, from the primary's statement). */
  @Override
  public ResultSet getGeneratedKeys() throws SQLException {
    checkOpen();
    TransactionLog.Entry e = recorded;
    if (e == null) {
      return wrap(answering().getGeneratedKeys());
    }
    PhysicalConnection on = currentOn;
    return RoutedResultSet.wrap(answering().getGeneratedKeys(), this, connection, on != null ? on : session.primary(),
        e.keys());
  }

  @Override
  public void clearWarnings() throws SQLException {
    checkOpen();
    forEachPhysical(Statement::clearWarnings);
  }

  /**
   * Cancels the execution in progress, from another thread; on a closed statement or connection it does
   * nothing, as Connector/J's ({@code cancel()} checks neither: there is nothing left to cancel).
   */
  @Override
  public void cancel() throws SQLException {
    if (closed || connection.isClosed()) {
      return;
    }
    cancelRequested = true;
    if (session.cancelWait(this)) {
      return;
    }
    Statement s = current;
    if (s != null) {
      s.cancel();
    }
  }

  // ---------------------------------------------------------------- settings (generated: RecordedSettings), shape

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

  // ---------------------------------------------------------------- lifecycle and wrapper

  /**
   * Closed by {@link #close()}, with its connection (unless Connector/J's {@code dontTrackOpenResources=true}:
   * then, as with Connector/J, closing the connection leaves its statements' own state open), or, after
   * {@link #closeOnCompletion()}, once the physical statement that ran last closed itself when its results
   * were closed (as Connector/J's does).
   */
  @Override
  public boolean isClosed() {
    if (closed || (session.tracksOpenResources() && connection.isClosed())) {
      return true;
    }
    if (!closeOnCompletion) {
      return false;
    }
    Statement s = current;
    if (s == null || !PhysicalStatements.isClosed(s)) {
      return false;
    }
    try {
      close(); // the others go with it
    } catch (SQLException e) {
      closed = true; // its physical statements are gone either way
    }
    return true;
  }

  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    SQLException failure = null;
    for (int i = 0, n = physicalSlots(); i < n; i++) {
      Statement s = physicalSlot(i);
      if (s != null) {
        retiring(s);
      }
      failure = PhysicalStatements.close(s, failure);
    }
    forgetPhysical();
    current = null;
    currentOn = null;
    lastResults = null;
    if (failure != null && !connection.isClosed()) {
      throw failure;
    }
  }

  /** Drops the (closed) physical statements. */
  void forgetPhysical() {
    onPrimary = null;
    onReplica = null;
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    return answering().unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return true;
    }
    return answering().isWrapperFor(iface);
  }
}
