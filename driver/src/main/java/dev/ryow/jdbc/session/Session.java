package dev.ryow.jdbc.session;

import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.cluster.Watermark;
import dev.ryow.jdbc.config.GtidCaptureMode;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.route.RetryRule;
import dev.ryow.jdbc.route.RetryRule.Failure;
import dev.ryow.jdbc.route.Router;
import dev.ryow.jdbc.route.Target;
import dev.ryow.jdbc.route.TransactionState;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.PipelinedWait;
import dev.ryow.jdbc.server.Sql;
import dev.ryow.jdbc.sql.StatementKind;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One logical connection's routing brain, below its JDBC face ({@code proxy.LogicalConnection}): the
 * primary physical connection (replaced after it broke or the cluster failed over), the replica slots
 * ({@link ReplicaSet}) and the facets the face calls directly: {@link #transactions()},
 * {@link #settings()} and {@link #consistency()}. For each statement {@link Execution} it decides which
 * physical connection runs it ({@link #begin}), where it may run again after a failure ({@link #retry},
 * by the {@link RetryRule}), and records what it did ({@link #done}).
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
  /** Connector/J's {@code emulateLocators}: a {@code Blob} of a query's results writes on its connection. */
  private final boolean blobLocators;
  private final SessionState session = new SessionState();
  /** The primary physical connection: reconnect, failover, the flags it has. */
  private final PrimaryLink link;
  private final ReplicaSet replicas;
  private final SessionSettings settings;
  private final ReadConsistency consistency;
  private final Transactions transactions;
  /** Lets cancel, close and abort from other threads end a replica wait. */
  private final WaitGuard guard = new WaitGuard();
  /** Where each read runs: its home, a replica the replica set admits, or the primary. */
  private final ReadPlacer reads;
  /** The last execution that began: where the last statement ran. */
  private @Nullable Execution last;
  private volatile boolean closed;

  private Session(Cluster cluster, RyowConfig config, ConnectorJ connector, Watermark watermark)
      throws SQLException {
    this.cluster = cluster;
    this.pipelineWaits = !connectorFlag(config, "useServerPrepStmts");
    this.blobLocators = connectorFlag(config, "emulateLocators");
    this.waitsFitOneSlice = cluster.waitTimeoutMillis() <= ReplicaWait.SLICE_MILLIS;
    this.link = new PrimaryLink(cluster, config, connector, session, this::wrote);
    this.replicas = new ReplicaSet(cluster, config, connector, session, guard);
    this.consistency = new ReadConsistency(cluster, watermark,
        config.get(RyowProperties.GTID_CAPTURE) == GtidCaptureMode.QUERY, new Primary(), replicas);
    this.transactions = new Transactions(link, replicas, consistency);
    this.settings = new SessionSettings(session, link, transactions,
        SessionSettings.maxRows(config.connectorProperties().getProperty("maxRows")));
    this.reads = new ReadPlacer(replicas, consistency, transactions, guard, link);
    cluster.connectionOpened();
  }

  /** A boolean Connector/J property as Connector/J reads it ({@code true}/{@code yes}, any case). */
  private static boolean connectorFlag(RyowConfig config, String name) {
    String v = config.connectorProperties().getProperty(name);
    return v != null && ("true".equalsIgnoreCase(v.trim()) || "yes".equalsIgnoreCase(v.trim()));
  }

  /**
   * Whether the results of a statement created with {@code concurrency} can write on the connection
   * that ran its query ({@link dev.ryow.jdbc.route.WritableResults}): then its queries run on the primary.
   */
  public boolean resultsWrite(int concurrency) {
    return dev.ryow.jdbc.route.WritableResults.resultsWrite(concurrency, blobLocators);
  }

  /**
   * Whether prepared statements are client-side (Connector/J's default, {@code useServerPrepStmts} not
   * set): preparing one costs no round trip.
   */
  public boolean clientSidePrepare() {
    return pipelineWaits;
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
      ensurePrimary(PrimaryLink.Patience.ONE_ROUND);
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

    @Override
    public void rediscover(String why) throws SQLException {
      cluster.discoverPrimaryOnce(link.epoch(), System.nanoTime(), why, cluster.failoverTimeoutMillis());
    }
  }

  /** Opens the primary connection; replica connections open on the first replica reads. */
  public static Session open(Cluster cluster, RyowConfig config, ConnectorJ connector) throws SQLException {
    return new Session(cluster, config, connector, new Watermark());
  }

  // ---------------------------------------------------------------- facets the JDBC face calls directly

  /** Autocommit, commit, rollback, read-only, savepoints. */
  public Transactions transactions() {
    return transactions;
  }

  /** SET/USE and the JDBC session settings, recorded for replay; where physical statements are created. */
  public SessionSettings settings() {
    return settings;
  }

  /** Watermarks, tokens, consistency modes, monotonic reads. */
  public ReadConsistency consistency() {
    return consistency;
  }

  /** The cluster this connection belongs to. */
  public Cluster cluster() {
    return cluster;
  }

  /** The primary physical connection. */
  public PhysicalConnection primary() {
    return link.connection();
  }

  // ---------------------------------------------------------------- one statement: begin, retry, done

  /**
   * Chooses the physical connection for {@code x}, waiting for the watermark on a replica when needed.
   * A query that can carry its wait is returned its replica without waiting: {@link Execution#pipelined}
   * then says to send the wait with it. The replica wait ends by the execution's deadline, and
   * {@code cancel()} of its statement from another thread ends it at once ({@link #cancelWait}).
   */
  public PhysicalConnection begin(Execution x) throws SQLException {
    checkOpen();
    PhysicalConnection target = place(x);
    last = x;
    return target;
  }

  private PhysicalConnection place(Execution x) throws SQLException {
    TransactionState tx = transactions.state();
    if (Router.route(x.kind(), tx) != Target.REPLICA) {
      return onPrimary(x, false);
    }
    x.replicaRoute = true;
    PhysicalConnection sticky = transactions.readsOn();
    if (sticky != null) {
      return sticky == link.connection() ? onPrimary(x, false) : x.runOn(sticky, false);
    }
    // In a transaction (read-only, on a replica) only its first read can wait: later ones stay on its server.
    boolean deferWait = x.query() && pipelineWaits && waitsFitOneSlice;
    PhysicalConnection r = reads.replicaFor(x, null, deferWait);
    boolean opensTransaction = !tx.autoCommit() || x.kind() == StatementKind.BEGIN_READ_ONLY;
    if (r == null) {
      // Only statements that use the primary wait for a reconnect or a failover: replica reads go on
      // while the primary is away.
      PhysicalConnection primary = readOnPrimary(x, false);
      if (opensTransaction) {
        transactions.readsOn(primary);
      }
      return primary;
    }
    if (opensTransaction) {
      transactions.readsOn(r);
    }
    if (deferWait) {
      x.pipeline(replicas.deferredWait(r), waitTimeoutSeconds(x.deadlineNanos()));
    }
    if (LOG.isTraceEnabled()) {
      LOG.trace("[{}] {} statement runs on {}", cluster.name(), x.kind(), r);
    }
    return x.runOn(r, false);
  }

  /** {@code x} runs on the primary connection, replaced first if it broke, with the application's flags synced. */
  private PhysicalConnection onPrimary(Execution x, boolean retry) throws SQLException {
    ensurePrimary(PrimaryLink.Patience.FAILOVER);
    transactions.syncPrimary();
    return x.runOn(link.connection(), retry);
  }

  /**
   * A read the router sent to the replicas goes to the primary (the fallback, or GTIDs only the primary
   * can vouch for). A read never waits for a failover there: the primary connection is replaced after one
   * round of discovery at most; while the primary is lost (that round, or the fallback policy, found no
   * writable server), the read waits on the replicas instead, for a replica that received the writes will
   * apply them: it runs on the first replica known to have what it must see, or on the primary as soon
   * as it answers again. The wait ends at {@code ryow.failoverTimeout} (or the query timeout, if sooner)
   * with a retryable error. Paced: each attempt waits on a replica ({@code ryow.waitTimeout}) or, when
   * none can be waited on, sleeps a poll interval (the poller learns what the replicas applied).
   * Statements in a transaction or on a pinned session go through {@link #onPrimary}.
   */
  private PhysicalConnection readOnPrimary(Execution x, boolean retry) throws SQLException {
    TransactionState tx = transactions.state();
    if (!x.replicaRoute || x.kind() != StatementKind.READ || transactions.inTransaction() || tx.pinned()) {
      return onPrimary(x, retry);
    }
    boolean again = retry;
    boolean tryPrimary = !replicas.awaitingReplica();
    long deadline = 0;
    long since = System.nanoTime();
    while (true) {
      if (tryPrimary) {
        try {
          ensurePrimary(PrimaryLink.Patience.ONE_ROUND);
          transactions.syncPrimary();
          return x.runOn(link.connection(), again);
        } catch (SQLException e) {
          if (!Sql.isUnreachable(e)) {
            throw e;
          }
        }
      }
      long now = System.nanoTime();
      if (deadline == 0) {
        deadline = awaitDeadline(x, now);
      } else if (now - deadline >= 0) {
        throw awaitTimedOut(x, since);
      }
      checkOpen();
      PhysicalConnection r = reads.replicaFor(x, null, false);
      if (r != null) {
        return x.runOn(r, true);
      }
      again = true;
      tryPrimary = !replicas.awaitingReplica();
      if (!tryPrimary && replicas.lastWaitNanos() == 0) {
        pause(Math.min(cluster.pollIntervalMillis(), Math.max(1, (deadline - now) / 1_000_000)));
      }
    }
  }

  /** When a read that waits on the replicas for a lost primary gives up: {@code ryow.failoverTimeout}, or its query timeout. */
  private long awaitDeadline(Execution x, long now) {
    long d = now + cluster.failoverTimeoutMillis() * 1_000_000L;
    long q = x.deadlineNanos();
    return q != 0 && q - d < 0 ? q : d;
  }

  private SQLException awaitTimedOut(Execution x, long sinceNanos) {
    if (x.deadlineNanos() != 0 && System.nanoTime() - x.deadlineNanos() >= 0) {
      return dev.ryow.jdbc.server.StatementTimeouts.timedOut();
    }
    long waited = (System.nanoTime() - sinceNanos) / 1_000_000;
    return new java.sql.SQLTransientException("[" + cluster.name() + "] the primary " + cluster.primaryEndpoint()
        + " is unreachable (no writable server found), and no replica had what this read must see (this connection's"
        + " writes, and with the default consistency every write of this JVM) within " + waited + " ms ("
        + RyowProperties.FAILOVER_TIMEOUT_MILLIS.name() + "=" + cluster.failoverTimeoutMillis() + " ms): retry the"
        + " read; a replica that received the writes applies them, and the primary's return or a failover makes them"
        + " readable.", "HYT00");
  }

  private void pause(long millis) throws SQLException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.sql.SQLTransientException("Interrupted while waiting for a replica", "HYT00", e);
    }
  }

  /**
   * The seconds the pipelined wait may take: {@code ryow.waitTimeout}, or less when the statement's
   * query timeout ends sooner (the timeout also covers the query).
   */
  private BigDecimal waitTimeoutSeconds(long deadlineNanos) {
    BigDecimal configured = cluster.waitTimeoutSeconds();
    if (deadlineNanos == 0) {
      return configured;
    }
    long leftMillis = Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000);
    return leftMillis < cluster.waitTimeoutMillis() ? BigDecimal.valueOf(leftMillis, 3) : configured;
  }

  /**
   * After {@code e} ended the attempt of {@code x}: returns where it may safely run again, or rethrows
   * {@code e}. A query whose pipelined wait did not reach its set goes to the fallback policy; any other
   * failure is decided by the {@link RetryRule}: another replica, the primary as a write, a new primary
   * connection, or nowhere. Nothing inside a transaction, and no write that may have committed, runs twice.
   */
  public PhysicalConnection retry(Execution x, SQLException e) throws SQLException {
    if (closed) {
      throw e; // closed or aborted by another thread while the statement ran: nobody's failure
    }
    PhysicalConnection on = x.on();
    boolean onReplica = on != link.connection();
    if (onReplica && x.pipelined()) {
      PhysicalConnection next = afterPipelinedWaitFailed(x, e);
      if (next != null) {
        return next;
      }
    }
    Failure failure = Failure.of(e);
    TransactionState tx = transactions.state();
    RetryRule.Retry retry = RetryRule.decide(x.kind(), onReplica ? Target.REPLICA : Target.PRIMARY, failure,
        transactions.inTransaction(), tx.pinned(), x.replicaRoute);
    if (onReplica && failure == Failure.CALLER_TIMEOUT) {
      // The caller's own network timeout, not the replica's failure: as with Connector/J, the
      // statement fails; the server stays in rotation for everyone else.
      replicas.timedOut(on);
    } else if (!onReplica && RetryRule.breaksPrimaryLink(failure)) {
      link.connection().markBroken(); // either way it must not serve the next statement: reconnect first
    }
    switch (retry) {
      case ELSEWHERE -> {
        ReplicaEndpoint failed = replicas.failed(on, e);
        LOG.warn("[{}] replica connection {} failed; the read runs again elsewhere: {}", cluster.name(), on,
            e.getMessage());
        cluster.metrics().readRetried();
        PhysicalConnection r = reads.replicaFor(x, failed, false);
        return r != null ? x.runOn(r, true) : readOnPrimary(x, true);
      }
      case ON_PRIMARY_AS_WRITE -> {
        hiddenWrite(on, e, x.sql());
        x.ranAsWrite(true);
        return onPrimary(x, true);
      }
      case NEW_PRIMARY -> {
        replacePrimary(failure == Failure.READ_ONLY_REFUSAL ? "the primary refused a write (read-only)"
            : "the primary connection failed: " + e.getMessage(), PrimaryLink.Patience.FAILOVER);
        cluster.metrics().readRetried();
        transactions.syncPrimary();
        return x.runOn(link.connection(), true);
      }
      case REPLICA_OR_PRIMARY -> {
        LOG.debug("[{}] primary connection {} failed under a read that fell back to it; the read is placed again: {}",
            cluster.name(), link.connection(), e.getMessage());
        cluster.metrics().readRetried();
        PhysicalConnection r = reads.replicaFor(x, null, false);
        return r != null ? x.runOn(r, true) : readOnPrimary(x, true);
      }
      case THROW -> {
        if (!onReplica && RetryRule.breaksPrimaryLink(failure)) {
          String why = transactions.inTransaction() ? "inside a transaction"
              : tx.pinned() ? "session state pinned to it" : "a write may have committed";
          LOG.warn("[{}] primary connection {} {}; not run again ({}): {}", cluster.name(), link.connection(),
              failure == Failure.READ_ONLY_REFUSAL ? "refused the statement (read-only)" : "failed", why,
              e.getMessage());
          if (failure == Failure.CONNECTION_LOST) {
            throw lostUnder(e, why);
          }
        }
        throw e;
      }
      default -> throw e;
    }
  }

  /**
   * What a statement whose primary connection failed under it throws: an 08S01 that says what happened
   * to it ({@code why} it did not run again) and what the connection does next, with the driver's
   * exception as its cause.
   */
  private SQLException lostUnder(SQLException e, String why) {
    String next = transactions.inTransaction()
        ? "the transaction is lost with the connection (the server rolls it back): roll back, then run it again"
        : "the connection's next statement reconnects to the primary by itself";
    return new java.sql.SQLTransientConnectionException("[" + cluster.name() + "] the connection to the primary "
        + link.connection().host() + " was lost while this statement ran; it was not run again (" + why + "); "
        + next + ". Cause: " + e.getMessage(), "08S01", e);
  }

  /**
   * A query sent with its pipelined wait failed. When the wait did not reach its set (the query did not
   * run), the fallback policy places it, as after a wait of its own. When the packet failed otherwise,
   * the query runs again with its wait sent first on its own (a read: running it again is harmless), so
   * that a failing wait falls back and an error of the query's own is thrown as it is. Null for a
   * connection failure or a read-only refusal, which the {@link RetryRule} decides as for any replica read.
   */
  private @Nullable PhysicalConnection afterPipelinedWaitFailed(Execution x, SQLException e) throws SQLException {
    TransactionState tx = transactions.state();
    PhysicalConnection r;
    if (PipelinedWait.notReached(e)) {
      r = replicas.deferredWaitFailed(tx.autoCommit() || !tx.readOnly());
      reads.placed(x, replicas.placement(), replicas.lastWaitNanos(), r != null ? r : link.connection());
    } else {
      replicas.abandonDeferredWait();
      if (!tx.autoCommit()) {
        transactions.readsOn(null); // the transaction ran nothing there: its next read is placed afresh
      }
      if (Sql.isCancellation(e)) {
        throw e; // the caller's query timeout or cancel ended the wait or the query: never run it again
      }
      if (Sql.isConnectionFailure(e) || Sql.isReadOnlyRefusal(e)) {
        return null;
      }
      r = reads.replicaFor(x, null, false);
    }
    PhysicalConnection next = r != null ? x.runOn(r, true) : readOnPrimary(x, true);
    if (!tx.autoCommit()) {
      transactions.readsOn(next); // the transaction's reads follow its first one, wherever the fallback placed it
    }
    return next;
  }

  /**
   * A replica refused a statement classified as a read because it would write (a stored function that
   * inserts, called from a {@code SELECT}): it runs on the primary as the write it is. Its shape is
   * remembered for the cluster's life (later ones go straight to the primary), counted in
   * {@code hiddenWrites}, and logged once per shape (literals masked).
   */
  private void hiddenWrite(PhysicalConnection on, SQLException e, String sql) {
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
  }

  /** Bookkeeping after {@code x} ran: counts, the transaction state, GTID capture, monotonic reads. */
  public void done(Execution x) throws SQLException {
    PhysicalConnection on = x.on();
    StatementKind kind = x.kind();
    if (x.pipelined()) {
      replicas.deferredWaitReached();
      reads.placed(x, ReadPlacement.REPLICA_AFTER_WAIT, replicas.lastWaitNanos(), on);
    }
    boolean onPrimary = on == link.connection();
    if (x.replicaRoute && consistency.monotonicReads() && kind != StatementKind.WRITE) {
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
    if (kind == StatementKind.SESSION_PIN && !transactions.state().pinned()) {
      LOG.debug("[{}] session state that cannot be mirrored: pinned to the primary", cluster.name());
    }
    transactions.ran(kind, onPrimary);
    if (!onPrimary) {
      return;
    }
    if (!transactions.state().inTransaction()) {
      consistency.captureAfterWrite();
    }
    consistency.checkTracking();
  }

  /**
   * A row of an updatable result set was written through {@code on} ({@code updateRow},
   * {@code insertRow}, {@code deleteRow}): the bookkeeping of a write on the primary, as {@link #done}
   * does for a statement (its GTID arrives in the OK packet; query capture reads it before the next read).
   */
  public void rowWritten(PhysicalConnection on) throws SQLException {
    if (on != link.connection()) {
      return; // a query whose results write runs on the primary; a replica refuses what reaches it
    }
    cluster.metrics().primaryWrite();
    consistency.captureDue();
    transactions.ran(StatementKind.WRITE, true);
    if (!transactions.state().inTransaction()) {
      consistency.captureAfterWrite();
    }
    consistency.checkTracking();
  }

  // ---------------------------------------------------------------- the primary connection: reconnect, failover

  /**
   * Before a statement: a broken primary connection, one to a server that is no longer the primary, or
   * one opened before the primary's last outage is replaced, looking for the writable server as long as
   * {@code patience} allows. Never inside a transaction that ran statements on it.
   */
  private void ensurePrimary(PrimaryLink.Patience patience) throws SQLException {
    if (transactions.state().holdsPrimary()) {
      return;
    }
    String why = link.stale();
    if (why != null) {
      replacePrimary(why, patience);
    }
  }

  private void replacePrimary(String why, PrimaryLink.Patience patience) throws SQLException {
    link.replace(why, transactions.state().pinned(), patience);
    consistency.primaryReplaced();
  }

  /**
   * The primary's physical connection for a call of the JDBC face that only the primary answers
   * (preparing a statement that runs there, metadata, batches, the pass-throughs): replaced first when it
   * broke or the primary moved (up to {@code ryow.failoverTimeout}), outside a transaction that holds it.
   */
  public PhysicalConnection primaryForCall() throws SQLException {
    checkOpen();
    ensurePrimary(PrimaryLink.Patience.FAILOVER);
    return link.connection();
  }

  /** Whether the primary's physical connection can take a call now without being replaced first. */
  public boolean primaryCurrent() {
    return link.current();
  }

  /**
   * A wrapper saw {@code e} from a physical object of {@code on} (a result set while it streamed rows,
   * metadata, a callable statement): when it means the link broke ({@link Sql#isBrokenLink}), a replica's
   * connection is dropped and its server leaves rotation at once (the poller brings it back), and a
   * broken primary connection is replaced before the next statement. The caller's own socket timeout
   * drops the replica connection without blaming the server, as {@link #retry} does.
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
   * {@code statement.cancel()} from another thread: if the statement is waiting for a replica now, the
   * wait ends at once and the statement fails as a cancelled one; returns whether it was waiting.
   */
  public boolean cancelWait(Object statement) {
    return guard.cancel(statement);
  }

  public void checkOpen() throws SQLException {
    if (closed) {
      throw new SQLNonTransientConnectionException("Connection is closed", "08003");
    }
  }

  // ---------------------------------------------------------------- what the last statements did

  /** Where the last read ran, from the last execution that placed one. */
  public @Nullable ReadReport lastRead() {
    return reads.lastRead();
  }

  /** The role of the server the last statement ran on. */
  public @Nullable ServerRole lastServerRole() {
    PhysicalConnection on = lastOn();
    return on == null ? null : on.role();
  }

  /** The address of the server the last statement ran on. */
  public @Nullable String lastServerAddress() {
    PhysicalConnection on = lastOn();
    return on == null ? null : on.host().address();
  }

  private @Nullable PhysicalConnection lastOn() {
    Execution x = last;
    return x == null ? null : x.onOrNull();
  }

  /** Clears the warnings of every physical connection. */
  public void clearWarnings() throws SQLException {
    checkOpen();
    link.connection().jdbc().clearWarnings();
    replicas.clearWarnings();
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
    return "RyowConnection[" + cluster.name() + ", primary=" + link.connection().host() + ", replicas=" + replicas
        + ", closed=" + closed + "]";
  }
}
