package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.server.PhysicalConnection;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import org.jspecify.annotations.Nullable;

/**
 * The primary's metadata ({@link DelegatingDatabaseMetaData}, generated), reporting the logical
 * connection from {@link #getConnection()} so that tools that navigate back from metadata keep using
 * routed connections. Its result sets report no statement ({@code getStatement()} is null, as JDBC
 * allows for metadata), so none of them hands out the physical connection. Every method fails once the
 * logical connection is closed.
 */
final class RoutedDatabaseMetaData extends DelegatingDatabaseMetaData {
  private final DatabaseMetaData physical;
  private final Connection owner;
  private final LinkFailures failures;
  private final PhysicalConnection on;

  /** The metadata {@code physical} of the physical connection {@code on} of {@code owner}. */
  RoutedDatabaseMetaData(DatabaseMetaData physical, Connection owner, LinkFailures failures, PhysicalConnection on) {
    this.physical = physical;
    this.owner = owner;
    this.failures = failures;
    this.on = on;
  }

  @Override
  DatabaseMetaData delegate() throws SQLException {
    checkOpen();
    return physical;
  }

  private void checkOpen() throws SQLException {
    if (owner.isClosed()) {
      throw new SQLNonTransientConnectionException("Connection is closed", "08003");
    }
  }

  @Override
  DatabaseMetaData physical() {
    return physical;
  }

  @Override
  SQLException failed(SQLException e) {
    failures.linkFailed(on, e);
    return e;
  }

  @Override
  @Nullable ResultSet wrap(@Nullable ResultSet result) {
    return result == null ? null : RoutedResultSet.wrap(result, null, failures, on);
  }

  @Override
  public Connection getConnection() throws SQLException {
    checkOpen();
    return owner;
  }

  @Override
  public String toString() {
    return "RoutedDatabaseMetaData[" + physical + "]";
  }
}
