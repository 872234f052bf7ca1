package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.session.Execution;
import dev.ryow.jdbc.session.Session;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Connection} an application gets from {@code jdbc:ryow:}: the JDBC face of a
 * {@link Session}, which holds the physical connections, the routing state and the watermarks and
 * decides where each statement runs. Each method here translates one JDBC call into one call on the
 * session; what only the primary's JDBC connection answers (getters, factories, sharding keys,
 * unwrap) is generated in {@link DelegatingConnection}, each exception through {@link #linkFailed}.
 *
 * <p>Like any JDBC connection it is meant for one thread at a time.
 */
public final class LogicalConnection extends DelegatingConnection implements RyowConnection, PrimaryCalls {
  private final Session session;

  private LogicalConnection(Session session) {
    this.session = session;
  }

  /** Opens the primary connection; replica connections open on the first replica reads. */
  public static LogicalConnection open(Cluster cluster, RyowConfig config, ConnectorJ connector) throws SQLException {
    return new LogicalConnection(Session.open(cluster, config, connector));
  }

  /** The routing brain behind this connection. */
  Session session() {
    return session;
  }

  /** The primary physical connection. */
  @Override
  public PhysicalConnection primary() {
    return session.primary();
  }

  /** {@link Session#begin}. */
  @Override
  public PhysicalConnection begin(Execution execution) throws SQLException {
    return session.begin(execution);
  }

  /** {@link Session#done}. */
  @Override
  public void done(Execution execution) throws SQLException {
    session.done(execution);
  }

  /** {@link Session#linkFailed}: the exception hook of every wrapper. */
  @Override
  public void linkFailed(PhysicalConnection on, SQLException e) {
    session.linkFailed(on, e);
  }

  /** {@link Session#beginCall}: the row's GTIDs join the scope of this call. */
  @Override
  public void rowWriting() {
    session.beginCall();
  }

  /** {@link Session#rowWritten}. */
  @Override
  public void rowWritten(PhysicalConnection on) throws SQLException {
    session.rowWritten(on);
  }

  /**
   * The primary's JDBC connection, for the generated pass-throughs: replaced first when it broke or the
   * primary moved ({@link Session#primaryForCall}), so that no call reaches a dead connection.
   */
  @Override
  Connection delegate() throws SQLException {
    return session.primaryForCall().jdbc();
  }

  @Override
  Connection physical() {
    return session.primary().jdbc();
  }

  /** The exception hook of the pass-throughs: the primary's link may be broken. */
  @Override
  SQLException failed(SQLException e) {
    session.linkFailed(session.primary(), e);
    return e;
  }

  // ---------------------------------------------------------------- RyowConnection

  @Override
  public String consistencyToken() throws SQLException {
    session.checkOpen();
    session.beginCall(); // a capture due now joins the scope of this call
    return session.consistency().consistencyToken();
  }

  @Override
  public void mergeConsistencyToken(String token) throws SQLException {
    session.checkOpen();
    session.consistency().mergeConsistencyToken(token);
  }

  @Override
  public void setConsistencyMode(@Nullable ConsistencyMode mode) throws SQLException {
    session.checkOpen();
    session.consistency().setConsistencyMode(mode);
  }

  @Override
  public ConsistencyMode consistencyMode() {
    return session.consistencyMode();
  }

  @Override
  public @Nullable ReadReport lastRead() {
    return session.lastRead();
  }

  @Override
  public @Nullable ServerRole lastServerRole() {
    return session.lastServerRole();
  }

  @Override
  public @Nullable String lastServerAddress() {
    return session.lastServerAddress();
  }

  @Override
  public MetricsSnapshot clusterMetrics() {
    return session.cluster().live().metrics().snapshot();
  }

  @Override
  public String clusterName() {
    return session.cluster().name();
  }

  @Override
  public boolean lastReadStale() {
    ReadReport last = session.lastRead();
    return last != null && last.placement() == ReadPlacement.REPLICA_STALE;
  }

  // ---------------------------------------------------------------- statements

  @Override
  public Statement createStatement() throws SQLException {
    return createStatement(java.sql.ResultSet.TYPE_FORWARD_ONLY, java.sql.ResultSet.CONCUR_READ_ONLY);
  }

  @Override
  public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
    return createStatement(resultSetType, resultSetConcurrency, getHoldability());
  }

  @Override
  public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
      throws SQLException {
    session.checkOpen();
    return new RoutingStatement(this, StatementShape.of(resultSetType, resultSetConcurrency, resultSetHoldability));
  }

  @Override
  public PreparedStatement prepareStatement(String sql) throws SQLException {
    session.checkOpen();
    return RoutingPreparedStatement.prepare(this, sql, StatementShape.DEFAULT);
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
      throws SQLException {
    session.checkOpen();
    return RoutingPreparedStatement.prepare(
        this, sql, StatementShape.of(resultSetType, resultSetConcurrency, getHoldability()));
  }

  @Override
  public PreparedStatement prepareStatement(
      String sql, int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    session.checkOpen();
    return RoutingPreparedStatement.prepare(
        this, sql, StatementShape.of(resultSetType, resultSetConcurrency, resultSetHoldability));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
    session.checkOpen();
    return RoutingPreparedStatement.prepare(this, sql, StatementShape.generatedKeys(autoGeneratedKeys));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
    session.checkOpen();
    return RoutingPreparedStatement.prepare(this, sql, StatementShape.keyColumns(columnIndexes));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
    session.checkOpen();
    return RoutingPreparedStatement.prepare(this, sql, StatementShape.keyColumns(columnNames));
  }

  @Override
  public CallableStatement prepareCall(String sql) throws SQLException {
    PhysicalConnection on = session.primaryForCall();
    return new PrimaryCallableStatement(this, on, on.jdbc().prepareCall(sql));
  }

  @Override
  public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
    PhysicalConnection on = session.primaryForCall();
    return new PrimaryCallableStatement(this, on, on.jdbc().prepareCall(sql, resultSetType, resultSetConcurrency));
  }

  @Override
  public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency, int holdability)
      throws SQLException {
    PhysicalConnection on = session.primaryForCall();
    return new PrimaryCallableStatement(
        this, on, on.jdbc().prepareCall(sql, resultSetType, resultSetConcurrency, holdability));
  }

  /**
   * The primary's connection for a call of its transaction (savepoints), with the application's flags
   * synced: replaced first when it broke, the primary moved, or it stands in for a primary the login did
   * not find ({@link Session#primaryForCall}; never inside a transaction that already holds it).
   */
  private Connection inTransaction() throws SQLException {
    session.primaryForCall();
    return session.transactions().primaryInTransaction();
  }

  // ---------------------------------------------------------------- transactions and session state

  @Override
  public void setAutoCommit(boolean autoCommit) throws SQLException {
    session.checkOpen();
    session.beginCall(); // turning autocommit on commits: the GTIDs join the scope of this call
    session.transactions().setAutoCommit(autoCommit);
  }

  /** The autocommit flag; on a closed connection too, as Connector/J answers it (it checks nothing). */
  @Override
  public boolean getAutoCommit() throws SQLException {
    return session.transactions().autoCommit();
  }

  @Override
  public void commit() throws SQLException {
    session.checkOpen();
    session.beginCall(); // the commit's GTIDs join the scope of this call
    session.transactions().commit();
  }

  @Override
  public void rollback() throws SQLException {
    session.checkOpen();
    session.beginCall();
    session.transactions().rollback();
  }

  @Override
  public void rollback(Savepoint savepoint) throws SQLException {
    inTransaction().rollback(savepoint);
  }

  @Override
  public Savepoint setSavepoint() throws SQLException {
    return inTransaction().setSavepoint();
  }

  @Override
  public Savepoint setSavepoint(String name) throws SQLException {
    return inTransaction().setSavepoint(name);
  }

  @Override
  public void releaseSavepoint(Savepoint savepoint) throws SQLException {
    inTransaction().releaseSavepoint(savepoint);
  }

  /**
   * Sets the read-only flag. As JDBC allows, it cannot change inside a transaction that has already
   * run a statement (the transaction's server is chosen): commit or roll back first. Setting the
   * current value is always allowed.
   */
  @Override
  public void setReadOnly(boolean readOnly) throws SQLException {
    session.checkOpen();
    session.transactions().setReadOnly(readOnly);
  }

  @Override
  public boolean isReadOnly() throws SQLException {
    session.checkOpen();
    return session.transactions().readOnly();
  }

  /**
   * As Connector/J: moves the connection to {@code catalog} when its {@code databaseTerm} is
   * {@code CATALOG} (the default), does nothing when it is {@code SCHEMA}; replica connections follow.
   */
  @Override
  public void setCatalog(String catalog) throws SQLException {
    session.checkOpen();
    session.settings().setCatalog(catalog);
  }

  /**
   * As Connector/J: moves the connection to {@code schema} when its {@code databaseTerm} is
   * {@code SCHEMA}, does nothing when it is {@code CATALOG} (the default).
   */
  @Override
  public void setSchema(String schema) throws SQLException {
    session.checkOpen();
    session.settings().setSchema(schema);
  }

  @Override
  public void setTransactionIsolation(int level) throws SQLException {
    session.checkOpen();
    session.settings().isolation(level);
  }

  /**
   * Connector/J's answer, without a round trip, from the primary connection as it is (even one that
   * broke): {@code createStatement()} asks for it, and must not wait for the primary while it is away.
   */
  @Override
  public int getHoldability() throws SQLException {
    session.checkOpen();
    return session.primary().jdbc().getHoldability();
  }

  @Override
  public void setHoldability(int holdability) throws SQLException {
    session.checkOpen();
    session.settings().holdability(holdability);
  }

  @Override
  public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
    session.checkOpen();
    session.settings().networkTimeout(executor, milliseconds);
  }

  @Override
  public void setClientInfo(String name, @Nullable String value) throws SQLClientInfoException {
    session.settings().clientInfo(name, value);
  }

  @Override
  public void setClientInfo(@Nullable Properties properties) throws SQLClientInfoException {
    session.settings().clientInfo(properties);
  }

  // ---------------------------------------------------------------- factories and metadata (primary)

  @Override
  public DatabaseMetaData getMetaData() throws SQLException {
    PhysicalConnection on = session.primaryForCall();
    return new RoutedDatabaseMetaData(on.jdbc().getMetaData(), this, this, on);
  }

  @Override
  public void clearWarnings() throws SQLException {
    session.clearWarnings();
  }

  // ---------------------------------------------------------------- JDBC 4.3 requests

  /**
   * A pool lends the connection: the request starts without the previous borrower's consistency mode or
   * last-read report ({@link Session#requestBoundary}); the primary's connection hears it too.
   */
  @Override
  public void beginRequest() throws SQLException {
    session.checkOpen();
    session.requestBoundary();
    super.beginRequest();
  }

  /** A pool takes the connection back: as {@link #beginRequest}, so that nothing lingers while it is idle. */
  @Override
  public void endRequest() throws SQLException {
    session.checkOpen();
    super.endRequest();
    session.requestBoundary();
  }

  // ---------------------------------------------------------------- lifecycle

  @Override
  public boolean isValid(int timeout) throws SQLException {
    return session.isValid(timeout);
  }

  @Override
  public boolean isClosed() {
    return session.isClosed();
  }

  @Override
  public void close() {
    session.close();
  }

  @Override
  public void abort(Executor executor) throws SQLException {
    session.abort(executor);
  }

  // ---------------------------------------------------------------- wrapper

  @Override
  public String toString() {
    return session.toString();
  }
}
