package dev.ryow.bench.stub;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;

/** A prepared statement on a stub connection: its SQL is answered once, at prepare; parameters are taken and dropped. */
final class StubPreparedStatement extends UnsupportedPreparedStatement {
  private final StubConnection connection;
  private final Answer answer;
  private final Outcome outcome = new Outcome();
  private int fetchSize;
  private int maxRows;
  private int queryTimeout;
  private boolean poolable;
  private boolean closed;

  StubPreparedStatement(StubConnection connection, String sql) {
    this.connection = connection;
    this.answer = Answer.of(sql);
  }

  @Override
  public ResultSet executeQuery() {
    return outcome.query(this, connection, answer);
  }

  @Override
  public int executeUpdate() {
    return (int) outcome.update(connection, answer);
  }

  @Override
  public long executeLargeUpdate() {
    return outcome.update(connection, answer);
  }

  @Override
  public boolean execute() {
    return outcome.execute(this, connection, answer);
  }

  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    return outcome.query(this, connection, Answer.of(sql));
  }

  @Override
  public int executeUpdate(String sql) {
    return (int) outcome.update(connection, Answer.of(sql));
  }

  @Override
  public boolean execute(String sql) {
    return outcome.execute(this, connection, Answer.of(sql));
  }

  @Override
  public ResultSet getResultSet() {
    return outcome.resultSet();
  }

  @Override
  public int getUpdateCount() {
    return (int) outcome.updateCount();
  }

  @Override
  public long getLargeUpdateCount() {
    return outcome.updateCount();
  }

  @Override
  public boolean getMoreResults() {
    outcome.clear();
    return false;
  }

  @Override
  public void setInt(int index, int x) {
    // parameters do not change the stub's answer
  }

  @Override
  public void setLong(int index, long x) {
    // parameters do not change the stub's answer
  }

  @Override
  public void setString(int index, String x) {
    // parameters do not change the stub's answer
  }

  @Override
  public void setBigDecimal(int index, BigDecimal x) {
    // parameters do not change the stub's answer
  }

  @Override
  public void setDouble(int index, double x) {
    // parameters do not change the stub's answer
  }

  @Override
  public void setObject(int index, Object x) {
    // parameters do not change the stub's answer
  }

  @Override
  public void setNull(int index, int sqlType) {
    // parameters do not change the stub's answer
  }

  @Override
  public void clearParameters() {
    // none kept
  }

  @Override
  public Connection getConnection() {
    return connection;
  }

  @Override
  public void setFetchSize(int rows) {
    fetchSize = rows;
  }

  @Override
  public int getFetchSize() {
    return fetchSize;
  }

  @Override
  public void setMaxRows(int max) {
    maxRows = max;
  }

  @Override
  public int getMaxRows() {
    return maxRows;
  }

  @Override
  public void setQueryTimeout(int seconds) {
    queryTimeout = seconds;
  }

  @Override
  public int getQueryTimeout() {
    return queryTimeout;
  }

  @Override
  public void setPoolable(boolean poolable) {
    this.poolable = poolable;
  }

  @Override
  public boolean isPoolable() {
    return poolable;
  }

  @Override
  public void setEscapeProcessing(boolean enable) {
    // nothing to escape
  }

  @Override
  public SQLWarning getWarnings() {
    return null;
  }

  @Override
  public void clearWarnings() {
    // none kept
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
    outcome.clear();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw new SQLException("not a wrapper for " + iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
