package dev.ryow.jdbc.server;

import java.sql.SQLException;

/** Helpers to tell kinds of {@link SQLException} apart. */
public final class Sql {
  private Sql() {}

  /**
   * Whether {@code e} means the physical connection is unusable (SQLState class 08, or a recoverable
   * or non-transient connection exception), so that a read may be retried elsewhere.
   */
  public static boolean isConnectionFailure(SQLException e) {
    String state = e.getSQLState();
    return (state != null && state.startsWith("08"))
        || e instanceof java.sql.SQLRecoverableException
        || e instanceof java.sql.SQLNonTransientConnectionException
        || e instanceof java.sql.SQLTransientConnectionException;
  }
}
