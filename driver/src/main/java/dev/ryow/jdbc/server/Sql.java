package dev.ryow.jdbc.server;

import com.mysql.cj.jdbc.exceptions.MySQLStatementCancelledException;
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

  /**
   * Whether {@code e} means the link to the server is broken: {@link #isConnectionFailure}, or, among its
   * causes, a connection failure, an end of stream or a socket error. Connector/J reports a server that
   * died while a streaming result set was being read as a plain {@code SQLException} (SQLState S1000,
   * {@code Error retrieving record: Unexpected Exception: java.io.EOFException ...}) caused by the
   * {@link java.io.EOFException}.
   */
  public static boolean isBrokenLink(SQLException e) {
    if (isConnectionFailure(e)) {
      return true;
    }
    int depth = 0;
    for (Throwable t = e.getCause(); t != null && depth < 16; t = t.getCause(), depth++) {
      if (t instanceof java.io.EOFException || t instanceof java.net.SocketException
          || (t instanceof SQLException s && isConnectionFailure(s))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code e} says the server could not be reached or the link broke (as opposed to the
   * server refusing the connection, e.g. for credentials or a missing feature): worth looking for the
   * primary elsewhere.
   */
  public static boolean isUnreachable(SQLException e) {
    String state = e.getSQLState();
    return "08S01".equals(state) || "08001".equals(state) || "08003".equals(state) || "08006".equals(state)
        || e instanceof java.sql.SQLRecoverableException
        || e instanceof java.sql.SQLTransientConnectionException;
  }

  /**
   * Whether {@code e} is the server refusing a statement because it is read-only
   * ({@code ER_OPTION_PREVENTS_STATEMENT} 1290 for {@code read_only}/{@code super_read_only},
   * {@code ER_READ_ONLY_MODE} 1836): the statement did not run, so it may run again on the new primary.
   */
  public static boolean isReadOnlyRefusal(SQLException e) {
    int code = e.getErrorCode();
    return code == 1290 || code == 1836;
  }

  /**
   * Whether {@code e} comes from a socket read that timed out ({@link java.net.SocketTimeoutException}
   * among its causes): on an application connection, the caller's own network timeout
   * ({@code Connection.setNetworkTimeout} or Connector/J's {@code socketTimeout}), not a server failure.
   */
  public static boolean isSocketTimeout(SQLException e) {
    int depth = 0;
    for (Throwable t = e; t != null && depth < 16; t = t.getCause(), depth++) {
      if (t instanceof java.net.SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code e} is the server refusing the login or the account (wrong password, unknown user,
   * locked or expired account: SQLState 28000 and errors 1044, 1045, 1698, 1820, 1862, 3118): the
   * server is up and answered; other credentials may well get in.
   */
  public static boolean isAuthenticationFailure(SQLException e) {
    int code = e.getErrorCode();
    return "28000".equals(e.getSQLState())
        || code == 1044 || code == 1045 || code == 1698 || code == 1820 || code == 1862 || code == 3118;
  }

  /**
   * Whether {@code e} ended a statement because its caller asked: a query timeout or
   * {@code Statement.cancel()} (Connector/J's timeout and cancel exceptions, the server's
   * {@code ER_QUERY_INTERRUPTED} 1317). Connector/J's cancel exception has no SQLState and no error
   * code: it is known by its class.
   */
  public static boolean isCancellation(SQLException e) {
    String state = e.getSQLState();
    return e instanceof java.sql.SQLTimeoutException || e instanceof MySQLStatementCancelledException
        || e.getErrorCode() == 1317 || "70100".equals(state) || "S1008".equals(state);
  }
}
