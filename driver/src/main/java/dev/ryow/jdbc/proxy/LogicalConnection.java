package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.config.GtidCaptureMode;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.UnknownGtidPolicy;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import dev.ryow.jdbc.route.Cluster;
import dev.ryow.jdbc.route.ConsistencyGate;
import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.route.ReplicaEndpoint;
import dev.ryow.jdbc.route.Router;
import dev.ryow.jdbc.route.SqlTransaction;
import dev.ryow.jdbc.route.Target;
import dev.ryow.jdbc.route.Watermark;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.PhysicalConnection;
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
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.ShardingKey;
import java.sql.Statement;
import java.sql.Struct;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Connection} an application gets from {@code jdbc:ryow:}. Holds the primary physical
 * connection, a lazily opened replica connection, the session state both must share and the
 * connection's watermark, and decides for each statement which one runs it.
 *
 * <p>Like any JDBC connection it is meant for one thread at a time.
 */
public final class LogicalConnection implements Connection, RyowConnection {
  private static final Logger LOG = LoggerFactory.getLogger(LogicalConnection.class);

  private final Cluster cluster;
  private final RyowConfig config;
  private final ConnectorJ connector;
  private final Watermark watermark;
  private final ConsistencyGate gate;
  private final PhysicalConnection primary;
  private final boolean queryCapture;
  private final int replicaStart;

  private @Nullable PhysicalConnection replica;
  private @Nullable ReplicaEndpoint replicaEndpoint;
  private final SessionMirror replicaSession = new SessionMirror();

  private boolean autoCommit = true;
  private boolean readOnly;
  private SqlTransaction sqlTransaction = SqlTransaction.NONE;
  /** autoCommit=false and a statement ran since the last commit or rollback. */
  private boolean transactionStarted;
  /**
   * Where the reads of the current transaction run, once its first read was placed: a read-only
   * transaction stays on one server (and waits once).
   */
  private @Nullable PhysicalConnection transactionReads;
  /**
   * A statement created session state that only the primary has (temporary table, user lock,
   * {@code LOCK TABLES}, server-side {@code PREPARE}, {@code SET autocommit}...): every later statement of
   * this logical connection runs on the primary until it is closed.
   */
  private boolean pinnedToPrimary;
  /** Query capture mode: the primary may hold writes of ours that the watermark does not name yet. */
  private boolean captureDue;
  private @Nullable PhysicalConnection last;
  private @Nullable ReadPlacement lastPlacement;
  private long lastWaitNanos;
  private @Nullable PhysicalConnection lastReadOn;
  /** Set by {@link RyowConnection#setConsistencyMode}; null: the scope's mode, else the URL's. */
  private @Nullable ConsistencyMode modeOverride;
  private boolean closed;

  private LogicalConnection(Cluster cluster, RyowConfig config, ConnectorJ connector, Watermark watermark)
      throws SQLException {
    this.cluster = cluster;
    this.config = config;
    this.connector = connector;
    this.watermark = watermark;
    this.gate = new ConsistencyGate(cluster);
    this.queryCapture = config.get(RyowProperties.GTID_CAPTURE) == GtidCaptureMode.QUERY;
    this.primary = connector.openPrimary(config, this::wrote);
    this.replicaStart = cluster.nextReplicaStart();
  }

  /** Opens the primary connection; the replica connection opens on the first replica read. */
  public static LogicalConnection open(Cluster cluster, RyowConfig config, ConnectorJ connector) throws SQLException {
    return new LogicalConnection(cluster, config, connector, new Watermark());
  }

  // ---------------------------------------------------------------- routing, used by statements

  /** The primary physical connection. */
  PhysicalConnection primary() {
    return primary;
  }

