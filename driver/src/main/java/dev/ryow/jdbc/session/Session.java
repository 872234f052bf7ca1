package dev.ryow.jdbc.session;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.Watermark;
import dev.ryow.jdbc.config.GtidCaptureMode;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.route.RetryRule;
import dev.ryow.jdbc.route.Router;
import dev.ryow.jdbc.route.Target;
import dev.ryow.jdbc.route.TransactionState;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.Sql;
import dev.ryow.jdbc.sql.StatementKind;
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
 * by the {@link RetryRule}: {@link Retries}), and records what it did ({@link #done}). Reads no replica
 * takes go to the primary, or wait on the replicas while it is lost ({@link PrimaryFallback}); statements
 * reach the primary through the {@link PrimaryGate}, which replaces a stale connection first.
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
  /** Not Connector/J's {@code dontTrackOpenResources}: closing the connection closes its statements. */
  private final boolean tracksOpenResources;
  /** Connector/J's {@code queryTimeoutKillsConnection}: a statement's query timeout closes the connection. */
  private final boolean timeoutKillsConnection;
  /** Connector/J's {@code useCursorFetch=true}: see {@link #cursorFetch()}. */
  private final boolean cursorFetch;
  private final SessionState session = new SessionState();
  /** The primary physical connection: reconnect, failover, the flags it has. */
  private final PrimaryLink link;
  private final ReplicaSet replicas;
  private final SessionSettings settings;
  private final ReadConsistency consistency;
  private final Transactions transactions;
  /** Lets cancel, close and abort from other threads end a replica wait. */
  private final WaitGuard guard = new WaitGuard();
  /**
   * The plan of the read in flight, and the consistency scope of the call in progress: captured once as a
   * call of the face begins ({@link #beginCall}), read by everything the call records (a read's placement,
   * the GTIDs of a write).
   */
  private final ReadPlan plan = new ReadPlan();
  /** Where each read runs: its home, a replica the replica set admits, or the primary. */
  private final ReadPlacer reads;
  /** The primary connection as statements use it: replaced when stale, unless the transaction holds it. */
  private final PrimaryGate gate;
  /** Reads no replica took: on the primary, or while it is lost on the first replica that can serve them. */
  private final PrimaryFallback fallback;
  /** Where a statement runs again after a failure, by the {@code RetryRule}. */
  private final Retries retries;
  /** The open transaction's statements, for a replay ({@code ryow.transactionReplay}); null when off. */
  private final @Nullable TransactionLog log;
  /** The last execution that began: where the last statement ran. */
  private @Nullable Execution last;
  private volatile boolean closed;

  private Session(Cluster cluster, RyowConfig config, ConnectorJ connector, Watermark watermark)
      throws SQLException {
    this.cluster = cluster;
    this.pipelineWaits = !config.connectorFlag("useServerPrepStmts");
    this.blobLocators = config.connectorFlag("emulateLocators");
    this.tracksOpenResources = !config.connectorFlag("dontTrackOpenResources");
    this.timeoutKillsConnection = config.connectorFlag("queryTimeoutKillsConnection");
    this.cursorFetch = config.connectorFlag("useCursorFetch");
    this.waitsFitOneSlice = cluster.waits().waitTimeoutMillis() <= ReplicaWait.SLICE_MILLIS;
    this.log = config.get(RyowProperties.TRANSACTION_REPLAY) ? new TransactionLog() : null;
    this.link = new PrimaryLink(cluster, config, connector, session, this::wrote);
    this.replicas = new ReplicaSet(cluster, config, connector, session);
    this.consistency = new ReadConsistency(cluster, watermark,
        config.get(RyowProperties.GTID_CAPTURE) == GtidCaptureMode.QUERY, new Primary(), replicas, plan);
    this.transactions = new Transactions(link, replicas, consistency, log);
    this.settings = new SessionSettings(session, link, transactions,
        SessionSettings.maxRows(config.connectorProperties().getProperty("maxRows")));
    this.reads = new ReadPlacer(plan, replicas, new ReadAdmitter(cluster, config, replicas, session, guard),
        consistency, transactions, guard, link);
    this.gate = new PrimaryGate(link, transactions, consistency);
    this.fallback = new PrimaryFallback(cluster, gate, transactions, reads, guard);
    this.retries = new Retries(cluster, link, gate, fallback, transactions, replicas, reads, settings, log);
    cluster.connectionOpened();
  }

  /**
   * Whether the results of a statement created with {@code concurrency} can write on the connection
   * that ran its query ({@link dev.ryow.jdbc.route.WritableResults}): then its queries run on the primary.
   */
  public boolean resultsWrite(int concurrency) {
    return dev.ryow.jdbc.route.WritableResults.resultsWrite(concurrency, blobLocators);
  }

  /**
   * Whether closing the connection closes its statements: not with Connector/J's
   * {@code dontTrackOpenResources=true}, where a statement stays open until the application closes it.
   */
  public boolean tracksOpenResources() {
    return tracksOpenResources;
  }

  /**
   * With Connector/J's {@code queryTimeoutKillsConnection=true}, a statement whose query timeout expired
   * ({@code e}, Connector/J's {@code MySQLTimeoutException}, also when it ended the statement's replica
   * wait) closes the logical connection, as Connector/J closes its own: every later call fails as on a
   * closed connection. Returns {@code e}.
   */
  private SQLException timedOut(SQLException e) {
    if (timeoutKillsConnection && e instanceof java.sql.SQLTimeoutException && !closed) {
      LOG.debug("[{}] a query timeout expired with queryTimeoutKillsConnection=true: the connection is closed",
          cluster.name());
      close();
    }
    return e;
  }

  /**
   * Whether Connector/J's {@code useCursorFetch=true} is set: a server-side prepared query executed with a
   * fetch size above 0 opens a cursor on the server, and a physical statement whose first execution did
   * must not run without one (Connector/J's Bug#104753: docs/connector-j.md).
   */
  public boolean cursorFetch() {
    return cursorFetch;
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
    if (log != null) {
      log.committed(); // outside a transaction, or its COMMIT: the log is emptied right after
    }
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
      return gate.ensure(PrimaryLink.Patience.ONE_ROUND);
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
      cluster.discovery().discoverPrimaryOnce(link.epoch(), System.nanoTime(), why, cluster.settings().failoverTimeoutMillis());
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

  /**
   * The consistency mode this connection's reads use now ({@code RyowConnection.consistencyMode}): the one set
   * on the connection, else the mode of the scope bound to the calling thread, else {@code ryow.consistency}.
   */
  public ConsistencyMode consistencyMode() {
    return consistency.effectiveMode(ConsistencyScope.current());
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
   * A call of the JDBC face begins: the consistency scope bound to the calling thread is captured, once, into
   * the session's {@link ReadPlan}, where everything the call records finds it: the read's placement and,
   * for a write, the scope its GTIDs join ({@link ReadConsistency}). {@link #begin} and
   * {@link #primaryForCall} call it; the face calls it first in the other calls that may write on the
   * primary or capture the GTIDs of writes without an {@link Execution}: {@code commit}, {@code rollback},
   * {@code setAutoCommit}, a row written through a result set, {@code consistencyToken}. The one read of
   * the scope's {@code ThreadLocal} on the statement path (the other, {@link #consistencyMode}, answers the
   * public API).
   */
  public void beginCall() {
    plan.begin(ConsistencyScope.current());
  }

  /**
   * Chooses the physical connection for {@code x}, waiting for the watermark on a replica when needed.
   * A query that can carry its wait is returned its replica without waiting: {@link Execution#pipelined}
   * then says to send the wait with it. The replica wait ends by the execution's deadline, and
   * {@code cancel()} of its statement from another thread ends it at once ({@link #cancelWait}).
   */
  public PhysicalConnection begin(Execution x) throws SQLException {
    checkOpen();
    beginCall();
    PhysicalConnection target;
    try {
      target = place(x);
    } catch (SQLException e) {
      throw timedOut(e);
    }
    if (last != x) {
      last = x; // stored only when it changes: see Execution's class comment
    }
    return target;
  }

  private PhysicalConnection place(Execution x) throws SQLException {
    TransactionState tx = transactions.state();
    if (Router.route(x.kind(), tx) != Target.REPLICA) {
      return fallback.onPrimary(x, false);
    }
    x.replicaRoute = true;
    PhysicalConnection sticky = transactions.readsOn();
    if (sticky != null) {
      return sticky == link.connection() ? fallback.onPrimary(x, false) : x.runOn(sticky, false);
    }
    // In a transaction (read-only, on a replica) only its first read can wait: later ones stay on its server.
    boolean deferWait = x.query() && pipelineWaits && waitsFitOneSlice;
    PhysicalConnection r = reads.replicaFor(x, null, deferWait);
    boolean opensTransaction = !tx.autoCommit() || x.kind() == StatementKind.BEGIN_READ_ONLY;
    if (r == null) {
      // Only statements that use the primary wait for a reconnect or a failover: replica reads go on
      // while the primary is away.
      PhysicalConnection primary = fallback.read(x, false);
      if (opensTransaction) {
        transactions.readsOn(primary);
      }
      return primary;
    }
    if (opensTransaction) {
      transactions.readsOn(r);
    }
    if (deferWait) {
      x.pipeline(plan.deferredOn(r)); // its set and budget, decided by the admission
    }
    if (LOG.isTraceEnabled()) {
      LOG.trace("[{}] {} statement runs on {}", cluster.name(), x.kind(), r);
    }
    return x.runOn(r, false);
  }

  /**
   * After {@code e} ended the attempt of {@code x}: returns where it may safely run again ({@link Retries},
   * by the {@link RetryRule}), or rethrows {@code e}, which ends the execution. An execution that already ran
   * again as often as {@link RetryRule#mayRunAgain} allows gets its failure back as it is.
   */
  public PhysicalConnection retry(Execution x, SQLException e) throws SQLException {
    if (!RetryRule.mayRunAgain(x.retries++)) {
      throw e; // ran again as often as the rule allows: this failure is the statement's
    }
    if (closed) {
      throw e; // closed or aborted by another thread while the statement ran: nobody's failure
    }
    timedOut(e);
    if (closed) {
      throw e; // the query timeout closed the connection (queryTimeoutKillsConnection=true)
    }
    try {
      return retries.after(x, e);
    } catch (SQLException again) {
      throw timedOut(again);
    }
  }

  /**
   * Bookkeeping after {@code x} ran: counts, the transaction state, GTID capture, monotonic reads. Returns
   * the entry that records it for a transaction replay, for the face to add its update count and what the
   * application reads of its results; null when nothing records it ({@code ryow.transactionReplay} off,
   * outside a transaction, or a transaction that cannot be replayed).
   */
  public TransactionLog.@Nullable Entry done(Execution x) throws SQLException {
    PhysicalConnection on = x.on();
    StatementKind kind = x.kind();
    if (x.pipelined()) {
      reads.deferredWaitReached(on);
    }
    boolean onPrimary = on == link.connection();
    if (x.replicaRoute && consistency.monotonicReads() && kind != StatementKind.WRITE) {
      consistency.readCompleted(on, plan.scope());
    }
    boolean read = kind == StatementKind.READ || kind == StatementKind.PRIMARY_READ;
    if (!onPrimary) {
      replicas.ran(on);
      cluster.metrics().replicaRead();
    } else if (read) {
      cluster.metrics().primaryRead();
    } else {
      cluster.metrics().primaryWrite();
      consistency.captureDue();
    }
    if (kind == StatementKind.SESSION_PIN && !transactions.state().pinned()) {
      LOG.debug("[{}] session state that cannot be mirrored: pinned to the primary", cluster.name());
    }
    transactions.ran(kind, onPrimary);
    TransactionLog.Entry recorded = log == null ? null : log.ran(x, onPrimary, transactions.inTransaction());
    if (onPrimary) {
      ranOnPrimary(read);
    }
    return recorded;
  }

  /**
   * After a statement ran on the primary: the tracking is checked and, after a write outside a transaction, its
   * GTID captured (a read leaves nothing to capture: a capture still due is made before the next replica read).
   */
  private void ranOnPrimary(boolean read) throws SQLException {
    if (!read && !transactions.state().inTransaction()) {
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
    if (log != null && transactions.inTransaction()) {
      log.cut("a row was written through a result set");
    }
    transactions.ran(StatementKind.WRITE, true);
    ranOnPrimary(false);
  }

  // ---------------------------------------------------------------- the primary connection: reconnect, failover

  /**
   * The primary's physical connection for a call of the JDBC face that only the primary answers
   * (preparing a statement that runs there, metadata, batches, the pass-throughs): replaced first when it
   * broke or the primary moved (up to {@code ryow.failoverTimeout}), outside a transaction that holds it.
   */
  public PhysicalConnection primaryForCall() throws SQLException {
    checkOpen();
    beginCall();
    return gate.ensure(PrimaryLink.Patience.FAILOVER);
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
    timedOut(e);
    if (closed || !Sql.isBrokenLink(e)) {
      return;
    }
    if (on == link.connection()) {
      link.connection().markBroken();
    } else if (Sql.isSocketTimeout(e)) {
      replicas.timedOut(on);
    } else {
      reads.failed(on, e); // out of rotation, logged as every departure is
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
    return on == null ? null : on.address();
  }

  private @Nullable PhysicalConnection lastOn() {
    Execution x = last;
    return x == null ? null : x.onOrNull();
  }

  /**
   * A JDBC 4.3 request boundary ({@code beginRequest}/{@code endRequest}: a pool lends or takes back the
   * connection): forgets what belongs to one borrower, so that the next starts clean: the consistency
   * mode set with {@code setConsistencyMode} and the report of the last statement and read
   * ({@code lastRead}, {@code lastServerRole}, {@code lastServerAddress}). Keeps what only makes reads
   * safer and costs no borrower anything it asked for: the connection's watermark (in
   * {@code ryow.consistency=connection}, the next borrower may wait for writes it did not make, never
   * miss its own) and the monotonic reads' watermark; the cluster's JVM-wide set is not the connection's
   * to forget. Session settings (catalog, isolation, SET) are the pool's to reset, as on any connection.
   */
  public void requestBoundary() {
    consistency.setConsistencyMode(null);
    plan.begin(null); // no write of the next borrower joins the last one's scope, which is not kept alive
    reads.forgetLast();
    last = null;
  }

  /** Clears the warnings of every physical connection. */
  public void clearWarnings() throws SQLException {
    checkOpen();
    link.connection().jdbc().clearWarnings();
    replicas.clearWarnings();
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Whether the connection can serve statements: its primary connection answers, or, when it does not
   * (the primary died), a replica of the cluster may serve reads ({@code Health.reachable}: in rotation or
   * not), so the connection still serves reads (a pool keeps it; its writes fail fast, with an error a pool
   * does not evict for, until a primary takes them). Not only replicas in rotation: a primary's death stops
   * every replica's receiver, and after {@code ryow.applierStopGrace} all of them are out of rotation while
   * they still serve the reads they have. The dead primary connection is replaced before the next statement
   * that needs the primary.
   */
  public boolean isValid(int timeout) throws SQLException {
    if (closed) {
      return false;
    }
    PhysicalConnection p = link.connection();
    if (!p.isClosed() && p.jdbc().isValid(timeout)) {
      return true;
    }
    p.markBroken();
    for (dev.ryow.jdbc.cluster.ReplicaEndpoint e : cluster.servers()) {
      if (e != cluster.primary().endpoint() && !e.vacant() && e.health().reachable()) {
        return true;
      }
    }
    return false;
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
    reads.abandonDeferredWait();
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
    reads.abandonDeferredWait();
    replicas.abortAll(executor);
    link.connection().abort(executor);
  }

  @Override
  public String toString() {
    return "RyowConnection[" + cluster.name() + ", primary=" + link.connection().host() + ", replicas=" + replicas
        + ", closed=" + closed + "]";
  }
}
