package dev.ryow.bench.stub;

/**
 * Every abstract method of {@code java.sql.PreparedStatement} throwing {@link UnsupportedOperationException}:
 * the base of the stub's a prepared statement, which overrides only what the benchmarks call. Generated from the
 * interface by reflection; regenerate rather than edit when the interface grows.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedPreparedStatement implements java.sql.PreparedStatement {
  @Override
  public void addBatch() throws java.sql.SQLException {
    throw new UnsupportedOperationException("addBatch");
  }

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
  public void clearParameters() throws java.sql.SQLException {
    throw new UnsupportedOperationException("clearParameters");
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
  public java.sql.ResultSet executeQuery() throws java.sql.SQLException {
    throw new UnsupportedOperationException("executeQuery");
  }

  @Override
  public java.sql.ResultSet executeQuery(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("executeQuery");
  }

  @Override
  public int executeUpdate() throws java.sql.SQLException {
    throw new UnsupportedOperationException("executeUpdate");
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
  public boolean execute() throws java.sql.SQLException {
    throw new UnsupportedOperationException("execute");
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
  public java.sql.ResultSetMetaData getMetaData() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getMetaData");
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
  public java.sql.ParameterMetaData getParameterMetaData() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getParameterMetaData");
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
  public void setArray(int a0, java.sql.Array a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setArray");
  }

  @Override
  public void setAsciiStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setAsciiStream");
  }

  @Override
  public void setAsciiStream(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setAsciiStream");
  }

  @Override
  public void setAsciiStream(int a0, java.io.InputStream a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setAsciiStream");
  }

  @Override
  public void setBigDecimal(int a0, java.math.BigDecimal a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setBigDecimal");
  }

  @Override
  public void setBinaryStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setBinaryStream");
  }

  @Override
  public void setBinaryStream(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setBinaryStream");
  }

  @Override
  public void setBinaryStream(int a0, java.io.InputStream a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setBinaryStream");
  }

  @Override
  public void setBlob(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setBlob");
  }

  @Override
  public void setBlob(int a0, java.io.InputStream a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setBlob");
  }

  @Override
  public void setBlob(int a0, java.sql.Blob a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setBlob");
  }

  @Override
  public void setBoolean(int a0, boolean a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setBoolean");
  }

  @Override
  public void setByte(int a0, byte a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setByte");
  }

  @Override
  public void setBytes(int a0, byte[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setBytes");
  }

  @Override
  public void setCharacterStream(int a0, java.io.Reader a1, int a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setCharacterStream");
  }

  @Override
  public void setCharacterStream(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setCharacterStream");
  }

  @Override
  public void setCharacterStream(int a0, java.io.Reader a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setCharacterStream");
  }

  @Override
  public void setClob(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setClob");
  }

  @Override
  public void setClob(int a0, java.io.Reader a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setClob");
  }

  @Override
  public void setClob(int a0, java.sql.Clob a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setClob");
  }

  @Override
  public void setCursorName(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setCursorName");
  }

  @Override
  public void setDate(int a0, java.sql.Date a1, java.util.Calendar a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setDate");
  }

  @Override
  public void setDate(int a0, java.sql.Date a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setDate");
  }

  @Override
  public void setDouble(int a0, double a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setDouble");
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
  public void setFloat(int a0, float a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setFloat");
  }

  @Override
  public void setInt(int a0, int a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setInt");
  }

  @Override
  public void setLong(int a0, long a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setLong");
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
  public void setNCharacterStream(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setNCharacterStream");
  }

  @Override
  public void setNCharacterStream(int a0, java.io.Reader a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setNCharacterStream");
  }

  @Override
  public void setNClob(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setNClob");
  }

  @Override
  public void setNClob(int a0, java.io.Reader a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setNClob");
  }

  @Override
  public void setNClob(int a0, java.sql.NClob a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setNClob");
  }

  @Override
  public void setNString(int a0, java.lang.String a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setNString");
  }

  @Override
  public void setNull(int a0, int a1, java.lang.String a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setNull");
  }

  @Override
  public void setNull(int a0, int a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setNull");
  }

  @Override
  public void setObject(int a0, java.lang.Object a1, int a2, int a3) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setObject");
  }

  @Override
  public void setObject(int a0, java.lang.Object a1, int a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setObject");
  }

  @Override
  public void setObject(int a0, java.lang.Object a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setObject");
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
  public void setRef(int a0, java.sql.Ref a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setRef");
  }

  @Override
  public void setRowId(int a0, java.sql.RowId a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setRowId");
  }

  @Override
  public void setSQLXML(int a0, java.sql.SQLXML a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setSQLXML");
  }

  @Override
  public void setShort(int a0, short a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setShort");
  }

  @Override
  public void setString(int a0, java.lang.String a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setString");
  }

  @Override
  public void setTime(int a0, java.sql.Time a1, java.util.Calendar a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setTime");
  }

  @Override
  public void setTime(int a0, java.sql.Time a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setTime");
  }

  @Override
  public void setTimestamp(int a0, java.sql.Timestamp a1, java.util.Calendar a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setTimestamp");
  }

  @Override
  public void setTimestamp(int a0, java.sql.Timestamp a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setTimestamp");
  }

  @Override
  public void setURL(int a0, java.net.URL a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setURL");
  }

  @Override
  public void setUnicodeStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setUnicodeStream");
  }

  @Override
  public <T> T unwrap(java.lang.Class<T> a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("unwrap");
  }
}
