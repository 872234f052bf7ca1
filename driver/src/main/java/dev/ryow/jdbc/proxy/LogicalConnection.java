package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.config.GtidCaptureMode;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.MalformedGtidSetException;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import dev.ryow.jdbc.route.Cluster;
import dev.ryow.jdbc.route.ConsistencyGate;
import dev.ryow.jdbc.route.ReadPlacement;
import dev.ryow.jdbc.route.ReplicaEndpoint;
import dev.ryow.jdbc.route.Router;
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
  private boolean inSqlTransaction;
  /**
   * A statement created session state that only the primary has (temporary table, user lock,
   * {@code LOCK TABLES}, server-side {@code PREPARE}, {@code SET autocommit}...): every later statement of
   * this logical connection runs on the primary until it is closed.
   */
  private boolean pinnedToPrimary;
  /** Query capture mode: the primary may hold writes of ours that the watermark does not name yet. */
  private boolean captureDue;
  /** Query capture mode: work ran on the primary outside our statements (CallableStatement), capture always. */
  private boolean uncapturedPrimaryWork;
  private @Nullable PhysicalConnection last;
  private @Nullable ReadPlacement lastPlacement;
  private boolean closed;

  private LogicalConnection(Cluster cluster, RyowConfig config, ConnectorJ connector, Watermark watermark)
      throws SQLException {
    this.cluster = cluster;
    this.config = config;
    this.connector = connector;
    this.watermark = watermark;
    this.gate = new ConsistencyGate(cluster);
    this.queryCapture = config.get(RyowProperties.GTID_CAPTURE) == GtidCaptureMode.QUERY;
    this.primary = connector.openPrimary(config, watermark::advance);
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
    if (Router.route(kind, autoCommit, readOnly, inSqlTransaction, pinnedToPrimary) == Target.REPLICA) {
      PhysicalConnection r = replicaReadyForRead();
      if (r != null) {
        target = r;
      }
    }
    last = target;
    if (LOG.isTraceEnabled()) {
      LOG.trace("[{}] {} statement runs on {}", cluster.name(), kind, target);
    }
    return target;
  }

  private @Nullable PhysicalConnection replicaReadyForRead() throws SQLException {
    if (queryCapture) {
      captureIfDue();
    }
    PhysicalConnection r = replicaConnection();
    if (r == null) {
      lastPlacement = ReadPlacement.PRIMARY_FALLBACK;
      return null;
    }
    ReplicaEndpoint endpoint = replicaEndpoint;
    try {
      replicaSession.sync(r.jdbc(), autoCommit || !readOnly);
      ReadPlacement placement = gate.admit(r, endpoint, watermark.current());
      lastPlacement = placement;
      return placement == ReadPlacement.PRIMARY_FALLBACK ? null : r;
    } catch (SQLException e) {
      if (!Sql.isConnectionFailure(e)) {
        throw e;
      }
      dropReplica(e);
      cluster.metrics().fellBackToPrimary();
      lastPlacement = ReadPlacement.PRIMARY_FALLBACK;
      return null;
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
    if (on == primary || !Sql.isConnectionFailure(e) || !autoCommit) {
      throw e;
    }
    dropReplica(e);
    cluster.metrics().fellBackToPrimary();
    lastPlacement = ReadPlacement.PRIMARY_FALLBACK;
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
      return;
    }
    if (kind == StatementKind.READ || kind == StatementKind.PRIMARY_READ) {
      cluster.metrics().primaryRead();
    } else {
      cluster.metrics().primaryWrite();
      captureDue = true;
    }
    switch (kind) {
      case BEGIN, BEGIN_READ_ONLY -> inSqlTransaction = true;
      case COMMIT, ROLLBACK -> inSqlTransaction = false;
      case SESSION_PIN -> {
        if (!pinnedToPrimary) {
          LOG.debug("[{}] session state that cannot be mirrored: pinned to the primary", cluster.name());
        }
        pinnedToPrimary = true;
      }
      default -> { }
    }
    if (!queryCapture && !primary.ownGtidTrackingIntact()) {
      LOG.warn("[{}] GTID tracking on the primary connection was lost (reconnect?); capturing by query",
          cluster.name());
      captureWithQuery();
    }
  }

  /** Records a session-level statement that the replica connection must replay before its next use. */
  void sessionStatement(String sql) {
    replicaSession.record(sql);
  }

  /** A batch of writes ran on the primary. */
  void batchCompleted() throws SQLException {
    completed(StatementKind.WRITE, primary);
  }

  private void captureIfDue() throws SQLException {
    if (captureDue || uncapturedPrimaryWork) {
      captureWithQuery();
    }
  }

  private void captureWithQuery() throws SQLException {
    watermark.advance(primary.readExecutedGtids());
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
    return watermark.current().toString();
  }

  @Override
  public void mergeConsistencyToken(String token) throws SQLException {
    try {
      watermark.advance(GtidSet.parse(token));
    } catch (MalformedGtidSetException e) {
      throw new SQLDataException("Malformed consistency token: " + e.getMessage(), "22023", e);
    }
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

  /** How the last replica-eligible read was placed, or null before the first. */
  public @Nullable ReadPlacement lastReadPlacement() {
    return lastPlacement;
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
    return primaryCall(primary.jdbc().prepareCall(sql));
  }

  @Override
  public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
    return primaryCall(primary.jdbc().prepareCall(sql, resultSetType, resultSetConcurrency));
  }

  @Override
  public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency, int holdability)
      throws SQLException {
    return primaryCall(primary.jdbc().prepareCall(sql, resultSetType, resultSetConcurrency, holdability));
  }

  /**
   * Stored procedures always run on the primary. In own_gtid mode their GTIDs arrive like any other;
   * in query mode this connection captures before every replica read from now on.
   */
  private CallableStatement primaryCall(CallableStatement call) throws SQLException {
    checkOpen();
    uncapturedPrimaryWork = queryCapture;
    last = primary;
    return call;
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
    this.autoCommit = autoCommit;
    if (autoCommit) {
      inSqlTransaction = false;
      captureDue = true;
    }
  }

  @Override
  public boolean getAutoCommit() throws SQLException {
    checkOpen();
    return autoCommit;
  }

  @Override
  public void commit() throws SQLException {
    checkOpen();
    primary.jdbc().commit();
    commitOrRollbackReplica(true);
    inSqlTransaction = false;
    captureDue = true;
  }

  @Override
  public void rollback() throws SQLException {
    checkOpen();
    primary.jdbc().rollback();
    commitOrRollbackReplica(false);
    inSqlTransaction = false;
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

  @Override
  public void setReadOnly(boolean readOnly) throws SQLException {
    checkOpen();
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
  public void setClientInfo(String name, String value) throws SQLClientInfoException {
    primary.jdbc().setClientInfo(name, value);
  }

  @Override
  public void setClientInfo(Properties properties) throws SQLClientInfoException {
    primary.jdbc().setClientInfo(properties);
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
    return primary.jdbc().getMetaData();
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
