package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.route.WritableResults;
import dev.ryow.jdbc.session.Execution;
import dev.ryow.jdbc.session.ParameterRecorder;
import dev.ryow.jdbc.session.Session;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.PipelinedWait;
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
 * created once, on first use). Batches run on the primary. Its executions go through the loop of
 * {@link RoutingStatement#run}, which {@link #attempt} runs here. The parameter setters are generated
 * ({@link RecordedParameters}).
 */
final class RoutingPreparedStatement extends RoutingStatement implements RecordedParameters {
  /** {@link #placeholders} not asked yet. */
  private static final int UNCOUNTED = -1;
  private final String sql;
  /** Classified once; becomes {@link StatementKind#WRITE} when a replica refused it as a write. */
  private StatementKind kind;
  private final ParameterRecorder recorder = new ParameterRecorder();
  /** The query with the replica wait before it ({@link PipelinedWait}), on {@link #pipelinedOwner}. */
  private @Nullable PreparedStatement pipelined;
  private @Nullable PhysicalConnection pipelinedOwner;
  /** The physical statement that holds every recorded parameter (the {@link #checker()}, or the last replayed onto). */
  private @Nullable PreparedStatement holdsParameters;
  /** The primary connection whose shared checker took this read's parameters ({@link #checker()}), if any. */
  private @Nullable PhysicalConnection checkedOn;
  /** How many placeholders Connector/J counts in {@link #sql} ({@link #checkerAt}); {@link #UNCOUNTED} until asked. */
  private int placeholders = UNCOUNTED;
  /**
   * With {@code useCursorFetch=true}: the primary's and the replica's physical statements whose first
   * execution was seen ({@link #cursorSafe}), and whether that execution opened a server cursor.
   */
  private @Nullable PreparedStatement firstRanOnPrimary;
  private @Nullable PreparedStatement firstRanOnReplica;
  private boolean primaryOpenedCursorFirst;
  private boolean replicaOpenedCursorFirst;

  private RoutingPreparedStatement(LogicalConnection connection, String sql, StatementShape shape, StatementKind kind)
      throws SQLException {
    super(connection, shape);
    this.sql = sql;
    this.kind = kind;
    statementOf(database(), recorder);
  }

  /**
   * Classifies {@code sql} through the cluster's {@link dev.ryow.jdbc.sql.ClassificationCache} (ORMs
   * prepare the same text for every execution); a query whose results can write runs on the primary
   * ({@link WritableResults}). A statement that can only run on the primary is prepared there at once,
   * so syntax errors surface here as they would with Connector/J; unless the primary connection must be
   * replaced first (it broke, or the primary moved or was away): then it is prepared when it first runs,
   * which is when the connection looks for the primary.
   */
  static RoutingPreparedStatement prepare(LogicalConnection connection, String sql, StatementShape shape)
      throws SQLException {
    Session session = connection.session();
    StatementKind classified = session.cluster().classifications().classify(sql);
    RoutingPreparedStatement ps = new RoutingPreparedStatement(connection, sql, shape,
        WritableResults.kind(classified, session.resultsWrite(shape.concurrency())));
    if (ps.kind != StatementKind.READ && session.primaryCurrent()) {
      ps.prepared(connection.primary());
    }
    return ps;
  }

  /** The physical prepared statement on {@code on}, created on first use; it does not become {@link #current}. */
  @Override
  PreparedStatement statementOn(PhysicalConnection on) throws SQLException {
    return (PreparedStatement) super.statementOn(on);
  }

  @Override
  PreparedStatement create(PhysicalConnection on) throws SQLException {
    return session.settings().createIn(database(), on, c -> shape.prepare(c, sql));
  }

  /** The physical prepared statement on {@code on}, which becomes {@link #current}. */
  private PreparedStatement prepared(PhysicalConnection on) throws SQLException {
    PreparedStatement ps = statementOn(on);
    current = ps;
    currentOn = on;
    return ps;
  }

  @Override
  int physicalSlots() {
    return 3;
  }

  /** Slot 0 is the primary's physical statement, slot 1 the replica's, slot 2 the replica's pipelined query. */
  @Override
  @Nullable Statement physicalSlot(int i) {
    return i < 2 ? super.physicalSlot(i) : pipelined;
  }

  /**
   * Runs the query on {@code on} with the wait {@code x} carries in the same round trip: the wait's
   * result first (an update count), the query's after it. A wait that does not succeed fails the
   * packet before the query runs ({@link PipelinedWait}).
   */
  private ResultSet pipelinedQuery(PhysicalConnection on, Execution x) throws SQLException {
    PreparedStatement ps = pipelined;
    if (ps == null || pipelinedOwner != on) {
      if (ps != null) {
        ps.close();
      }
      String text = PipelinedWait.prefix(on) + sql;
      ps = configure(session.settings().createIn(database(), on, c -> shape.prepare(c, text)));
      pipelined = ps;
      pipelinedOwner = on;
    }
    recorder.replay(ps, PipelinedWait.bind(ps, x, on));
    current = ps;
    currentOn = on;
    StatementTimeouts.within(ps, x.deadlineNanos()).execute();
    if (!ps.getMoreResults()) {
      throw new SQLException("The query produced no result set", "S1000");
    }
    return ps.getResultSet();
  }

  /** The physical statement for one execution, with the recorded parameters set. */
  private PreparedStatement ready(PhysicalConnection on) throws SQLException {
    PreparedStatement ps = prepared(on);
    if (ps != holdsParameters) {
      recorder.replay(ps);
      holdsParameters = ps;
    }
    return ps;
  }

  // ---------------------------------------------------------------- execution (the loop: RoutingStatement.run)

  @Override
  public ResultSet executeQuery() throws SQLException {
    return query(ExecuteMethod.QUERY, sql);
  }

  @Override
  public boolean execute() throws SQLException {
    return executed(ExecuteMethod.EXECUTE, sql, 0, null, null);
  }

  @Override
  public int executeUpdate() throws SQLException {
    return updated(ExecuteMethod.UPDATE, sql, 0, null, null);
  }

  @Override
  public long executeLargeUpdate() throws SQLException {
    return largeUpdated(ExecuteMethod.LARGE_UPDATE, sql, 0, null, null);
  }

  /** This statement's next execution, of its prepared SQL; a query may carry its replica wait in its own round trip. */
  @Override
  Execution routed(ExecuteMethod m, String given) {
    boolean query = m == ExecuteMethod.QUERY;
    if (query) {
      cancelRequested = false;
    }
    return of(kind, sql, StatementTimeouts.deadline(queryTimeout), query);
  }

  /**
   * Runs {@code m} once on the physical prepared statement on {@code on}, parameters set, given what is left of
   * {@code x}'s query timeout; a query that carries its replica wait runs through {@link #pipelinedQuery}.
   */
  @Override
  @Nullable ResultSet attempt(PhysicalConnection on, Execution x, ExecuteMethod m, String given, int keys,
      int @Nullable [] indexes, String @Nullable [] names) throws SQLException {
    if (x.pipelined()) {
      return pipelinedQuery(on, x); // only a query carries its wait, and only until its first retry
    }
    PreparedStatement ps = ready(on);
    ps = StatementTimeouts.within(session.cursorFetch() ? cursorSafe(on, ps) : ps, x.deadlineNanos());
    switch (m) {
      case QUERY -> {
        return ps.executeQuery();
      }
      case EXECUTE -> counted = ps.execute() ? 1 : 0;
      case UPDATE -> counted = ps.executeUpdate();
      case LARGE_UPDATE -> counted = ps.executeLargeUpdate();
      default -> throw new AssertionError(m); // its four execute methods pass only these
    }
    return null;
  }

  /**
   * With {@code useCursorFetch=true}, Connector/J and the server answer every execution without a cursor of a
   * server-side prepared statement whose first execution opened one with a reply Connector/J cannot read
   * ({@code ArrayIndexOutOfBoundsException}, its Bug#104753). An application that executes first without a
   * cursor never meets it on Connector/J alone, but a physical statement the driver creates later, when a
   * read moves to another server after the fetch size was raised, starts with a cursor. Such a statement is
   * prepared again (one round trip) before an execution without a cursor; the first execution of each physical
   * statement is recorded here. Costs two getters per execution, only with {@code useCursorFetch=true}.
   */
  private PreparedStatement cursorSafe(PhysicalConnection on, PreparedStatement ps) throws SQLException {
    boolean cursor = ps.getFetchSize() > 0 && ps.getResultSetType() == ResultSet.TYPE_FORWARD_ONLY;
    boolean primary = on == session.primary();
    if (ps != (primary ? firstRanOnPrimary : firstRanOnReplica)) {
      firstRan(primary, ps, cursor);
      return ps;
    }
    if (cursor || !(primary ? primaryOpenedCursorFirst : replicaOpenedCursorFirst)) {
      return ps;
    }
    PreparedStatement fresh = (PreparedStatement) renew(on);
    recorder.replay(fresh);
    holdsParameters = fresh;
    firstRan(primary, fresh, false);
    return fresh;
  }

  /**
   * A physical statement whose first execution opened a cursor is not returned to Connector/J's statement
   * cache ({@code cachePrepStmts=true}): the server keeps that state, so the next {@code prepareStatement} of
   * the text, which gets the cached statement, would fail without a cursor ({@link #cursorSafe}).
   */
  @Override
  void retiring(Statement s) {
    if ((s == firstRanOnPrimary && primaryOpenedCursorFirst) || (s == firstRanOnReplica && replicaOpenedCursorFirst)) {
      notCached(s);
    }
  }

  private void firstRan(boolean primary, PreparedStatement ps, boolean cursor) {
    if (primary) {
      firstRanOnPrimary = ps;
      primaryOpenedCursorFirst = cursor;
    } else {
      firstRanOnReplica = ps;
      replicaOpenedCursorFirst = cursor;
    }
  }

  /** Where {@code x}, which failed with {@code e}, runs again (or rethrows); a refused write stays a write. */
  @Override
  PhysicalConnection placedAgain(Execution x, SQLException e) throws SQLException {
    SQLException failure = x.pipelined() ? PipelinedWait.endedByCaller(e, cancelRequested, x.deadlineNanos()) : e;
    PhysicalConnection again = session.retry(x, failure);
    if (x.ranAsWrite()) {
      kind = StatementKind.WRITE;
    }
    return again;
  }

  /** Bookkeeping after {@code x} ran; a session {@code SET}/{@code USE} on the primary is recorded for the replicas. */
  @Override
  void ran(Execution x) throws SQLException {
    recorded(session.done(x));
    if ((kind == StatementKind.SET_SESSION || kind == StatementKind.USE) && x.on() == session.primary()) {
      session.settings().statement(kind, sql, recorder);
    }
  }

  // ---------------------------------------------------------------- batches and metadata

  @Override
  public void addBatch() throws SQLException {
    checkOpen();
    ready(session.primaryForCall()).addBatch();
    batchPending = true;
  }

  @Override
  public void clearParameters() throws SQLException {
    checkOpen();
    recorder.clear();
    holdsParameters = null;
    forEachPhysical(s -> ((PreparedStatement) s).clearParameters());
  }

  @Override
  public @Nullable ResultSetMetaData getMetaData() throws SQLException {
    return describing().getMetaData();
  }

  @Override
  public ParameterMetaData getParameterMetaData() throws SQLException {
    return describing().getParameterMetaData();
  }

  /** The physical statement that describes this one: the replica's if it was created, else the primary's. */
  private PreparedStatement describing() throws SQLException {
    checkOpen();
    Statement r = replicaStatement();
    return r != null ? (PreparedStatement) r : statementOn(session.primaryForCall());
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
  void forgetPhysical() {
    super.forgetPhysical();
    PhysicalConnection checked = checkedOn;
    if (checked != null) {
      checked.releaseParameterChecker(sql);
      checkedOn = null;
    }
    pipelined = null;
    recorder.clear();
    holdsParameters = null;
    firstRanOnPrimary = null;
    firstRanOnReplica = null;
  }

  /**
   * Connector/J's text (the SQL with the bound values, which applications log), from the physical statement
   * that holds every recorded parameter; with client-side prepared statements (Connector/J's default) the
   * primary's is given them first when none does (no round trip). Otherwise the kind and SQL.
   */
  @Override
  public String toString() {
    PreparedStatement h = holdsParameters;
    if (h == null && !closed && session.clientSidePrepare() && !session.primary().isClosed()) {
      try {
        h = ready(session.primary());
      } catch (SQLException e) {
        h = null; // the driver's own text
      }
    }
    if (h != null && !closed) {
      return h.toString();
    }
    return "RoutingPreparedStatement[" + kind + ": " + sql + "]";
  }

  // ---------------------------------------------------------------- parameters (recorded: RecordedParameters)

  @Override
  public ParameterRecorder openRecorder() throws SQLException {
    checkOpen();
    return recorder;
  }

  /**
   * The statement that takes each parameter in the setter as Connector/J does (its checks: the index against
   * the placeholders, values it refuses), before it is recorded: with client-side prepared statements
   * (Connector/J's default) that costs no round trip. A statement that runs on the primary (not a read) is
   * checked by its own primary statement, which then holds the values for its execution; a read, which runs
   * on a replica, by the primary connection's shared checker of its text ({@link PhysicalConnection#parameterChecker}),
   * so that no second statement is prepared for each prepare of a read. {@link InertPreparedStatement}, which
   * checks nothing, with server-side ones ({@code useServerPrepStmts=true}: preparing on the primary is a round
   * trip), or while the primary connection is closed (the execution replaces it): their parameters are checked
   * at execution.
   */
  @Override
  public PreparedStatement checker() throws SQLException {
    PhysicalConnection p = session.primary();
    if (!session.clientSidePrepare() || p.isClosed()) {
      if (holdsParameters != null) {
        holdsParameters = null; // a value recorded unchecked: no physical statement holds every value now
      }
      return InertPreparedStatement.INSTANCE;
    }
    if (kind == StatementKind.READ) {
      if (holdsParameters != null) {
        holdsParameters = null; // the shared checker holds nothing for an execution
      }
      if (checkedOn != p) {
        checkedOn = p;
      }
      return p.parameterChecker(sql);
    }
    PreparedStatement own = statementOn(p);
    if (own != holdsParameters) { // it holds them all only if it lacks nothing recorded before
      holdsParameters = recorder.isEmpty() ? own : null;
    }
    return own;
  }

  /**
   * The checker of a setter that Connector/J checks for nothing but its index (setInt, setLong, setString, setNull
   * and the like): for a read whose index is within its text's placeholders, as Connector/J counts them, nothing
   * ({@link InertPreparedStatement}): the value is only recorded, with no binding on the primary's checker and
   * nothing to clear when the statement closes. Otherwise {@link #checker()}, which throws Connector/J's own
   * exception for an index out of range.
   */
  @Override
  public PreparedStatement checkerAt(int index) throws SQLException {
    if (kind == StatementKind.READ && index >= 1 && index <= placeholders()) {
      if (holdsParameters != null) {
        holdsParameters = null; // as checker(): no physical statement holds every value now
      }
      return InertPreparedStatement.INSTANCE;
    }
    return checker();
  }

  /** Connector/J's count of the placeholders, from the primary connection's checker once; 0 when none can say. */
  private int placeholders() throws SQLException {
    int n = placeholders;
    if (n == UNCOUNTED) {
      PhysicalConnection p = session.primary();
      if (!session.clientSidePrepare() || p.isClosed()) {
        return 0; // asked again later: checker() decides meanwhile
      }
      n = p.parameterPlaceholders(sql);
      placeholders = n;
    }
    return n;
  }
}
