package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.session.Execution;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import org.jspecify.annotations.Nullable;

/**
 * A stored-procedure call. Procedures may write and may hold session state, so calls always run on
 * the primary connection they were prepared on; every execution is reported to the logical connection
 * like a write (GTID capture, counters). Everything else delegates ({@link DelegatingCallableStatement},
 * generated). Result sets report this wrapper from {@code getStatement()}. Once the logical connection
 * replaced that primary connection (reconnect or failover), every method but {@code close} refuses with
 * {@link SQLRecoverableException}: the call, its parameters and registrations belonged to the old
 * connection, and running them on a server that may no longer be the primary would be wrong.
 */
final class PrimaryCallableStatement extends BracketedCallExecutions {
  private final PrimaryCalls connection;
  private final CallableStatement physical;
  /** The primary connection the call was prepared on. */
  private final PhysicalConnection on;
  /** The view of the last physical result set handed out ({@link RoutedResultSet#viewOf}). */
  private @Nullable RoutedResultSet lastResults;
  private boolean closed;
  /** Every execution of the call, handed to the session (always the primary, always a write). */
  private final Execution execution = new Execution(this);

  PrimaryCallableStatement(PrimaryCalls connection, PhysicalConnection on, CallableStatement physical) {
    this.connection = connection;
    this.on = on;
    this.physical = physical;
  }

  @Override
  CallableStatement delegate() throws SQLException {
    if (closed || connection.isClosed()) {
      throw PhysicalStatements.closed();
    }
    if (connection.primary() != on) {
      throw primaryReestablished();
    }
    return physical;
  }

  private static SQLException primaryReestablished() {
    return new SQLRecoverableException(
        "The connection to the primary was re-established (reconnect or failover) after this CallableStatement"
            + " was prepared: prepare the call again.",
        "08003");
  }

  @Override
  CallableStatement physical() {
    return physical;
  }

  @Override
  SQLException failed(SQLException e) {
    connection.linkFailed(on, e);
    return e;
  }

  @Override
  @Nullable ResultSet wrap(@Nullable ResultSet result) {
    if (result == null) {
      return null;
    }
    RoutedResultSet view = RoutedResultSet.viewOf(lastResults, result, this, connection, on, null);
    lastResults = view;
    return view;
  }

  /** Every execution (generated: {@link BracketedCallExecutions}) runs on the primary, counted as a write. */
  @Override
  void beforeExecute() throws SQLException {
    delegate();
    if (connection.begin(execution.of(StatementKind.WRITE, "", 0, false)) != on) {
      throw primaryReestablished();
    }
  }

  @Override
  void afterExecute() throws SQLException {
    connection.done(execution);
  }

  @Override
  public Connection getConnection() throws SQLException {
    delegate();
    return connection;
  }

  @Override
  public boolean isClosed() throws SQLException {
    if (closed || connection.isClosed()) {
      return true;
    }
    try {
      return physical.isClosed();
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    lastResults = null;
    try {
      physical.close();
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  @Override
  public String toString() {
    return "PrimaryCallableStatement[" + physical + "]";
  }
}