  /**
   * Chooses the physical connection for one statement, waiting for the watermark on a replica when
   * needed. Call {@link #completed} after the statement ran.
   */
  PhysicalConnection acquire(StatementKind kind) throws SQLException {
    checkOpen();
    PhysicalConnection target = primary;
    if (Router.route(kind, autoCommit, readOnly, sqlTransaction, pinnedToPrimary) == Target.REPLICA) {
      PhysicalConnection sticky = transactionReads;
      if (sticky != null) {
        target = sticky;
      } else {
        PhysicalConnection r = replicaReadyForRead();
        if (r != null) {
          target = r;
        }
        if (!autoCommit || kind == StatementKind.BEGIN_READ_ONLY) {
          transactionReads = target;
        }
      }
    }
    last = target;
    if (LOG.isTraceEnabled()) {
      LOG.trace("[{}] {} statement runs on {}", cluster.name(), kind, target);
    }
    return target;
  }

  private @Nullable PhysicalConnection replicaReadyForRead() throws SQLException {
    ConsistencyScope scope = ConsistencyScope.current();
    ConsistencyMode mode = effectiveMode(scope);
    GtidSet required = mode == ConsistencyMode.NONE ? GtidSet.EMPTY : requiredFor(mode, scope);
    if (!required.isEmpty() && !primaryKnowsAll(required)) {
      return null;
    }
    PhysicalConnection r = replicaConnection();
    if (r == null) {
      placed(ReadPlacement.PRIMARY_FALLBACK, 0, primary);
      return null;
    }
    ReplicaEndpoint endpoint = replicaEndpoint;
    try {
      replicaSession.sync(r.jdbc(), autoCommit || !readOnly);
      if (mode == ConsistencyMode.NONE) {
        placed(ReadPlacement.REPLICA_UNCHECKED, 0, r);
        return r;
      }
      ReadPlacement placement = gate.admit(r, endpoint, required);
      boolean onReplica = placement != ReadPlacement.PRIMARY_FALLBACK;
      placed(placement, gate.lastWaitNanos(), onReplica ? r : primary);
      return onReplica ? r : null;
    } catch (SQLException e) {
      if (!Sql.isConnectionFailure(e)) {
        throw e;
      }
      dropReplica(e);
      cluster.metrics().fellBackToPrimary();
      placed(ReadPlacement.PRIMARY_FALLBACK, 0, primary);
      return null;
    }
  }

  private ConsistencyMode effectiveMode(@Nullable ConsistencyScope scope) {
    ConsistencyMode m = modeOverride;
    if (m != null) {
      return m;
    }
    return scope != null ? scope.mode() : cluster.consistency();
  }

  /** The GTIDs a replica must have executed before this read, for {@code mode}. */
  private GtidSet requiredFor(ConsistencyMode mode, @Nullable ConsistencyScope scope) throws SQLException {
    if (queryCapture) {
      captureIfDue();
    }
    GtidSet own = watermark.current();
    return switch (mode) {
      case NONE -> GtidSet.EMPTY;
      case CONNECTION -> own;
      case SCOPE -> scope == null ? own : own.union(scope.gtids());
      case JVM -> (scope == null ? own : own.union(scope.gtids())).union(cluster.jvmWrites());
      case LATEST -> {
        GtidSet executed = primary.readExecutedGtids();
        cluster.metrics().gtidQuery();
        cluster.primaryHas(executed);
        yield own.union(executed);
      }
    };
  }

