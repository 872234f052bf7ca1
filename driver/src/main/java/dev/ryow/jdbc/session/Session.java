package dev.ryow.jdbc.session;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.config.GtidCaptureMode;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.UnknownGtidPolicy;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import dev.ryow.jdbc.route.Cluster;
import dev.ryow.jdbc.route.MonotonicReads;
import dev.ryow.jdbc.route.ReadBound;
import dev.ryow.jdbc.route.ReadRequirement;
import dev.ryow.jdbc.route.ReadWatermark;
import dev.ryow.jdbc.route.ReplicaEndpoint;
import dev.ryow.jdbc.route.Router;
import dev.ryow.jdbc.route.SqlTransaction;
import dev.ryow.jdbc.route.Target;
import dev.ryow.jdbc.route.Watermark;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.CurrentDatabase;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.PipelinedWait;
import dev.ryow.jdbc.server.ServerPosition;
import dev.ryow.jdbc.server.Sql;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.SQLClientInfoException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLNonTransientException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.ShardingKey;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
  private final RyowConfig config;
  private final ConnectorJ connector;
  private final Watermark watermark;
  private final boolean queryCapture;
  /** Replica waits travel with the query ({@code PipelinedWait}) unless prepared statements are server-side. */
  private final boolean pipelineWaits;
  /**
   * A wait of {@code ryow.waitTimeout} fits in one {@link ReplicaWait} slice: only then may it travel
   * with the query. A longer one is sent on its own, in slices, so that an interrupt, {@code close()} or
   * {@code abort()} from another thread can end it promptly ({@link WaitGuard}).
   */
  private final boolean waitsFitOneSlice;
  private final SessionState session = new SessionState();
  private final ReplicaSet replicas;
  /** Lets cancel, close and abort from other threads end a replica wait. */
  private final WaitGuard guard = new WaitGuard();
  /** The statement being admitted ({@link #acquire}) and when its query timeout expires (0: none). */
  private Object admitting = this;
  private long deadlineNanos;
  /** What this connection's reads saw (monotonic reads); see {@link MonotonicReads}. */
  private final ReadWatermark reads = new ReadWatermark();
  private final boolean monotonicReads;
  private final MonotonicReads monotonic;
  private final ReadRequirement requirement = new ReadRequirement();
  private final ReadWatermark[] readScopes = new ReadWatermark[3];

  /** The physical primary connection; replaced after it broke or the cluster moved to another primary. */
  private PhysicalConnection primary;
  private SessionMirror primaryMirror;
  /** The cluster's primary epoch {@link #primary} belongs to. */
  private long primaryEpoch;
  /** The primary epoch the watermark was last checked against (GTIDs lost with an old primary). */
  private long watermarkCheckedEpoch;
  /** When the watermark last grew ({@link System#nanoTime()}): a primary poll after it must contain it. */
  private long watermarkGrewNanos = System.nanoTime();

  /** The application's autocommit and read-only flags (JDBC's view of this connection). */
  private boolean autoCommit = true;
  private boolean readOnly;
  /**
   * What the physical primary connection has: the flags reach it only before a statement runs there
   * ({@link #syncPrimary}), so a read-only transaction served by a replica costs the primary nothing.
   */
  private boolean primaryAutoCommit = true;
  private boolean primaryReadOnly;
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
  /** Query capture mode: the primary may hold writes of ours that the watermark does not name yet. */
  private boolean captureDue;
  private @Nullable PhysicalConnection last;
  /** The current statement may leave the primary (a read the router sent to the replicas). */
  private boolean replicaRoute;
  private @Nullable ReadPlacement lastPlacement;
  private long lastWaitNanos;
  private @Nullable PhysicalConnection lastReadOn;
  /** Set by {@link RyowConnection#setConsistencyMode}; null: the scope's mode, else the URL's. */
  private @Nullable ConsistencyMode modeOverride;
  private volatile boolean closed;

  private Session(Cluster cluster, RyowConfig config, ConnectorJ connector, Watermark watermark)
      throws SQLException {
    this.cluster = cluster;
    this.config = config;
    this.connector = connector;
    this.watermark = watermark;
    this.queryCapture = config.get(RyowProperties.GTID_CAPTURE) == GtidCaptureMode.QUERY;
    this.pipelineWaits = !"true".equalsIgnoreCase(config.connectorProperties().getProperty("useServerPrepStmts"));
    this.waitsFitOneSlice = cluster.waitTimeoutMillis() <= ReplicaWait.SLICE_MILLIS;
    this.primary = connectPrimary(true);
    try {
      cluster.distinctServers().verify(primary.host(), primary.identity().serverUuid(), connector, config);
    } catch (SQLException e) {
      primary.close();
      throw e;
    }
    this.primaryMirror = new SessionMirror(session);
    this.watermarkCheckedEpoch = primaryEpoch;
    this.replicas = new ReplicaSet(cluster, config, connector, session, guard);
    this.monotonicReads = cluster.monotonicReads();
    this.monotonic = new MonotonicReads(cluster);
    cluster.connectionOpened();
  }

  /** Opens the primary connection; replica connections open on the first replica reads. */
  public static Session open(Cluster cluster, RyowConfig config, ConnectorJ connector) throws SQLException {
    return new Session(cluster, config, connector, new Watermark());
  }

  // ---------------------------------------------------------------- routing, used by statements

  /** The primary physical connection. */
  public PhysicalConnection primary() {
    return primary;
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
    return acquire(kind, statement, deadlineNanos, pipelineWaits && autoCommit && waitsFitOneSlice);
  }

  /** The GTID set the query about to run on {@code on} must send its wait for, or null for none. */
  public @Nullable GtidSet deferredWait(PhysicalConnection on) {
    return on == primary ? null : replicas.deferredWait(on);
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
          r = primary;
        }
        if (!autoCommit || kind == StatementKind.BEGIN_READ_ONLY) {
          transactionReads = r;
        }
        target = r;
      }
    } else {
      ensurePrimary();
      target = primary;
    }
    if (target == primary) {
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
    ConsistencyMode mode = effectiveMode(scope);
    if (queryCapture && captureDue) {
      ensurePrimary();
      captureIfDue();
    }
    forgetWhatThePrimaryLacks();
    GtidSet required = mode == ConsistencyMode.NONE ? GtidSet.EMPTY : requiredFor(mode, scope);
    int scopes = monotonicReads ? readScopes(mode, scope) : 0;
    GtidSet fromTokens = scopes == 0 ? GtidSet.EMPTY : unverifiedReads(scopes);
    GtidSet checked = fromTokens.isEmpty() ? required : required.union(fromTokens);
    if (!checked.isEmpty() && !primaryKnowsAll(checked, scopes)) {
      return null;
    }
    ReadRequirement req = scopes == 0 ? requirement.plain(required) : monotonicRequirement(required, scopes);
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
      placed(placement, replicas.lastWaitNanos(), r != null ? r : primary);
    }
  }

  /**
   * Collects the read watermarks whose reads this one must not show less than, per {@code mode}: the
   * connection's; plus the scope's; plus the JVM's. {@code latest} needs none (it reads the primary's
   * position at that moment, which contains whatever any replica had shown), {@code none} promises nothing.
   */
  private int readScopes(ConsistencyMode mode, @Nullable ConsistencyScope scope) {
    if (mode == ConsistencyMode.NONE || mode == ConsistencyMode.LATEST) {
      return 0;
    }
    int n = 0;
    readScopes[n++] = reads;
    if (scope != null && mode != ConsistencyMode.CONNECTION) {
      readScopes[n++] = scope.reads();
    }
    if (mode == ConsistencyMode.JVM) {
      readScopes[n++] = cluster.jvmReads();
    }
    return n;
  }

  private GtidSet unverifiedReads(int scopes) {
    GtidSet u = GtidSet.EMPTY;
    for (int i = 0; i < scopes; i++) {
      u = u.union(readScopes[i].bound().unverified());
    }
    return u;
  }

  /**
   * Where a monotonic read may run and what it must see ({@link MonotonicReads}); reads the position
   * of servers it leaves behind first (one round trip each, only when it leaves them).
   */
  private ReadRequirement monotonicRequirement(GtidSet required, int scopes) throws SQLException {
    forgetReadsThePrimaryLacks(scopes);
    ReadRequirement req = requirement;
    int probes = monotonic.plan(required, readScopes, scopes, req);
    if (probes == 0) {
      return req;
    }
    for (int i = 0; i < probes; i++) {
      ReplicaEndpoint server = monotonic.probe(i);
      long at = System.nanoTime();
      @Nullable ServerPosition position;
      @Nullable String uuid;
      if (server == cluster.primaryEndpoint()) {
        // A failed read leaves the reads it would have bounded pending: the read then goes to the
        // primary, through the usual reconnect and failover.
        try {
          ensurePrimary();
          position = primary.readPosition();
          uuid = primary.identity().serverUuid();
        } catch (SQLException e) {
          if (!Sql.isConnectionFailure(e) && !Sql.isUnreachable(e)) {
            throw e;
          }
          primary.markBroken();
          position = null;
          uuid = null;
        }
      } else {
        position = replicas.position(server);
        uuid = server.serverUuid();
      }
      cluster.metrics().positionRead();
      if (position != null && uuid != null) {
        monotonic.probed(server, uuid, position, at, readScopes, scopes);
      }
    }
    monotonic.finish(required, readScopes, scopes, req);
    return req;
  }

  /**
   * As {@link #forgetWhatThePrimaryLacks} for the read watermarks: a primary poll taken after a
   * watermark's bound last grew that lacks part of it (an errant transaction on a replica, GTIDs lost
   * with an old primary) is confirmed with {@code GTID_SUBSET} and the missing GTIDs are forgotten.
   */
  private void forgetReadsThePrimaryLacks(int scopes) throws SQLException {
    Cluster.PrimaryPosition position = cluster.primaryPosition();
    if (primaryEpoch != cluster.primaryEpoch() || primary.isClosed()) {
      return;
    }
    for (int i = 0; i < scopes; i++) {
      ReadWatermark w = readScopes[i];
      ReadBound b = w.bound();
      if (b.isEmpty() || position.polledAtNanos() - w.grewAtNanos() <= 0 || position.executed().contains(b.full())) {
        continue;
      }
      forgetLostReads(w, b);
    }
  }

  private void forgetLostReads(ReadWatermark w, ReadBound b) throws SQLException {
    GtidSet[] split = primary.splitByExecuted(b.full());
    if (!split[0].isEmpty() && w.forget(b, split[1])) {
      cluster.metrics().lostGtidsForgotten();
      LOG.warn("[{}] the primary {} has not executed {} of what earlier reads saw (an errant transaction on a"
          + " replica, lost with an old primary, or a token from elsewhere); forgetting them", cluster.name(),
          primary.host(), split[0]);
    }
  }

  /** A read the router sent to the replicas ran on {@code on}: it joins the read watermarks. */
  private void readCompleted(PhysicalConnection on) {
    String uuid = on.identity().serverUuid();
    if (uuid == null) {
      return;
    }
    long now = System.nanoTime();
    reads.observed(uuid, now);
    cluster.jvmReads().observed(uuid, now);
    ConsistencyScope scope = ConsistencyScope.current();
    if (scope != null) {
      scope.reads().observed(uuid, now);
    }
  }

  private ConsistencyMode effectiveMode(@Nullable ConsistencyScope scope) {
    ConsistencyMode m = modeOverride;
    if (m != null) {
      return m;
    }
    ConsistencyMode configured = cluster.consistency();
    if (scope == null) {
      return configured;
    }
    if (scope.modeGiven()) {
      return scope.mode();
    }
    // A scope adds its writes; it never narrows the configured guarantee (jvm and latest contain it).
    return configured == ConsistencyMode.JVM || configured == ConsistencyMode.LATEST ? configured : ConsistencyMode.SCOPE;
  }

  /** The GTIDs a replica must have executed before this read, for {@code mode}. */
  private GtidSet requiredFor(ConsistencyMode mode, @Nullable ConsistencyScope scope) throws SQLException {
    GtidSet own = watermark.current();
    return switch (mode) {
      case NONE -> GtidSet.EMPTY;
      case CONNECTION -> own;
      case SCOPE -> scope == null ? own : own.union(scope.gtids());
      case JVM -> (scope == null ? own : own.union(scope.gtids())).union(cluster.jvmWrites());
      case LATEST -> own.union(primaryExecutedNow());
    };
  }

  /**
   * Whether the primary has executed everything in {@code required}. Sets from outside (tokens) that
   * the cluster has not seen are checked once with {@code GTID_SUBSET}; GTIDs no server will ever have
   * must not make reads wait: per {@code ryow.unknownGtids} the read goes to the primary (and this
   * connection forgets the unknown GTIDs of its own watermark), or fails. When the primary cannot be
   * asked (it is away), the read goes ahead and waits as usual, bounded by {@code ryow.waitTimeout}.
   */
  private boolean primaryKnowsAll(GtidSet required, int scopes) throws SQLException {
    if (cluster.knownOnPrimary().contains(required)) {
      verifiedReads(required, scopes);
      return true;
    }
    cluster.metrics().gtidSubsetCheck();
    try {
      ensurePrimary();
      if (primary.splitByExecuted(required)[0].isEmpty()) {
        cluster.primaryHas(required);
        verifiedReads(required, scopes);
        return true;
      }
    } catch (SQLException e) {
      if (!Sql.isConnectionFailure(e) && !Sql.isUnreachable(e)) {
        throw e;
      }
      primary.markBroken();
      return true;
    }
    if (cluster.unknownGtids() == UnknownGtidPolicy.ERROR) {
      throw new SQLDataException(
          "[" + cluster.name() + "] this read must see GTIDs the primary has never executed (" + abbreviate(required)
              + "): a forged or foreign consistency token, or writes lost in a failover. ryow.unknownGtids=error;"
              + " set it to primary to read on the primary instead.",
          "22023");
    }
    cluster.metrics().unknownGtidRead();
    LOG.debug("[{}] watermark names GTIDs the primary never executed; reading on the primary", cluster.name());
    GtidSet own = watermark.current();
    if (!own.isEmpty() && !cluster.knownOnPrimary().contains(own)) {
      forgetLost(own);
    }
    for (int i = 0; i < scopes; i++) {
      ReadBound b = readScopes[i].bound();
      if (!b.unverified().isEmpty()) {
        forgetLostReads(readScopes[i], b);
      }
    }
    placed(ReadPlacement.PRIMARY_UNKNOWN_GTIDS, 0, primary);
    return false;
  }

  private void verifiedReads(GtidSet executedByPrimary, int scopes) {
    for (int i = 0; i < scopes; i++) {
      readScopes[i].verified(executedByPrimary);
    }
  }

  private static String abbreviate(GtidSet set) {
    String text = set.toString();
    return text.length() <= 120 ? text : text.substring(0, 117) + "...";
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
    if (on != primary && replicas.deferredWait(on) != null) {
      PhysicalConnection next = afterPipelinedWaitFailed(e);
      if (next != null) {
        return next;
      }
    }
    if (on != primary) {
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
        r = primary;
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
    primary.markBroken();
    boolean inTransaction = transactionDirty || !autoCommit || sqlTransaction != SqlTransaction.NONE;
    boolean read = kind == StatementKind.READ || kind == StatementKind.PRIMARY_READ;
    if (inTransaction || pinnedToPrimary || !(refused || read)) {
      LOG.warn("[{}] primary connection {} {}; not run again ({}): {}", cluster.name(), primary,
          refused ? "refused the statement (read-only)" : "failed",
          inTransaction ? "inside a transaction" : pinnedToPrimary ? "session state pinned to it" : "a write may have committed",
          e.getMessage());
      throw e;
    }
    replacePrimary(refused ? "the primary refused a write (read-only)" : "the primary connection failed: " + e.getMessage());
    cluster.metrics().readRetried();
    last = primary;
    return primary;
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
    if (on == primary) {
      primary.markBroken();
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
    last = primary;
    return primary;
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
      r = replicas.deferredWaitFailed(true);
      placed(replicas.placement(), replicas.lastWaitNanos(), r != null ? r : primary);
    } else {
      replicas.abandonDeferredWait();
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
      r = primary;
    }
    last = r;
    return r;
  }

  // ---------------------------------------------------------------- the primary connection: reconnect, failover

  /**
   * Before a statement runs on the primary: gives the physical connection the application's read-only
   * and autocommit flags where they differ (HikariCP's dirty-bit idea, applied to routing). Read-only
   * first, so a transaction it opens is read-only on the server, exactly as with Connector/J alone.
   */
  private void syncPrimary() throws SQLException {
    if (primaryReadOnly != readOnly) {
      primary.jdbc().setReadOnly(readOnly);
      primaryReadOnly = readOnly;
    }
    if (primaryAutoCommit != autoCommit) {
      primary.jdbc().setAutoCommit(autoCommit);
      primaryAutoCommit = autoCommit;
    }
  }

  /** Before a statement: a broken primary connection, or one to a server that is no longer the primary, is replaced. */
  private void ensurePrimary() throws SQLException {
    if (transactionDirty) {
      return;
    }
    boolean moved = cluster.primaryEpoch() != primaryEpoch;
    if (!moved && !primary.isClosed()) {
      return;
    }
    replacePrimary(moved ? "the cluster moved to primary " + cluster.primaryEndpoint() : "the primary connection was closed");
  }

  private void replacePrimary(String why) throws SQLException {
    PhysicalConnection old = primary;
    PhysicalConnection fresh = connectPrimary(false);
    old.close();
    if (pinnedToPrimary) {
      LOG.warn("[{}] session state pinned to the old primary connection (temporary tables, locks...) is lost: {}",
          cluster.name(), why);
    }
    primary = fresh;
    SessionMirror mirror = new SessionMirror(session);
    mirror.sync(fresh.jdbc(), true);
    primaryAutoCommit = true;
    primaryReadOnly = false;
    primaryMirror = mirror;
    captureDue = true;
    cluster.metrics().primaryReconnected();
    LOG.info("[{}] new primary connection to {} ({})", cluster.name(), fresh.host(), why);
    checkWatermarkAgainstPrimary();
  }

  /**
   * Opens a connection to the cluster's primary; when it is unreachable or read-only, looks for the
   * writable server among the URL's hosts and connects there. A running connection ({@code atLogin}
   * false) looks for up to {@code ryow.failoverTimeout}: the application keeps its connection through a
   * failover. A login looks once (one round over the hosts) and fails at once if no host is writable;
   * waiting for another thread's search is bounded by the caller's {@code DriverManager.setLoginTimeout}
   * or {@code connectTimeout} (the smaller), so {@code connect()} stays within what the caller set.
   */
  private PhysicalConnection connectPrimary(boolean atLogin) throws SQLException {
    long epoch = cluster.primaryEpoch();
    ReplicaEndpoint target = cluster.primaryEndpoint();
    long failedAt = System.nanoTime();
    String trouble;
    try {
      PhysicalConnection p = connector.openPrimary(config, target.host(), this::wrote);
      if (!p.identity().readOnly()) {
        primaryEpoch = epoch;
        cluster.loggedIn(config);
        return p;
      }
      p.close();
      trouble = "the primary " + target + " is read-only";
    } catch (SQLException e) {
      if (!Sql.isUnreachable(e)) {
        throw e;
      }
      trouble = "the primary " + target + " is unreachable: " + e.getMessage();
    }
    ReplicaEndpoint found = atLogin
        ? cluster.discoverPrimary(epoch, failedAt, 0, trouble, loginBudgetMillis())
        : cluster.discoverPrimary(epoch, failedAt, cluster.failoverTimeoutMillis(), trouble);
    long epochNow = cluster.primaryEpoch();
    PhysicalConnection p = connector.openPrimary(config, found.host(), this::wrote);
    if (p.identity().readOnly()) {
      p.close();
      throw new SQLTransientConnectionException(
          "The primary " + found + " turned read-only while connecting (" + trouble + "): retry.", "08001");
    }
    primaryEpoch = epochNow;
    cluster.loggedIn(config);
    return p;
  }

  /**
   * How long a login may wait for another thread's primary discovery: the smaller of
   * {@code DriverManager.getLoginTimeout()} and Connector/J's {@code connectTimeout} that are set,
   * else {@code ryow.failoverTimeout}.
   */
  private long loginBudgetMillis() {
    long budget = java.sql.DriverManager.getLoginTimeout() * 1000L;
    String connectTimeout = config.connectorProperties().getProperty("connectTimeout");
    if (connectTimeout != null) {
      try {
        long millis = Long.parseLong(connectTimeout.trim());
        if (millis > 0 && (budget <= 0 || millis < budget)) {
          budget = millis;
        }
      } catch (NumberFormatException e) {
        // Connector/J refuses such a value itself when it connects.
      }
    }
    return budget > 0 ? budget : cluster.failoverTimeoutMillis();
  }

  /**
   * GTIDs of writes of ours (from the primary's OK packet, or a query capture): they join this
   * connection's watermark, the scope bound to the thread (if any) and the cluster's JVM-wide set.
   */
  private void wrote(GtidSet gtids) {
    GtidSet covering = cluster.wrote(gtids);
    watermark.advance(covering);
    watermarkGrewNanos = System.nanoTime();
    ConsistencyScope scope = ConsistencyScope.current();
    if (scope != null) {
      scope.advance(covering);
    }
  }

  /**
   * Cheap check before a replica read: the poller read the primary's {@code gtid_executed} after this
   * watermark last grew, yet it does not contain the watermark. Then some GTIDs of the watermark were
   * never executed by this primary (a token from a lost primary or another cluster): confirmed with
   * {@code GTID_SUBSET} on the primary and forgotten, instead of making every read wait for them.
   */
  private void forgetWhatThePrimaryLacks() throws SQLException {
    Cluster.PrimaryPosition position = cluster.primaryPosition();
    if (position.polledAtNanos() - watermarkGrewNanos <= 0 || primaryEpoch != cluster.primaryEpoch()
        || primary.isClosed()) {
      return;
    }
    GtidSet wm = watermark.current();
    if (wm.isEmpty() || position.executed().contains(wm)) {
      return;
    }
    watermarkGrewNanos = System.nanoTime();
    forgetLost(wm);
  }

  private void forgetLost(GtidSet wm) throws SQLException {
    GtidSet[] split = primary.splitByExecuted(wm);
    if (!split[0].isEmpty() && watermark.forget(wm, split[1])) {
      cluster.metrics().lostGtidsForgotten();
      LOG.warn("[{}] the primary {} has not executed {} of this connection's watermark (lost with an old primary, or"
          + " a token from elsewhere); forgetting them so that reads do not wait for GTIDs no server has",
          cluster.name(), primary.host(), split[0]);
    }
  }

  /**
   * After the cluster moved to another primary: GTIDs of the watermark the new primary has not
   * executed were lost with the old one (or never existed); no server will ever have them, so waiting
   * for them would only time out. Policy: forget them (logged at WARN with the GTIDs, counted in
   * {@code lostGtidsForgotten}); the rest of the watermark still holds.
   */
  private void checkWatermarkAgainstPrimary() throws SQLException {
    long epoch = primaryEpoch;
    if (watermarkCheckedEpoch == epoch) {
      return;
    }
    GtidSet wm = watermark.current();
    if (!wm.isEmpty() && !cluster.primaryPosition().executed().contains(wm)) {
      forgetLost(wm);
    }
    watermarkCheckedEpoch = epoch;
  }

  /** Bookkeeping after a statement of {@code kind} ran on {@code on}. */
  public void completed(StatementKind ranAs, PhysicalConnection on) throws SQLException {
    StatementKind kind = ranAs;
    if (rerunAsWrite) {
      rerunAsWrite = false;
      kind = StatementKind.WRITE;
    }
    boolean onPrimary = on == primary;
    if (replicaRoute && monotonicReads && kind != StatementKind.WRITE) {
      readCompleted(on);
    }
    if (!onPrimary) {
      replicas.ran(on);
      cluster.metrics().replicaRead();
    } else if (kind == StatementKind.READ || kind == StatementKind.PRIMARY_READ) {
      cluster.metrics().primaryRead();
    } else {
      cluster.metrics().primaryWrite();
      captureDue = true;
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
    if (queryCapture && captureDue && autoCommit && sqlTransaction == SqlTransaction.NONE && sharesWrites()) {
      captureWithQuery();
    }
    if (!queryCapture && !primary.ownGtidTrackingIntact()) {
      LOG.warn("[{}] GTID tracking on the primary connection was lost (reconnect?); capturing by query",
          cluster.name());
      captureWithQuery();
    }
  }

  /** Whether other connections may read this one's writes right away (scope or JVM mode): capture eagerly. */
  private boolean sharesWrites() {
    ConsistencyScope scope = ConsistencyScope.current();
    return scope != null || effectiveMode(scope) == ConsistencyMode.JVM;
  }

  /**
   * Records a session-level statement ({@code SET}, or {@code USE} for {@code kind} {@link StatementKind#USE})
   * that ran on the primary; replica connections replay it before their next use.
   */
  public void sessionStatement(StatementKind kind, String sql) {
    if (kind == StatementKind.USE) {
      session.use(sql, null);
    } else {
      session.record(sql, null);
    }
    primaryMirror.markApplied(autoCommit);
  }

  /** Records a prepared session-level statement and its parameters for replay on other connections. */
  public void sessionStatement(StatementKind kind, String sql, ParameterRecorder parameters) {
    if (kind == StatementKind.USE) {
      session.use(sql, parameters.copy());
    } else {
      session.record(sql, parameters.copy());
    }
    primaryMirror.markApplied(autoCommit);
  }

  /** A batch of writes ran on the primary. */
  public void batchCompleted() throws SQLException {
    completed(StatementKind.WRITE, primary);
  }

  private void captureIfDue() throws SQLException {
    if (captureDue) {
      captureWithQuery();
    }
  }

  private void captureWithQuery() throws SQLException {
    wrote(primary.readExecutedGtids());
    cluster.metrics().gtidQuery();
    captureDue = false;
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

  public String consistencyToken() throws SQLException {
    checkOpen();
    if (queryCapture) {
      captureIfDue();
    }
    TokenCodec codec = cluster.tokenCodec();
    GtidSet own = watermark.current();
    GtidSet seen = GtidSet.EMPTY;
    List<String> pending = List.of();
    if (monotonicReads) {
      reads.resolve(cluster);
      seen = reads.bound().full();
      pending = new ArrayList<>(2);
      reads.pendingServers(pending);
    }
    if (!codec.fits(own, seen, pending)) {
      own = filledOnPrimary(own);
    }
    try {
      return codec.encode(own, seen, pending);
    } catch (IllegalArgumentException e) {
      throw new SQLNonTransientException("[" + cluster.name() + "] " + e.getMessage(), "22023", e);
    }
  }

  /**
   * Compacts the watermark exactly: fills its gaps from the primary's {@code gtid_executed}, read now
   * (one statement; only for a token that would not fit its bounds otherwise).
   */
  private GtidSet filledOnPrimary(GtidSet own) throws SQLException {
    watermark.advance(own.filledFrom(primaryExecutedNow()));
    return watermark.current();
  }

  /** The primary's {@code gtid_executed}, read now (one statement), which the cluster then knows it has. */
  private GtidSet primaryExecutedNow() throws SQLException {
    ensurePrimary();
    GtidSet executed = primary.readExecutedGtids();
    cluster.metrics().gtidQuery();
    cluster.primaryHas(executed);
    return executed;
  }

  public void mergeConsistencyToken(String token) throws SQLException {
    checkOpen();
    TokenCodec.Contents contents = cluster.tokenCodec().read(token);
    watermark.advance(contents.writes());
    watermarkGrewNanos = System.nanoTime();
    if (monotonicReads) {
      reads.imported(contents.reads(), contents.pendingServers(), System.nanoTime());
    }
  }

  public void setConsistencyMode(@Nullable ConsistencyMode mode) throws SQLException {
    checkOpen();
    modeOverride = mode;
  }

  public ConsistencyMode consistencyMode() {
    return effectiveMode(ConsistencyScope.current());
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
        if (!primaryAutoCommit) {
          primary.jdbc().setAutoCommit(true);
          primaryAutoCommit = true;
        }
        replicas.commitOrRollback(true);
      } finally {
        endTransaction();
        captureDue = true;
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
      primary.jdbc().commit(); // Connector/J's own answer to a commit in autocommit mode
      return;
    }
    try {
      // Only the servers that took part: a primary connection still in autocommit mode ran nothing of it.
      if (!primaryAutoCommit) {
        primary.jdbc().commit();
      }
      replicas.commitOrRollback(true);
    } finally {
      // Committed or not, the transaction is over (a failed commit leaves its outcome to the caller).
      endTransaction();
      captureDue = true;
    }
    if (queryCapture && sharesWrites()) {
      captureWithQuery();
    }
  }

  public void rollback() throws SQLException {
    checkOpen();
    if (autoCommit) {
      syncPrimary();
      primary.jdbc().rollback(); // Connector/J's own answer to a rollback in autocommit mode
      return;
    }
    try {
      if (!primaryAutoCommit) {
        primary.jdbc().rollback();
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
    return primary.jdbc();
  }

  /** Clears the warnings of every physical connection. */
  public void clearWarnings() throws SQLException {
    checkOpen();
    primary.jdbc().clearWarnings();
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
   * {@code CATALOG} (the default), does nothing when it is {@code SCHEMA}. Replica connections follow
   * what the primary connection did (see {@link #databaseCall}).
   */
  public void setCatalog(String catalog) throws SQLException {
    checkOpen();
    databaseCall(c -> c.setCatalog(catalog));
  }

  /**
   * Runs {@code setCatalog} or {@code setSchema} on the primary connection, then records the database
   * its Connector/J is in now, which every replica connection moves to before its next use. Whether the
   * call did anything depends on Connector/J's {@code databaseTerm}; asking Connector/J afterwards
   * follows it whatever the setting. When the database did not change but a {@code USE} sent as SQL had
   * moved the session elsewhere, the call may or may not have moved it back: the primary is asked
   * ({@code SELECT DATABASE()}, only in that case).
   */
  private void databaseCall(DatabaseCall call) throws SQLException {
    Connection c = primary.jdbc();
    String before = CurrentDatabase.of(c);
    call.on(c);
    String after = CurrentDatabase.of(c);
    if (after == null) {
      return;
    }
    if (!after.equals(before) || (session.use != null && after.equals(CurrentDatabase.onServer(c)))) {
      session.database(after);
    }
    primaryMirror.markApplied(autoCommit);
  }

  /** The database the primary's Connector/J is in now: a statement created now runs there (Connector/J's rule). */
  public @Nullable String currentDatabase() throws SQLException {
    return CurrentDatabase.of(primary.jdbc());
  }

  /**
   * Creates a physical statement on {@code on} for a logical statement created while the connection was
   * in {@code database}. Connector/J runs each statement in the database that was current when it was
   * created; the logical statement creates its physical ones on first use, so when the connection has
   * moved since, the physical statement is created in {@code database} (two {@code USE} round trips,
   * only in that case) and then behaves as the application's statement would with Connector/J alone.
   */
  public <S> S createIn(@Nullable String database, PhysicalConnection on, StatementFactory<S> factory) throws SQLException {
    Connection c = on.jdbc();
    String now = database == null ? null : CurrentDatabase.of(c);
    if (now == null || now.equals(database)) {
      return factory.create(c);
    }
    CurrentDatabase.set(c, database);
    try {
      return factory.create(c);
    } finally {
      CurrentDatabase.set(c, now);
      SessionState.Recorded use = session.use;
      if (use != null) {
        use.replay(c);
      }
    }
  }

  /** Creates one physical statement on a JDBC connection. */
  @FunctionalInterface
  public interface StatementFactory<S> {
    S create(Connection c) throws SQLException;
  }

  /** {@code setCatalog} or {@code setSchema} on the primary's JDBC connection. */
  @FunctionalInterface
  private interface DatabaseCall {
    void on(Connection c) throws SQLException;
  }

  /**
   * As Connector/J: moves the connection to {@code schema} when its {@code databaseTerm} is
   * {@code SCHEMA}, does nothing when it is {@code CATALOG} (the default).
   */
  public void setSchema(String schema) throws SQLException {
    checkOpen();
    databaseCall(c -> c.setSchema(schema));
  }

  public void setTransactionIsolation(int level) throws SQLException {
    checkOpen();
    primary.jdbc().setTransactionIsolation(level);
    session.isolation(level);
    primaryMirror.markApplied(autoCommit);
  }

  public void setHoldability(int holdability) throws SQLException {
    checkOpen();
    primary.jdbc().setHoldability(holdability);
    session.holdability(holdability);
    primaryMirror.markApplied(autoCommit);
  }

  public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
    checkOpen();
    primary.jdbc().setNetworkTimeout(executor, milliseconds);
    session.networkTimeout(executor, milliseconds);
    primaryMirror.markApplied(autoCommit);
  }

  public void setClientInfo(String name, @Nullable String value) throws SQLClientInfoException {
    primary.jdbc().setClientInfo(name, value);
    session.clientInfo(name, value);
    primaryMirror.markApplied(autoCommit);
  }

  public void setClientInfo(Properties properties) throws SQLClientInfoException {
    primary.jdbc().setClientInfo(properties);
    session.clientInfo(properties);
    primaryMirror.markApplied(autoCommit);
  }

  // ---------------------------------------------------------------- lifecycle

  public boolean isValid(int timeout) throws SQLException {
    return !closed && primary.jdbc().isValid(timeout);
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
    primary.close();
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
    primary.abort(executor);
  }


  @Override
  public String toString() {
    return "RyowConnection[" + cluster.name() + ", primary=" + primary.host() + ", replicas=" + replicas + ", closed="
        + closed + "]";
  }
}
