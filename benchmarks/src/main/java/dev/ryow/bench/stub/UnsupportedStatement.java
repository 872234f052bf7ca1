package dev.ryow.bench.stub;

/**
 * Every abstract method of {@code java.sql.Statement} throwing {@link UnsupportedOperationException}:
 * the base of the stub's a statement, which overrides only what the benchmarks call. Generated from the
 * interface by reflection; regenerate rather than edit when the interface grows.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedStatement implements java.sql.Statement {
  @Override
  public void addBatch(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("addBatch");
  }

  @Override
  public void cancel() throws java.sql.SQLException {
    throw new UnsupportedOperationException("cancel");
  }

  @Override
  public void clearBatch() throws java.sql.SQLException {
    throw new UnsupportedOperationException("clearBatch");
  }

  @Override
  public void clearWarnings() throws java.sql.SQLException {
    throw new UnsupportedOperationException("clearWarnings");
  }

  @Override
  public void closeOnCompletion() throws java.sql.SQLException {
    throw new UnsupportedOperationException("closeOnCompletion");
  }

  @Override
  public void close() throws java.sql.SQLException {
    throw new UnsupportedOperationException("close");
  }

  @Override
  public int[] executeBatch() throws java.sql.SQLException {
    throw new UnsupportedOperationException("executeBatch");
  }

  @Override
  public java.sql.ResultSet executeQuery(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("executeQuery");
  }

  @Override
  public int executeUpdate(java.lang.String a0, int[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("executeUpdate");
  }

  @Override
  public int executeUpdate(java.lang.String a0, java.lang.String[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("executeUpdate");
  }

  @Override
  public int executeUpdate(java.lang.String a0, int a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("executeUpdate");
  }

  @Override
  public int executeUpdate(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("executeUpdate");
  }

  @Override
  public boolean execute(java.lang.String a0, int[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("execute");
  }

  @Override
  public boolean execute(java.lang.String a0, java.lang.String[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("execute");
  }

  @Override
  public boolean execute(java.lang.String a0, int a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("execute");
  }

  @Override
  public boolean execute(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("execute");
  }

  @Override
  public java.sql.Connection getConnection() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getConnection");
  }

  @Override
  public int getFetchDirection() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getFetchDirection");
  }

  @Override
  public int getFetchSize() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getFetchSize");
  }

  @Override
  public java.sql.ResultSet getGeneratedKeys() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getGeneratedKeys");
  }

  @Override
  public int getMaxFieldSize() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getMaxFieldSize");
  }

  @Override
  public int getMaxRows() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getMaxRows");
  }

  @Override
  public boolean getMoreResults() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getMoreResults");
  }

  @Override
  public boolean getMoreResults(int a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("getMoreResults");
  }

  @Override
  public int getQueryTimeout() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getQueryTimeout");
  }

  @Override
  public int getResultSetConcurrency() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getResultSetConcurrency");
  }

  @Override
  public int getResultSetHoldability() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getResultSetHoldability");
  }

  @Override
  public int getResultSetType() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getResultSetType");
  }

  @Override
  public java.sql.ResultSet getResultSet() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getResultSet");
  }

  @Override
  public int getUpdateCount() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getUpdateCount");
  }

  @Override
  public java.sql.SQLWarning getWarnings() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getWarnings");
  }

  @Override
  public boolean isCloseOnCompletion() throws java.sql.SQLException {
    throw new UnsupportedOperationException("isCloseOnCompletion");
  }

  @Override
  public boolean isClosed() throws java.sql.SQLException {
    throw new UnsupportedOperationException("isClosed");
  }

  @Override
  public boolean isPoolable() throws java.sql.SQLException {
    throw new UnsupportedOperationException("isPoolable");
  }

  @Override
  public boolean isWrapperFor(java.lang.Class<?> a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("isWrapperFor");
  }

  @Override
  public void setCursorName(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setCursorName");
  }

  @Override
  public void setEscapeProcessing(boolean a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setEscapeProcessing");
  }

  @Override
  public void setFetchDirection(int a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setFetchDirection");
  }

  @Override
  public void setFetchSize(int a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setFetchSize");
  }

  @Override
  public void setMaxFieldSize(int a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setMaxFieldSize");
  }

  @Override
  public void setMaxRows(int a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setMaxRows");
  }

  @Override
  public void setPoolable(boolean a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setPoolable");
  }

  @Override
  public void setQueryTimeout(int a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setQueryTimeout");
  }

  @Override
  public <T> T unwrap(java.lang.Class<T> a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("unwrap");
  }
}