  /**
   * Whether the primary has executed everything in {@code required}. Sets from outside (tokens) that
   * the cluster has not seen are checked once with {@code GTID_SUBSET}; GTIDs no server will ever have
   * must not make reads wait: per {@code ryow.unknownGtids} the read goes to the primary, or fails.
   */
  private boolean primaryKnowsAll(GtidSet required) throws SQLException {
    if (cluster.knownOnPrimary().contains(required)) {
      return true;
    }
    cluster.metrics().gtidSubsetCheck();
    if (primary.hasExecuted(required)) {
      cluster.primaryHas(required);
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
    placed(ReadPlacement.PRIMARY_UNKNOWN_GTIDS, 0, primary);
    return false;
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

  /** A GTID the primary reported for a write of this connection (own_gtid capture). */
  private void wrote(GtidSet gtids) {
    watermark.advance(gtids);
    cluster.wrote(gtids);
    ConsistencyScope scope = ConsistencyScope.current();
    if (scope != null) {
      scope.advance(gtids);
    }
  }

  private @Nullable PhysicalConnection replicaConnection() {
    PhysicalConnection r = replica;
    if (r != null) {
      return r;
    }
    List<ReplicaEndpoint> replicas = cluster.replicas();
    for (int attempt = 0; attempt < replicas.size(); attempt++) {
      ReplicaEndpoint endpoint = cluster.replicaForAttempt(replicaStart, attempt);
      try {
        r = connector.openReplica(config, endpoint.host());
        replica = r;
        replicaEndpoint = endpoint;
        replicaSession.newConnection();
        gate.replicaChanged();
        return r;
      } catch (SQLException e) {
        LOG.warn("[{}] replica {} unavailable, trying the next: {}", cluster.name(), endpoint, e.getMessage());
      }
    }
    return null;
  }

  /**
   * After {@code e} on {@code on}: returns the primary when the statement may safely run again there
   * (a read whose replica connection failed), otherwise rethrows {@code e}.
   */
  PhysicalConnection retryTarget(PhysicalConnection on, SQLException e) throws SQLException {
    if (on == primary
        || !Sql.isConnectionFailure(e)
        || !autoCommit
        || sqlTransaction != SqlTransaction.NONE
        || transactionReads != null) {
      throw e;
    }
    dropReplica(e);
    cluster.metrics().fellBackToPrimary();
    placed(ReadPlacement.PRIMARY_FALLBACK, 0, primary);
    last = primary;
    return primary;
  }

  private void dropReplica(SQLException cause) {
    PhysicalConnection r = replica;
    LOG.warn("[{}] replica connection {} failed, reads go to the primary until another opens: {}",
        cluster.name(), r, cause.getMessage());
    replica = null;
    replicaEndpoint = null;
    gate.replicaChanged();
    if (r != null) {
      r.close();
    }
  }

  /** Bookkeeping after a statement of {@code kind} ran on {@code on}. */
  void completed(StatementKind kind, PhysicalConnection on) throws SQLException {
    if (on != primary) {
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
          sqlTransaction = on == primary ? SqlTransaction.ON_PRIMARY : SqlTransaction.READ_ONLY_ON_REPLICA;
      case COMMIT, ROLLBACK -> transactionEnded();
      case SESSION_PIN -> {
        if (!pinnedToPrimary) {
          LOG.debug("[{}] session state that cannot be mirrored: pinned to the primary", cluster.name());
        }
        pinnedToPrimary = true;
      }
      default -> { }
    }
    if (queryCapture && captureDue && autoCommit && sqlTransaction == SqlTransaction.NONE && sharesWrites()) {
      captureWithQuery();
    }
    if (on == primary && !queryCapture && !primary.ownGtidTrackingIntact()) {
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

  private void transactionEnded() {
    sqlTransaction = SqlTransaction.NONE;
    transactionStarted = false;
    transactionReads = null;
  }

  /** Records a session-level statement that the replica connection must replay before its next use. */
  void sessionStatement(String sql) {
    replicaSession.record(sql);
  }

  /** Records a prepared session-level statement and its parameters for replay on the replica. */
  void sessionStatement(String sql, ParameterRecorder parameters) {
    replicaSession.record(sql, parameters.copy());
  }

  /** A batch of writes ran on the primary. */
  void batchCompleted() throws SQLException {
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

  /** The cluster this connection belongs to. */
  Cluster cluster() {
    return cluster;
  }

  private void checkOpen() throws SQLException {
    if (closed) {
      throw new SQLNonTransientConnectionException("Connection is closed", "08003");
    }
  }

  // ---------------------------------------------------------------- RyowConnection

  @Override
  public String consistencyToken() throws SQLException {
    checkOpen();
    if (queryCapture) {
      captureIfDue();
    }
    return cluster.tokenCodec().encode(watermark.current());
  }

  @Override
  public void mergeConsistencyToken(String token) throws SQLException {
    checkOpen();
    watermark.advance(cluster.tokenCodec().decode(token));
  }

  @Override
  public void setConsistencyMode(@Nullable ConsistencyMode mode) throws SQLException {
    checkOpen();
    modeOverride = mode;
  }

  @Override
  public ConsistencyMode consistencyMode() {
    return effectiveMode(ConsistencyScope.current());
  }

  @Override
  public @Nullable ReadReport lastRead() {
    ReadPlacement placement = lastPlacement;
    PhysicalConnection on = lastReadOn;
    return placement == null || on == null ? null : new ReadReport(placement, lastWaitNanos, on.role(), on.host().address());
  }

  @Override
  public @Nullable ServerRole lastServerRole() {
    PhysicalConnection l = last;
    return l == null ? null : l.role();
  }

  @Override
  public @Nullable String lastServerAddress() {
    PhysicalConnection l = last;
    return l == null ? null : l.host().address();
  }

  @Override
  public MetricsSnapshot clusterMetrics() {
    return cluster.metrics().snapshot();
  }


  // ---------------------------------------------------------------- statements

  @Override
  public Statement createStatement() throws SQLException {
    return createStatement(java.sql.ResultSet.TYPE_FORWARD_ONLY, java.sql.ResultSet.CONCUR_READ_ONLY);
  }

  @Override
  public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
    return createStatement(resultSetType, resultSetConcurrency, primary.jdbc().getHoldability());
  }

  @Override
  public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
      throws SQLException {
    checkOpen();
    return new RoutingStatement(this, StatementShape.of(resultSetType, resultSetConcurrency, resultSetHoldability));
  }

  @Override
  public PreparedStatement prepareStatement(String sql) throws SQLException {
    checkOpen();
    return RoutingPreparedStatement.prepare(this, sql, StatementShape.DEFAULT);
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
      throws SQLException {
    checkOpen();
    return RoutingPreparedStatement.prepare(
        this, sql, StatementShape.of(resultSetType, resultSetConcurrency, primary.jdbc().getHoldability()));
  }

  @Override
  public PreparedStatement prepareStatement(
      String sql, int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    checkOpen();
    return RoutingPreparedStatement.prepare(
        this, sql, StatementShape.of(resultSetType, resultSetConcurrency, resultSetHoldability));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
    checkOpen();
    return RoutingPreparedStatement.prepare(this, sql, StatementShape.generatedKeys(autoGeneratedKeys));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
    checkOpen();
    return RoutingPreparedStatement.prepare(this, sql, StatementShape.keyColumns(columnIndexes));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
    checkOpen();
    return RoutingPreparedStatement.prepare(this, sql, StatementShape.keyColumns(columnNames));
  }

  @Override
  public CallableStatement prepareCall(String sql) throws SQLException {
    checkOpen();
    return primaryCall(primary.jdbc().prepareCall(sql));
  }

  @Override
  public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
    checkOpen();
    return primaryCall(primary.jdbc().prepareCall(sql, resultSetType, resultSetConcurrency));
  }

  @Override
  public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency, int holdability)
      throws SQLException {
    checkOpen();
    return primaryCall(primary.jdbc().prepareCall(sql, resultSetType, resultSetConcurrency, holdability));
  }

  /** Stored procedures always run on the primary; see {@link PrimaryCallableStatement}. */
  private CallableStatement primaryCall(CallableStatement call) {
    return new PrimaryCallableStatement(this, call);
  }

  @Override
  public String nativeSQL(String sql) throws SQLException {
    return primary.jdbc().nativeSQL(sql);
  }

  // ---------------------------------------------------------------- transactions and session state

  @Override
  public void setAutoCommit(boolean autoCommit) throws SQLException {
    checkOpen();
    primary.jdbc().setAutoCommit(autoCommit);
    if (autoCommit && !this.autoCommit) {
      // JDBC: switching autocommit on commits the open transaction, on every server that holds part of it.
      commitOrRollbackReplica(true);
      transactionEnded();
      captureDue = true;
    }
    this.autoCommit = autoCommit;
  }

  @Override
  public boolean getAutoCommit() throws SQLException {
    checkOpen();
    return autoCommit;
  }

  @Override
  public void commit() throws SQLException {
    checkOpen();
    try {
      primary.jdbc().commit();
      commitOrRollbackReplica(true);
    } finally {
      transactionEnded();
      captureDue = true;
    }
    if (queryCapture && sharesWrites()) {
      captureWithQuery();
    }
  }

  @Override
  public void rollback() throws SQLException {
    checkOpen();
    try {
      primary.jdbc().rollback();
      commitOrRollbackReplica(false);
    } finally {
      transactionEnded();
    }
  }

  private void commitOrRollbackReplica(boolean commit) throws SQLException {
    PhysicalConnection r = replica;
    if (r != null && !replicaSession.autoCommit()) {
      if (commit) {
        r.jdbc().commit();
      } else {
        r.jdbc().rollback();
      }
    }
  }

  @Override
  public void rollback(Savepoint savepoint) throws SQLException {
    checkOpen();
    primary.jdbc().rollback(savepoint);
  }

  @Override
  public Savepoint setSavepoint() throws SQLException {
    checkOpen();
    return primary.jdbc().setSavepoint();
  }

  @Override
  public Savepoint setSavepoint(String name) throws SQLException {
    checkOpen();
    return primary.jdbc().setSavepoint(name);
  }

  @Override
  public void releaseSavepoint(Savepoint savepoint) throws SQLException {
    checkOpen();
    primary.jdbc().releaseSavepoint(savepoint);
  }

  /**
   * Sets the read-only flag. As JDBC allows, it cannot change inside a transaction that has already
   * run a statement (the transaction's server is chosen): commit or roll back first. Setting the
   * current value is always allowed.
   */
  @Override
  public void setReadOnly(boolean readOnly) throws SQLException {
    checkOpen();
    if (readOnly == this.readOnly) {
      return;
    }
    if (transactionStarted || sqlTransaction != SqlTransaction.NONE) {
      throw new SQLException(
          "Cannot change read-only mode inside a transaction that has started; commit or roll back first", "25000");
    }
    primary.jdbc().setReadOnly(readOnly);
    this.readOnly = readOnly;
  }

  @Override
  public boolean isReadOnly() throws SQLException {
    checkOpen();
    return readOnly;
  }

  @Override
  public void setCatalog(String catalog) throws SQLException {
    checkOpen();
    primary.jdbc().setCatalog(catalog);
    replicaSession.catalog(catalog);
  }

  @Override
  public @Nullable String getCatalog() throws SQLException {
    return primary.jdbc().getCatalog();
  }

  @Override
  public void setSchema(String schema) throws SQLException {
    checkOpen();
    primary.jdbc().setSchema(schema);
    replicaSession.catalog(schema);
  }

  @Override
  public @Nullable String getSchema() throws SQLException {
    return primary.jdbc().getSchema();
  }

  @Override
  public void setTransactionIsolation(int level) throws SQLException {
    checkOpen();
    primary.jdbc().setTransactionIsolation(level);
    replicaSession.isolation(level);
  }

  @Override
  public int getTransactionIsolation() throws SQLException {
    return primary.jdbc().getTransactionIsolation();
  }

  @Override
  public void setHoldability(int holdability) throws SQLException {
    checkOpen();
    primary.jdbc().setHoldability(holdability);
    replicaSession.holdability(holdability);
  }

  @Override
  public int getHoldability() throws SQLException {
    return primary.jdbc().getHoldability();
  }

  @Override
  public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
    checkOpen();
    primary.jdbc().setNetworkTimeout(executor, milliseconds);
    replicaSession.networkTimeout(executor, milliseconds);
  }

  @Override
  public int getNetworkTimeout() throws SQLException {
    return primary.jdbc().getNetworkTimeout();
  }

  @Override
  public Map<String, Class<?>> getTypeMap() throws SQLException {
    return primary.jdbc().getTypeMap();
  }

  @Override
  public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
    primary.jdbc().setTypeMap(map);
  }

  @Override
  public void setClientInfo(String name, @Nullable String value) throws SQLClientInfoException {
    primary.jdbc().setClientInfo(name, value);
    replicaSession.clientInfo(name, value);
  }

  @Override
  public void setClientInfo(Properties properties) throws SQLClientInfoException {
    primary.jdbc().setClientInfo(properties);
    replicaSession.clientInfo(properties);
  }

  @Override
  public @Nullable String getClientInfo(String name) throws SQLException {
    return primary.jdbc().getClientInfo(name);
  }

  @Override
  public Properties getClientInfo() throws SQLException {
    return primary.jdbc().getClientInfo();
  }

  // ---------------------------------------------------------------- factories and metadata (primary)

  @Override
  public DatabaseMetaData getMetaData() throws SQLException {
    checkOpen();
    return new RoutedDatabaseMetaData(primary.jdbc().getMetaData(), this);
  }

  @Override
  public Clob createClob() throws SQLException {
    return primary.jdbc().createClob();
  }

  @Override
  public Blob createBlob() throws SQLException {
    return primary.jdbc().createBlob();
  }

  @Override
  public NClob createNClob() throws SQLException {
    return primary.jdbc().createNClob();
  }

  @Override
  public SQLXML createSQLXML() throws SQLException {
    return primary.jdbc().createSQLXML();
  }

  @Override
  public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
    return primary.jdbc().createArrayOf(typeName, elements);
  }

