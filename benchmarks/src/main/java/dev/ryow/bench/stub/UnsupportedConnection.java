package dev.ryow.bench.stub;

/**
 * Every abstract method of {@code com.mysql.cj.jdbc.JdbcConnection} throwing {@link UnsupportedOperationException}:
 * the base of the stub's a physical connection, which overrides only what the benchmarks call. Generated from the
 * interface by reflection; regenerate rather than edit when the interface grows.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedConnection implements com.mysql.cj.jdbc.JdbcConnection {
  @Override
  public void abortInternal() throws java.sql.SQLException {
    throw new UnsupportedOperationException("abortInternal");
  }

  @Override
  public void abort(java.util.concurrent.Executor a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("abort");
  }

  @Override
  public void changeUser(java.lang.String a0, java.lang.String a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("changeUser");
  }

  @Override
  public void checkClosed() {
    throw new UnsupportedOperationException("checkClosed");
  }

  @Override
  public void cleanup(java.lang.Throwable a0) {
    throw new UnsupportedOperationException("cleanup");
  }

  @Override
  public void clearWarnings() throws java.sql.SQLException {
    throw new UnsupportedOperationException("clearWarnings");
  }

  @Override
  public java.sql.PreparedStatement clientPrepareStatement(java.lang.String a0, int[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("clientPrepareStatement");
  }

  @Override
  public java.sql.PreparedStatement clientPrepareStatement(java.lang.String a0, java.lang.String[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("clientPrepareStatement");
  }

  @Override
  public java.sql.PreparedStatement clientPrepareStatement(java.lang.String a0, int a1, int a2, int a3) throws java.sql.SQLException {
    throw new UnsupportedOperationException("clientPrepareStatement");
  }

  @Override
  public java.sql.PreparedStatement clientPrepareStatement(java.lang.String a0, int a1, int a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("clientPrepareStatement");
  }

  @Override
  public java.sql.PreparedStatement clientPrepareStatement(java.lang.String a0, int a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("clientPrepareStatement");
  }

  @Override
  public java.sql.PreparedStatement clientPrepareStatement(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("clientPrepareStatement");
  }

  @Override
  public void close() throws java.sql.SQLException {
    throw new UnsupportedOperationException("close");
  }

  @Override
  public void commit() throws java.sql.SQLException {
    throw new UnsupportedOperationException("commit");
  }

  @Override
  public java.sql.Array createArrayOf(java.lang.String a0, java.lang.Object[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("createArrayOf");
  }

  @Override
  public java.sql.Blob createBlob() throws java.sql.SQLException {
    throw new UnsupportedOperationException("createBlob");
  }

  @Override
  public java.sql.Clob createClob() throws java.sql.SQLException {
    throw new UnsupportedOperationException("createClob");
  }

  @Override
  public java.sql.NClob createNClob() throws java.sql.SQLException {
    throw new UnsupportedOperationException("createNClob");
  }

  @Override
  public void createNewIO(boolean a0) {
    throw new UnsupportedOperationException("createNewIO");
  }

  @Override
  public java.sql.SQLXML createSQLXML() throws java.sql.SQLException {
    throw new UnsupportedOperationException("createSQLXML");
  }

  @Override
  public java.sql.Statement createStatement() throws java.sql.SQLException {
    throw new UnsupportedOperationException("createStatement");
  }

  @Override
  public java.sql.Statement createStatement(int a0, int a1, int a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("createStatement");
  }

  @Override
  public java.sql.Statement createStatement(int a0, int a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("createStatement");
  }

  @Override
  public java.sql.Struct createStruct(java.lang.String a0, java.lang.Object[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("createStruct");
  }

  @Override
  public void decachePreparedStatement(com.mysql.cj.jdbc.JdbcPreparedStatement a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("decachePreparedStatement");
  }

  @Override
  public void doClose(java.lang.Throwable a0, com.mysql.cj.jdbc.CloseOption... a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("doClose");
  }

  @Override
  public java.lang.String enquoteIdentifier(java.lang.String a0, boolean a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("enquoteIdentifier");
  }

  @Override
  public java.lang.String enquoteLiteral(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("enquoteLiteral");
  }

  @Override
  public java.lang.String enquoteNCharLiteral(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("enquoteNCharLiteral");
  }

  @Override
  public com.mysql.cj.jdbc.JdbcConnection getActiveMySQLConnection() {
    throw new UnsupportedOperationException("getActiveMySQLConnection");
  }

  @Override
  public int getActiveStatementCount() {
    throw new UnsupportedOperationException("getActiveStatementCount");
  }

  @Override
  public boolean getAutoCommit() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getAutoCommit");
  }

  @Override
  public int getAutoIncrementIncrement() {
    throw new UnsupportedOperationException("getAutoIncrementIncrement");
  }

  @Override
  public com.mysql.cj.jdbc.result.CachedResultSetMetaData getCachedMetaData(java.lang.String a0) {
    throw new UnsupportedOperationException("getCachedMetaData");
  }

  @Override
  public java.lang.String getCatalog() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getCatalog");
  }

  @Override
  public java.lang.String getCharacterSetMetadata() {
    throw new UnsupportedOperationException("getCharacterSetMetadata");
  }

  @Override
  public com.mysql.cj.jdbc.ClientInfoProvider getClientInfoProviderImpl() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getClientInfoProviderImpl");
  }

  @Override
  public java.util.Properties getClientInfo() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getClientInfo");
  }

  @Override
  public java.lang.String getClientInfo(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("getClientInfo");
  }

  @Override
  public java.util.concurrent.locks.Lock getConnectionLock() {
    throw new UnsupportedOperationException("getConnectionLock");
  }

  @Override
  public java.lang.String getDatabase() {
    throw new UnsupportedOperationException("getDatabase");
  }

  @Override
  public com.mysql.cj.exceptions.ExceptionInterceptor getExceptionInterceptor() {
    throw new UnsupportedOperationException("getExceptionInterceptor");
  }

  @Override
  public int getHoldability() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getHoldability");
  }

  @Override
  public java.lang.String getHostPortPair() {
    throw new UnsupportedOperationException("getHostPortPair");
  }

  @Override
  public java.lang.String getHost() {
    throw new UnsupportedOperationException("getHost");
  }

  @Override
  public long getId() {
    throw new UnsupportedOperationException("getId");
  }

  @Override
  public long getIdleFor() {
    throw new UnsupportedOperationException("getIdleFor");
  }

  @Override
  public java.util.concurrent.locks.Lock getLock() {
    throw new UnsupportedOperationException("getLock");
  }

  @Override
  public java.sql.Statement getMetaDataSafeStatement() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getMetaDataSafeStatement");
  }

  @Override
  public java.sql.DatabaseMetaData getMetaData() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getMetaData");
  }

  @Override
  public com.mysql.cj.jdbc.JdbcConnection getMultiHostParentProxy() {
    throw new UnsupportedOperationException("getMultiHostParentProxy");
  }

  @Override
  public com.mysql.cj.jdbc.JdbcConnection getMultiHostSafeProxy() {
    throw new UnsupportedOperationException("getMultiHostSafeProxy");
  }

  @Override
  public int getNetworkTimeout() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getNetworkTimeout");
  }

  @Override
  public java.util.Properties getProperties() {
    throw new UnsupportedOperationException("getProperties");
  }

  @Override
  public com.mysql.cj.jdbc.JdbcPropertySet getPropertySet() {
    throw new UnsupportedOperationException("getPropertySet");
  }

  @Override
  public java.util.List<com.mysql.cj.interceptors.QueryInterceptor> getQueryInterceptorsInstances() {
    throw new UnsupportedOperationException("getQueryInterceptorsInstances");
  }

  @Override
  public java.lang.String getSchema() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getSchema");
  }

  @Override
  public com.mysql.cj.protocol.ServerSessionStateController getServerSessionStateController() {
    throw new UnsupportedOperationException("getServerSessionStateController");
  }

  @Override
  public com.mysql.cj.ServerVersion getServerVersion() {
    throw new UnsupportedOperationException("getServerVersion");
  }

  @Override
  public int getSessionMaxRows() {
    throw new UnsupportedOperationException("getSessionMaxRows");
  }

  @Override
  public com.mysql.cj.Session getSession() {
    throw new UnsupportedOperationException("getSession");
  }

  @Override
  public java.lang.String getStatementComment() {
    throw new UnsupportedOperationException("getStatementComment");
  }

  @Override
  public int getTransactionIsolation() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getTransactionIsolation");
  }

  @Override
  public java.util.Map<java.lang.String, java.lang.Class<?>> getTypeMap() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getTypeMap");
  }

  @Override
  public java.lang.String getURL() {
    throw new UnsupportedOperationException("getURL");
  }

  @Override
  public java.lang.String getUser() {
    throw new UnsupportedOperationException("getUser");
  }

  @Override
  public java.sql.SQLWarning getWarnings() throws java.sql.SQLException {
    throw new UnsupportedOperationException("getWarnings");
  }

  @Override
  public boolean hasSameProperties(com.mysql.cj.jdbc.JdbcConnection a0) {
    throw new UnsupportedOperationException("hasSameProperties");
  }

  @Override
  public void initializeResultsMetadataFromCache(java.lang.String a0, com.mysql.cj.jdbc.result.CachedResultSetMetaData a1, com.mysql.cj.jdbc.result.ResultSetInternalMethods a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("initializeResultsMetadataFromCache");
  }

  @Override
  public void initializeSafeQueryInterceptors() throws java.sql.SQLException {
    throw new UnsupportedOperationException("initializeSafeQueryInterceptors");
  }

  @Override
  public boolean isClosed() throws java.sql.SQLException {
    throw new UnsupportedOperationException("isClosed");
  }

  @Override
  public boolean isInGlobalTx() {
    throw new UnsupportedOperationException("isInGlobalTx");
  }

  @Override
  public boolean isProxySet() {
    throw new UnsupportedOperationException("isProxySet");
  }

  @Override
  public boolean isReadOnly() throws java.sql.SQLException {
    throw new UnsupportedOperationException("isReadOnly");
  }

  @Override
  public boolean isReadOnly(boolean a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("isReadOnly");
  }

  @Override
  public boolean isSameResource(com.mysql.cj.jdbc.JdbcConnection a0) {
    throw new UnsupportedOperationException("isSameResource");
  }

  @Override
  public boolean isServerLocal() throws java.sql.SQLException {
    throw new UnsupportedOperationException("isServerLocal");
  }

  @Override
  public boolean isSimpleIdentifier(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("isSimpleIdentifier");
  }

  @Override
  public boolean isSourceConnection() {
    throw new UnsupportedOperationException("isSourceConnection");
  }

  @Override
  public boolean isValid(int a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("isValid");
  }

  @Override
  public boolean isWrapperFor(java.lang.Class<?> a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("isWrapperFor");
  }

  @Override
  public boolean lowerCaseTableNames() {
    throw new UnsupportedOperationException("lowerCaseTableNames");
  }

  @Override
  public java.lang.String nativeSQL(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("nativeSQL");
  }

  @Override
  public void pingInternal(boolean a0, int a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("pingInternal");
  }

  @Override
  public void ping() throws java.sql.SQLException {
    throw new UnsupportedOperationException("ping");
  }

  @Override
  public java.sql.CallableStatement prepareCall(java.lang.String a0, int a1, int a2, int a3) throws java.sql.SQLException {
    throw new UnsupportedOperationException("prepareCall");
  }

  @Override
  public java.sql.CallableStatement prepareCall(java.lang.String a0, int a1, int a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("prepareCall");
  }

  @Override
  public java.sql.CallableStatement prepareCall(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("prepareCall");
  }

  @Override
  public java.sql.PreparedStatement prepareStatement(java.lang.String a0, int[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("prepareStatement");
  }

  @Override
  public java.sql.PreparedStatement prepareStatement(java.lang.String a0, java.lang.String[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("prepareStatement");
  }

  @Override
  public java.sql.PreparedStatement prepareStatement(java.lang.String a0, int a1, int a2, int a3) throws java.sql.SQLException {
    throw new UnsupportedOperationException("prepareStatement");
  }

  @Override
  public java.sql.PreparedStatement prepareStatement(java.lang.String a0, int a1, int a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("prepareStatement");
  }

  @Override
  public java.sql.PreparedStatement prepareStatement(java.lang.String a0, int a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("prepareStatement");
  }

  @Override
  public java.sql.PreparedStatement prepareStatement(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("prepareStatement");
  }

  @Override
  public void recachePreparedStatement(com.mysql.cj.jdbc.JdbcPreparedStatement a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("recachePreparedStatement");
  }

  @Override
  public void registerStatement(com.mysql.cj.jdbc.JdbcStatement a0) {
    throw new UnsupportedOperationException("registerStatement");
  }

  @Override
  public void releaseSavepoint(java.sql.Savepoint a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("releaseSavepoint");
  }

  @Override
  public void resetServerState() throws java.sql.SQLException {
    throw new UnsupportedOperationException("resetServerState");
  }

  @Override
  public void rollback() throws java.sql.SQLException {
    throw new UnsupportedOperationException("rollback");
  }

  @Override
  public void rollback(java.sql.Savepoint a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("rollback");
  }

  @Override
  public java.sql.PreparedStatement serverPrepareStatement(java.lang.String a0, int[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("serverPrepareStatement");
  }

  @Override
  public java.sql.PreparedStatement serverPrepareStatement(java.lang.String a0, java.lang.String[] a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("serverPrepareStatement");
  }

  @Override
  public java.sql.PreparedStatement serverPrepareStatement(java.lang.String a0, int a1, int a2, int a3) throws java.sql.SQLException {
    throw new UnsupportedOperationException("serverPrepareStatement");
  }

  @Override
  public java.sql.PreparedStatement serverPrepareStatement(java.lang.String a0, int a1, int a2) throws java.sql.SQLException {
    throw new UnsupportedOperationException("serverPrepareStatement");
  }

  @Override
  public java.sql.PreparedStatement serverPrepareStatement(java.lang.String a0, int a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("serverPrepareStatement");
  }

  @Override
  public java.sql.PreparedStatement serverPrepareStatement(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("serverPrepareStatement");
  }

  @Override
  public void setAutoCommit(boolean a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setAutoCommit");
  }

  @Override
  public void setCatalog(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setCatalog");
  }

  @Override
  public void setClientInfo(java.lang.String a0, java.lang.String a1) throws java.sql.SQLClientInfoException {
    throw new UnsupportedOperationException("setClientInfo");
  }

  @Override
  public void setClientInfo(java.util.Properties a0) throws java.sql.SQLClientInfoException {
    throw new UnsupportedOperationException("setClientInfo");
  }

  @Override
  public void setDatabase(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setDatabase");
  }

  @Override
  public void setFailedOver(boolean a0) {
    throw new UnsupportedOperationException("setFailedOver");
  }

  @Override
  public void setHoldability(int a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setHoldability");
  }

  @Override
  public void setInGlobalTx(boolean a0) {
    throw new UnsupportedOperationException("setInGlobalTx");
  }

  @Override
  public void setNetworkTimeout(java.util.concurrent.Executor a0, int a1) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setNetworkTimeout");
  }

  @Override
  public void setProxy(com.mysql.cj.jdbc.JdbcConnection a0) {
    throw new UnsupportedOperationException("setProxy");
  }

  @Override
  public void setReadOnlyInternal(boolean a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setReadOnlyInternal");
  }

  @Override
  public void setReadOnly(boolean a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setReadOnly");
  }

  @Override
  public java.sql.Savepoint setSavepoint() throws java.sql.SQLException {
    throw new UnsupportedOperationException("setSavepoint");
  }

  @Override
  public java.sql.Savepoint setSavepoint(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setSavepoint");
  }

  @Override
  public void setSchema(java.lang.String a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setSchema");
  }

  @Override
  public void setSessionMaxRows(int a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setSessionMaxRows");
  }

  @Override
  public void setStatementComment(java.lang.String a0) {
    throw new UnsupportedOperationException("setStatementComment");
  }

  @Override
  public void setTransactionIsolation(int a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setTransactionIsolation");
  }

  @Override
  public void setTypeMap(java.util.Map<java.lang.String, java.lang.Class<?>> a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("setTypeMap");
  }

  @Override
  public void shutdownServer() throws java.sql.SQLException {
    throw new UnsupportedOperationException("shutdownServer");
  }

  @Override
  public boolean storesLowerCaseTableName() {
    throw new UnsupportedOperationException("storesLowerCaseTableName");
  }

  @Override
  public void throwConnectionClosedException() throws java.sql.SQLException {
    throw new UnsupportedOperationException("throwConnectionClosedException");
  }

  @Override
  public void transactionBegun() {
    throw new UnsupportedOperationException("transactionBegun");
  }

  @Override
  public void transactionCompleted() {
    throw new UnsupportedOperationException("transactionCompleted");
  }

  @Override
  public void unSafeQueryInterceptors() throws java.sql.SQLException {
    throw new UnsupportedOperationException("unSafeQueryInterceptors");
  }

  @Override
  public void unregisterStatement(com.mysql.cj.jdbc.JdbcStatement a0) {
    throw new UnsupportedOperationException("unregisterStatement");
  }

  @Override
  public <T> T unwrap(java.lang.Class<T> a0) throws java.sql.SQLException {
    throw new UnsupportedOperationException("unwrap");
  }
}
