package dev.ryow.jdbc.session;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.config.GtidCaptureMode;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import dev.ryow.jdbc.route.Cluster;
import dev.ryow.jdbc.route.ReadRequirement;
import dev.ryow.jdbc.route.ReplicaEndpoint;
import dev.ryow.jdbc.route.Router;
import dev.ryow.jdbc.route.SqlTransaction;
import dev.ryow.jdbc.route.Target;
import dev.ryow.jdbc.route.Watermark;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.PipelinedWait;
import dev.ryow.jdbc.server.Sql;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.Connection;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.Properties;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One logical connection's routing brain, below its JDBC face ({@code proxy.LogicalConnection}): the
 * primary physical connection (replaced after it broke or the cluster failed over), the replica slots
 * ({@link ReplicaSet}), the session state they must all share, the connection's watermarks and
 * consistency mode, and the transaction bookkeeping; decides for each statement which physical
 * connection runs it ({@link #acquire}), where it may run again after a failure ({@link #retryTarget}),
 * and records what it did ({@link #completed}).
 *
 * <p>Like any JDBC connection it is meant for one thread at a time; {@link #cancelWait}, {@link #close}
 * and {@link #abort} may come from another.
 */
public final class Session {
  private static final Logger LOG = LoggerFactory.getLogger(Session.class);

  private final Cluster cluster;
  /** Replica waits travel with the query ({@code PipelinedWait}) unless prepared statements are server-side. */
  private final boolean pipelineWaits;
  /**
   * A wait of {@code ryow.waitTimeout} fits in one {@link ReplicaWait} slice: only then may it travel
   * with the query. A longer one is sent on its own, in slices, so that an interrupt, {@code close()} or
   * {@code abort()} from another thread can end it promptly ({@link WaitGuard}).
   */
  private final boolean waitsFitOneSlice;
  private final SessionState session = new SessionState();
  /** The primary physical connection: reconnect, failover, the flags it has. */
  private final PrimaryLink link;
  private final ReplicaSet replicas;
  /** SET/USE and JDBC session settings, recorded for replay. */
  private final SessionSettings settings;
  /** Watermarks, capture, consistency modes, monotonic reads. */
  private final ReadConsistency consistency;
  /** Lets cancel, close and abort from other threads end a replica wait. */
  private final WaitGuard guard = new WaitGuard();
  /** The statement being admitted ({@link #acquire}) and when its query timeout expires (0: none). */
  private Object admitting = this;
  private long deadlineNanos;

  /** The application's autocommit and read-only flags (JDBC's view of this connection). */
  private boolean autoCommit = true;
  private boolean readOnly;
  private SqlTransaction sqlTransaction = SqlTransaction.NONE;
  /** A statement ran on the primary inside the current transaction: its connection must not be swapped. */
  private boolean transactionDirty;
  /** autoCommit=false and a statement ran since the last commit or rollback. */
  private boolean transactionStarted;
  /**
   * Where the reads of the current transaction run, once its first read was placed: a read-only
   * transaction stays on one server (and waits once), even when that was the primary after a failed wait.
   */
  private @Nullable PhysicalConnection transactionReads;
  /**
   * A statement created session state that only the primary has (temporary table, user lock,
   * {@code LOCK TABLES}, server-side {@code PREPARE}, {@code SET autocommit}...): every later statement of
   * this logical connection runs on the primary until it is closed.
   */
  private boolean pinnedToPrimary;
  /** The statement runs again on the primary because a replica refused it as a write ({@link #hiddenWrite}). */
  private boolean rerunAsWrite;
  private @Nullable PhysicalConnection last;
  /** The current statement may leave the primary (a read the router sent to the replicas). */
  private boolean replicaRoute;
  private @Nullable ReadPlacement lastPlacement;
  private long lastWaitNanos;
  private @Nullable PhysicalConnection lastReadOn;
  private volatile boolean closed;

  private Session(Cluster cluster, RyowConfig config, ConnectorJ connector, Watermark watermark)
      throws SQLException {
    this.cluster = cluster;
    this.pipelineWaits = !"true".equalsIgnoreCase(config.connectorProperties().getProperty("useServerPrepStmts"));
    this.waitsFitOneSlice = cluster.waitTimeoutMillis() <= ReplicaWait.SLICE_MILLIS;
    this.link = new PrimaryLink(cluster, config, connector, session, this::wrote);
    this.settings = new SessionSettings(session, link);
    this.replicas = new ReplicaSet(cluster, config, connector, session, guard);
    this.consistency = new ReadConsistency(cluster, watermark,
        config.get(RyowProperties.GTID_CAPTURE) == GtidCaptureMode.QUERY, new Primary(), replicas);
    cluster.connectionOpened();
  }

  /** GTIDs of our writes from the primary's OK packets (own_gtid capture), as reported. */
  private void wrote(String gtids) {
    consistency.wrote(gtids);
  }

  /** The primary as {@link ReadConsistency} may use it: replaced only through this session's rules. */
  private final class Primary implements ReadConsistency.PrimaryAccess {
    @Override
    public PhysicalConnection connection() {
      return link.connection();
    }

    @Override
    public PhysicalConnection ensure() throws SQLException {
      ensurePrimary();
      return link.connection();
    }

    @Override
    public boolean current() {
      return link.current();
    }

    @Override
    public long epoch() {
      return link.epoch();
    }
  }

  /** Opens the primary connection; replica connections open on the first replica reads. */
  public static Session open(Cluster cluster, RyowConfig config, ConnectorJ connector) throws SQLException {
    return new Session(cluster, config, connector, new Watermark());
  }

  // ---------------------------------------------------------------- routing, used by statements

  /** The primary physical connection. */
  public PhysicalConnection primary() {
    return link.connection();
  }

  /**
   * Chooses the physical connection for one statement, waiting for the watermark on a replica when
   * needed. Call {@link #completed} after the statement ran.
   */
  public PhysicalConnection acquire(StatementKind kind) throws SQLException {
    return acquire(kind, this, 0, false);
  }

  /**
   * {@link #acquire(StatementKind)} for {@code statement}, whose query timeout expires at
   * {@code deadlineNanos} ({@link System#nanoTime()}; 0: none): a replica wait ends by then, and
   * {@code statement.cancel()} from another thread ends it at once ({@link #cancelWait}).
   */
  public PhysicalConnection acquire(StatementKind kind, Object statement, long deadlineNanos) throws SQLException {
    return acquire(kind, statement, deadlineNanos, false);
  }

  /**
   * As {@link #acquire(StatementKind, Object, long)} for a query that can carry the replica wait in its
   * own round trip: when a replica must wait, it is returned without waiting and {@link #deferredWait}
   * names the set; the statement sends {@code PipelinedWait.PREFIX} with the query (its query timeout
   * and cancel then cover the wait too), then reports with {@link #deferredWaitReached} or, on
   * failure, {@link #retryTarget}.
   */
  public PhysicalConnection acquireForQuery(StatementKind kind, Object statement, long deadlineNanos) throws SQLException {
    // In a transaction (read-only, on a replica) only its first read can wait: later ones stay on its server.
    return acquire(kind, statement, deadlineNanos,
        pipelineWaits && waitsFitOneSlice && (autoCommit || transactionReads == null));
  }

  /** The GTID set the query about to run on {@code on} must send its wait for, or null for none. */
  public @Nullable GtidSet deferredWait(PhysicalConnection on) {
    return on == link.connection() ? null : replicas.deferredWait(on);
  }

  /** The query with its pipelined wait ran on {@code on}: the wait succeeded. */
  public void deferredWaitReached(PhysicalConnection on) {
    replicas.deferredWaitReached();
    placed(ReadPlacement.REPLICA_AFTER_WAIT, replicas.lastWaitNanos(), on);
  }

  /**
   * The seconds the pipelined wait may take: {@code ryow.waitTimeout}, or less when the statement's
   * query timeout ends sooner (the timeout also covers the query).
   */
  public java.math.BigDecimal waitTimeoutSeconds(long deadlineNanos) {
    java.math.BigDecimal configured = cluster.waitTimeoutSeconds();
    if (deadlineNanos == 0) {
      return configured;
    }
    long leftMillis = Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000);
    return leftMillis < cluster.waitTimeoutMillis() ? java.math.BigDecimal.valueOf(leftMillis, 3) : configured;
  }

  private PhysicalConnection acquire(StatementKind kind, Object statement, long deadlineNanos, boolean deferWait)
      throws SQLException {
    checkOpen();
    this.admitting = statement;
    this.deadlineNanos = deadlineNanos;
    rerunAsWrite = false;
    PhysicalConnection target;
    replicaRoute = false;
    if (Router.route(kind, autoCommit, readOnly, sqlTransaction, pinnedToPrimary) == Target.REPLICA) {
      replicaRoute = true;
      PhysicalConnection sticky = transactionReads;
      if (sticky != null) {
        target = sticky;
      } else {
        PhysicalConnection r = replicaReadyForRead(null, deferWait);
        if (r == null) {
          // Only statements that use the primary wait for a reconnect or a failover: replica reads go
          // on while the primary is away.
          ensurePrimary();
          r = link.connection();
        }
        if (!autoCommit || kind == StatementKind.BEGIN_READ_ONLY) {
          transactionReads = r;
        }
        target = r;
      }
    } else {
      ensurePrimary();
      target = link.connection();
    }
    if (target == link.connection()) {
      syncPrimary();
    }
    if (LOG.isTraceEnabled()) {
      LOG.trace("[{}] {} statement runs on {}", cluster.name(), kind, target);
    }
    last = target;
    return target;
  }

  private @Nullable PhysicalConnection replicaReadyForRead(@Nullable ReplicaEndpoint exclude, boolean deferWait)
      throws SQLException {
    ConsistencyScope scope = ConsistencyScope.current();
    ConsistencyMode mode = consistency.effectiveMode(scope);
    boolean reusable = scope == null && exclude == null && autoCommit;
    if (reusable) {
      PhysicalConnection r = atUnchangedHome(mode);
      if (r != null) {
        return r;
      }
    }
    ReadRequirement req = consistency.prepareRead(mode, scope);
    if (req == null) {
      consistency.ranElsewhere();
      placed(ReadPlacement.PRIMARY_UNKNOWN_GTIDS, 0, link.connection());
      return null;
    }
    PhysicalConnection r = null;
    guard.enter(admitting);
    try {
      r = replicas.admit(req, autoCommit || !readOnly, exclude, deadlineNanos, deferWait);
      return r;
    } finally {
      guard.exit();
      ReadPlacement placement = replicas.placement();
      if (mode == ConsistencyMode.NONE && r != null) {
        placement = ReadPlacement.REPLICA_UNCHECKED;
      }
      placed(placement, replicas.lastWaitNanos(), r != null ? r : link.connection());
      ReplicaEndpoint home = req.home();
      if (reusable && r != null && placement == ReadPlacement.REPLICA_NO_WAIT && home != null
          && r == replicas.connectionTo(home.index()) && home.knownExecuted().contains(req.of(home))) {
        consistency.ranAtHome(home);
      } else {
        consistency.ranElsewhere();
      }
    }
  }

  /**
   * The read's connection when the last read's plan still holds ({@link ReadConsistency#unchangedHome}):
   * its home's connection, with no wait and nothing to replay, exactly as admitting it again would
   * decide; null to plan and admit it in full.
   */
  private @Nullable PhysicalConnection atUnchangedHome(ConsistencyMode mode) {
    ReplicaEndpoint home = consistency.unchangedHome(mode);
    if (home == null) {
      return null;
    }
    PhysicalConnection r = replicas.readNowAt(home);
    if (r != null) {
      placed(ReadPlacement.REPLICA_NO_WAIT, 0, r);
    }
    return r;
  }

  private void placed(ReadPlacement placement, long waitNanos, PhysicalConnection on) {
    lastPlacement = placement;
    lastWaitNanos = waitNanos;
    lastReadOn = on;
  }

  /**
   * After {@code e} on {@code on}: returns where the statement may safely run again, or rethrows
   * {@code e}. A read whose replica connection failed runs again on another replica (or the fallback);
   * a read a replica refused because it writes runs on the primary ({@link #hiddenWrite}).
   * A statement the primary refused because it is read-only (it did not run) runs again on the new
   * primary; a read whose primary connection failed runs again on a new connection. Nothing inside a
   * transaction, and no write that may have committed, ever runs twice.
   */
  public PhysicalConnection retryTarget(StatementKind kind, PhysicalConnection on, SQLException e, String sql)
      throws SQLException {
    if (closed) {
      throw e; // closed or aborted by another thread while the statement ran: nobody's failure
    }
    if (on != link.connection() && replicas.deferredWait(on) != null) {
      PhysicalConnection next = afterPipelinedWaitFailed(e);
      if (next != null) {
        return next;
      }
    }
    if (on != link.connection()) {
      if (Sql.isSocketTimeout(e)) {
        // The caller's own network timeout, not the replica's failure: as with Connector/J, the
        // statement fails; the server stays in rotation for everyone else.
        replicas.timedOut(on);
        throw e;
      }
      if (kind == StatementKind.READ && Sql.isReadOnlyRefusal(e) && autoCommit && sqlTransaction == SqlTransaction.NONE
          && transactionReads == null) {
        return hiddenWrite(on, e, sql);
      }
      if (!Sql.isConnectionFailure(e)
          || !autoCommit
          || sqlTransaction != SqlTransaction.NONE
          || transactionReads != null) {
        throw e;
      }
      ReplicaEndpoint failed = replicas.failed(on, e);
      LOG.warn("[{}] replica connection {} failed; the read runs again elsewhere: {}", cluster.name(), on, e.getMessage());
      cluster.metrics().readRetried();
      PhysicalConnection r = replicaReadyForRead(failed, false);
      if (r == null) {
        ensurePrimary();
        r = link.connection();
      }
      last = r;
      return r;
    }
    boolean refused = Sql.isReadOnlyRefusal(e);
    boolean lost = Sql.isConnectionFailure(e);
    if (!refused && !lost) {
      throw e;
    }
    // Either way this connection must not serve the next statement: reconnect (and rediscover) first.
    link.connection().markBroken();
    boolean inTransaction = transactionDirty || !autoCommit || sqlTransaction != SqlTransaction.NONE;
    boolean read = kind == StatementKind.READ || kind == StatementKind.PRIMARY_READ;
    if (inTransaction || pinnedToPrimary || !(refused || read)) {
      LOG.warn("[{}] primary connection {} {}; not run again ({}): {}", cluster.name(), link.connection(),
          refused ? "refused the statement (read-only)" : "failed",
          inTransaction ? "inside a transaction" : pinnedToPrimary ? "session state pinned to it" : "a write may have committed",
          e.getMessage());
      throw e;
    }
    replacePrimary(refused ? "the primary refused a write (read-only)" : "the primary connection failed: " + e.getMessage());
    cluster.metrics().readRetried();
    last = link.connection();
    return link.connection();
  }

  /**
   * A wrapper saw {@code e} from a physical object of {@code on} (a result set while it streamed rows,
   * metadata, a callable statement): when it means the link broke ({@link Sql#isBrokenLink}), a replica's
   * connection is dropped and its server leaves rotation at once (the poller brings it back), and a
   * broken primary connection is replaced before the next statement. The caller's own socket timeout
   * drops the replica connection without blaming the server, as {@link #retryTarget} does.
   */
  public void linkFailed(PhysicalConnection on, SQLException e) {
    if (closed || !Sql.isBrokenLink(e)) {
      return;
    }
    if (on == link.connection()) {
      link.connection().markBroken();
    } else if (Sql.isSocketTimeout(e)) {
      replicas.timedOut(on);
    } else {
      replicas.failed(on, e); // out of rotation, logged as every departure is
    }
  }

  /**
   * A replica refused a statement classified as a read because it would write (a stored function that
   * inserts, called from a {@code SELECT}): the server refused it before it changed anything, and
   * outside a transaction nothing else depended on it, so it runs on the primary as the write it is.
   * Its shape is remembered for the cluster's life (later ones go straight to the primary), counted in
   * {@code hiddenWrites}, and logged once per shape (literals masked).
   */
  private PhysicalConnection hiddenWrite(PhysicalConnection on, SQLException e, String sql) throws SQLException {
    cluster.metrics().hiddenWrite();
    String shape = cluster.classifications().rememberWrite(sql);
    if (shape != null) {
      LOG.warn("[{}] a statement classified as a read writes (a stored function?): replica {} refused it (error {});"
              + " it ran on the primary, as will every statement of its shape from now on: {}",
          cluster.name(), on.host(), e.getErrorCode(), shape);
    } else if (!cluster.classifications().isRememberedWrite(sql)) {
      LOG.debug("[{}] a statement classified as a read writes (replica {} refused it, error {}); it runs on the"
          + " primary (too long or too many such statements to remember it)", cluster.name(), on.host(), e.getErrorCode());
    }
    ensurePrimary();
    rerunAsWrite = true;
    last = link.connection();
    return link.connection();
  }

  /** The statement being run again after {@link #retryTarget} is a write found in a read: it counts as one. */
  public boolean rerunAsWrite() {
    return rerunAsWrite;
  }

  /**
   * A query sent with its pipelined wait failed. When the wait did not reach its set (the query did not
   * run), the fallback policy places it, as after a wait of its own. When the packet failed otherwise,
   * the query runs again with its wait sent first on its own (a read: running it again is harmless), so
   * that a failing wait falls back and an error of the query's own is thrown as it is. Null for a
   * connection failure, which the caller handles as for any replica read.
   */
  private @Nullable PhysicalConnection afterPipelinedWaitFailed(SQLException e) throws SQLException {
    PhysicalConnection r;
    if (PipelinedWait.notReached(e)) {
      r = replicas.deferredWaitFailed(autoCommit || !readOnly);
      placed(replicas.placement(), replicas.lastWaitNanos(), r != null ? r : link.connection());
    } else {
      replicas.abandonDeferredWait();
      if (!autoCommit) {
        transactionReads = null; // the transaction ran nothing there: its next read is placed afresh
      }
      if (Sql.isCancellation(e)) {
        throw e; // the caller's query timeout or cancel ended the wait or the query: never run it again
      }
      if (Sql.isConnectionFailure(e) || Sql.isReadOnlyRefusal(e)) {
        return null; // handled as for any replica read: elsewhere, or on the primary as a hidden write
      }
      r = replicaReadyForRead(null, false);
    }
    if (r == null) {
      ensurePrimary();
      syncPrimary();
      r = link.connection();
    }
    if (!autoCommit) {
      transactionReads = r; // the transaction's reads follow its first one, wherever the fallback placed it
    }
    last = r;
    return r;
  }

  // ---------------------------------------------------------------- the primary connection: reconnect, failover

  /** Before a statement runs on the primary: the application's read-only and autocommit flags reach it. */
  private void syncPrimary() throws SQLException {
    link.sync(readOnly, autoCommit);
  }

  /** Before a statement: a broken primary connection, or one to a server that is no longer the link.connection(), is replaced. */
  private void ensurePrimary() throws SQLException {
    if (transactionDirty) {
      return;
    }
    String why = link.stale();
    if (why != null) {
      replacePrimary(why);
    }
  }

  private void replacePrimary(String why) throws SQLException {
    link.replace(why, pinnedToPrimary);
    consistency.primaryReplaced();
  }

  /** Bookkeeping after a statement of {@code kind} ran on {@code on}. */
  public void completed(StatementKind ranAs, PhysicalConnection on) throws SQLException {
    StatementKind kind = ranAs;
    if (rerunAsWrite) {
      rerunAsWrite = false;
      kind = StatementKind.WRITE;
    }
    boolean onPrimary = on == link.connection();
    if (replicaRoute && consistency.monotonicReads() && kind != StatementKind.WRITE) {
      consistency.readCompleted(on);
    }
    if (!onPrimary) {
      replicas.ran(on);
      cluster.metrics().replicaRead();
    } else if (kind == StatementKind.READ || kind == StatementKind.PRIMARY_READ) {
      cluster.metrics().primaryRead();
    } else {
      cluster.metrics().primaryWrite();
      consistency.captureDue();
    }
    if (!autoCommit) {
      transactionStarted = true;
    }
    switch (kind) {
      case BEGIN -> sqlTransaction = SqlTransaction.ON_PRIMARY;
      case BEGIN_READ_ONLY ->
          sqlTransaction = onPrimary ? SqlTransaction.ON_PRIMARY : SqlTransaction.READ_ONLY_ON_REPLICA;
      case COMMIT, ROLLBACK -> endTransaction();
      case SESSION_PIN -> {
        if (!pinnedToPrimary) {
          LOG.debug("[{}] session state that cannot be mirrored: pinned to the primary", cluster.name());
        }
        pinnedToPrimary = true;
      }
      default -> { }
    }
    if (!onPrimary) {
      return;
    }
    transactionDirty = kind != StatementKind.COMMIT && kind != StatementKind.ROLLBACK
        && (!autoCommit || sqlTransaction != SqlTransaction.NONE);
    if (autoCommit && sqlTransaction == SqlTransaction.NONE) {
      consistency.captureAfterWrite();
    }
    consistency.checkTracking();
  }

  /**
   * Records a session-level statement ({@code SET}, or {@code USE} for {@code kind} {@link StatementKind#USE})
   * that ran on the primary; replica connections replay it before their next use.
   */
  public void sessionStatement(StatementKind kind, String sql) {
    settings.statement(kind, sql, autoCommit);
  }

  /** Records a prepared session-level statement and its parameters for replay on other connections. */
  public void sessionStatement(StatementKind kind, String sql, ParameterRecorder parameters) {
    settings.statement(kind, sql, parameters, autoCommit);
  }

  /** A batch of writes ran on the primary. */
  public void batchCompleted() throws SQLException {
    completed(StatementKind.WRITE, link.connection());
  }

  /**
   * {@code statement.cancel()} from another thread: if the statement is waiting for a replica now, the
   * wait ends at once and the statement fails as a cancelled one; returns whether it was waiting.
   */
  public boolean cancelWait(Object statement) {
    return guard.cancel(statement);
  }

  /** The cluster this connection belongs to. */
  public Cluster cluster() {
    return cluster;
  }

  public void checkOpen() throws SQLException {
    if (closed) {
      throw new SQLNonTransientConnectionException("Connection is closed", "08003");
    }
  }

  // ---------------------------------------------------------------- RyowConnection

  /** {@link RyowConnection#consistencyToken}. */
  public String consistencyToken() throws SQLException {
    checkOpen();
    return consistency.consistencyToken();
  }

  /** {@link RyowConnection#mergeConsistencyToken}. */
  public void mergeConsistencyToken(String token) throws SQLException {
    checkOpen();
    consistency.mergeConsistencyToken(token);
  }

  /** {@link RyowConnection#setConsistencyMode}. */
  public void setConsistencyMode(@Nullable ConsistencyMode mode) throws SQLException {
    checkOpen();
    consistency.setConsistencyMode(mode);
  }

  /** {@link RyowConnection#consistencyMode}. */
  public ConsistencyMode consistencyMode() {
    return consistency.consistencyMode();
  }

  public @Nullable ReadReport lastRead() {
    ReadPlacement placement = lastPlacement;
    PhysicalConnection on = lastReadOn;
    return placement == null || on == null ? null : new ReadReport(placement, lastWaitNanos, on.role(), on.host().address());
  }

  public @Nullable ServerRole lastServerRole() {
    PhysicalConnection l = last;
    return l == null ? null : l.role();
  }

  public @Nullable String lastServerAddress() {
    PhysicalConnection l = last;
    return l == null ? null : l.host().address();
  }

  public MetricsSnapshot clusterMetrics() {
    return cluster.live().metrics().snapshot();
  }

  public String clusterName() {
    return cluster.name();
  }

  public boolean lastReadStale() {
    return lastPlacement == ReadPlacement.REPLICA_STALE;
  }


  // ---------------------------------------------------------------- transactions and session state

  public void setAutoCommit(boolean autoCommit) throws SQLException {
    checkOpen();
    if (autoCommit && !this.autoCommit) {
      // JDBC: switching autocommit on commits the open transaction, on every server that holds part of it.
      // A primary connection in a transaction gets autocommit back now (that commits, as with Connector/J);
      // one that took no part is left alone, and so are replica connections until their next use.
      try {
        link.autoCommitOn();
        replicas.commitOrRollback(true);
      } finally {
        endTransaction();
        consistency.captureDue();
      }
    }
    this.autoCommit = autoCommit;
  }

  public boolean autoCommit() throws SQLException {
    checkOpen();
    return autoCommit;
  }

  public void commit() throws SQLException {
    checkOpen();
    if (autoCommit) {
      syncPrimary();
      link.connection().jdbc().commit(); // Connector/J's own answer to a commit in autocommit mode
      return;
    }
    try {
      // Only the servers that took part: a primary connection still in autocommit mode ran nothing of it.
      if (!link.autoCommitOnServer()) {
        link.connection().jdbc().commit();
      }
      replicas.commitOrRollback(true);
    } finally {
      // Committed or not, the transaction is over (a failed commit leaves its outcome to the caller).
      endTransaction();
      consistency.captureDue();
    }
    consistency.captureAfterCommit();
  }

  public void rollback() throws SQLException {
    checkOpen();
    if (autoCommit) {
      syncPrimary();
      link.connection().jdbc().rollback(); // Connector/J's own answer to a rollback in autocommit mode
      return;
    }
    try {
      if (!link.autoCommitOnServer()) {
        link.connection().jdbc().rollback();
      }
      replicas.commitOrRollback(false);
    } finally {
      endTransaction();
    }
  }

  /**
   * The primary's JDBC connection for a call that belongs to its transaction (savepoints), with the
   * application's autocommit and read-only flags synced first.
   */
  public Connection primaryInTransaction() throws SQLException {
    checkOpen();
    syncPrimary();
    return link.connection().jdbc();
  }

  /** Clears the warnings of every physical connection. */
  public void clearWarnings() throws SQLException {
    checkOpen();
    link.connection().jdbc().clearWarnings();
    replicas.clearWarnings();
  }

  private void endTransaction() {
    sqlTransaction = SqlTransaction.NONE;
    transactionDirty = false;
    transactionStarted = false;
    transactionReads = null;
    replicas.transactionEnded();
  }

  /**
   * Sets the read-only flag. As JDBC allows, it cannot change inside a transaction that has already
   * run a statement (the transaction's server is chosen): commit or roll back first. Setting the
   * current value is always allowed.
   */
  public void setReadOnly(boolean readOnly) throws SQLException {
    checkOpen();
    if (readOnly == this.readOnly) {
      return;
    }
    if (transactionStarted || sqlTransaction != SqlTransaction.NONE) {
      throw new SQLException(
          "Cannot change read-only mode inside a transaction that has started; commit or roll back first", "25000");
    }
    // Reaches the primary connection before its next statement (syncPrimary), if it ever runs one.
    this.readOnly = readOnly;
  }

  public boolean readOnly() throws SQLException {
    checkOpen();
    return readOnly;
  }

  /**
   * As Connector/J: moves the connection to {@code catalog} when its {@code databaseTerm} is
   * {@code CATALOG} (the default), does nothing when it is {@code SCHEMA}; replica connections follow.
   */
  public void setCatalog(String catalog) throws SQLException {
    checkOpen();
    settings.setCatalog(catalog, autoCommit);
  }

  /** As Connector/J: moves the connection to {@code schema} when its {@code databaseTerm} is {@code SCHEMA}. */
  public void setSchema(String schema) throws SQLException {
    checkOpen();
    settings.setSchema(schema, autoCommit);
  }

  /** The database the primary's Connector/J is in now: a statement created now runs there (Connector/J's rule). */
  public @Nullable String currentDatabase() throws SQLException {
    return settings.currentDatabase();
  }

  /** Creates a physical statement on {@code on} in {@code database} (see {@link SessionSettings#createIn}). */
  public <S> S createIn(@Nullable String database, PhysicalConnection on, StatementFactory<S> factory) throws SQLException {
    return settings.createIn(database, on, factory);
  }

  /** Creates one physical statement on a JDBC connection. */
  @FunctionalInterface
  public interface StatementFactory<S> {
    S create(Connection c) throws SQLException;
  }

  public void setTransactionIsolation(int level) throws SQLException {
    checkOpen();
    settings.isolation(level, autoCommit);
  }

  public void setHoldability(int holdability) throws SQLException {
    checkOpen();
    settings.holdability(holdability, autoCommit);
  }

  public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
    checkOpen();
    settings.networkTimeout(executor, milliseconds, autoCommit);
  }

  public void setClientInfo(String name, @Nullable String value) throws SQLClientInfoException {
    settings.clientInfo(name, value, autoCommit);
  }

  public void setClientInfo(Properties properties) throws SQLClientInfoException {
    settings.clientInfo(properties, autoCommit);
  }

  // ---------------------------------------------------------------- lifecycle

  public boolean isValid(int timeout) throws SQLException {
    return !closed && link.connection().jdbc().isValid(timeout);
  }

  public boolean isClosed() {
    return closed;
  }

  /** Ends a wait in progress and closes every physical connection. */
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    guard.close();
    replicas.closeAll();
    link.connection().close();
    cluster.connectionClosed();
  }

  public void abort(Executor executor) throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    guard.close();
    cluster.connectionClosed();
    replicas.abortAll(executor);
    link.connection().abort(executor);
  }


  @Override
  public String toString() {
    return "RyowConnection[" + cluster.name() + ", primary=" + link.connection().host() + ", replicas=" + replicas + ", closed="
        + closed + "]";
  }
}