  @Override
  public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
    return primary.jdbc().createStruct(typeName, attributes);
  }

  @Override
  public @Nullable SQLWarning getWarnings() throws SQLException {
    checkOpen();
    return primary.jdbc().getWarnings();
  }

  @Override
  public void clearWarnings() throws SQLException {
    checkOpen();
    primary.jdbc().clearWarnings();
    PhysicalConnection r = replica;
    if (r != null) {
      r.jdbc().clearWarnings();
    }
  }

  @Override
  public void beginRequest() throws SQLException {
    primary.jdbc().beginRequest();
  }

  @Override
  public void endRequest() throws SQLException {
    primary.jdbc().endRequest();
  }

  @Override
  public boolean setShardingKeyIfValid(ShardingKey shardingKey, ShardingKey superShardingKey, int timeout)
      throws SQLException {
    return primary.jdbc().setShardingKeyIfValid(shardingKey, superShardingKey, timeout);
  }

  @Override
  public boolean setShardingKeyIfValid(ShardingKey shardingKey, int timeout) throws SQLException {
    return primary.jdbc().setShardingKeyIfValid(shardingKey, timeout);
  }

  @Override
  public void setShardingKey(ShardingKey shardingKey, ShardingKey superShardingKey) throws SQLException {
    primary.jdbc().setShardingKey(shardingKey, superShardingKey);
  }

  @Override
  public void setShardingKey(ShardingKey shardingKey) throws SQLException {
    primary.jdbc().setShardingKey(shardingKey);
  }

  // ---------------------------------------------------------------- lifecycle

  @Override
  public boolean isValid(int timeout) throws SQLException {
    return !closed && primary.jdbc().isValid(timeout);
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    PhysicalConnection r = replica;
    replica = null;
    if (r != null) {
      r.close();
    }
    primary.close();
  }

  @Override
  public void abort(Executor executor) throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    PhysicalConnection r = replica;
    replica = null;
    if (r != null) {
      r.abort(executor);
    }
    primary.abort(executor);
  }

  // ---------------------------------------------------------------- wrapper

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    return primary.jdbc().unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return iface.isInstance(this) || primary.jdbc().isWrapperFor(iface);
  }

  @Override
  public String toString() {
    return "RyowConnection[" + cluster.name() + ", replica=" + replica + ", closed=" + closed + "]";
  }
}
