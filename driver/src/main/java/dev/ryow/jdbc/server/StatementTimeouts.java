package dev.ryow.jdbc.server;

import com.mysql.cj.jdbc.JdbcStatement;
import com.mysql.cj.jdbc.exceptions.MySQLStatementCancelledException;
import com.mysql.cj.jdbc.exceptions.MySQLTimeoutException;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What a statement whose replica wait was cut short throws, and how the rest of a query timeout is
 * given to the statement after the wait: the same exceptions and the same millisecond timer as
 * Connector/J's own {@code Statement.cancel()} and {@code setQueryTimeout}, so that the application
 * sees no difference.
 */
public final class StatementTimeouts {
  private StatementTimeouts() {}

  /** Connector/J's exception for a statement cancelled by {@code Statement.cancel()}. */
  public static SQLException cancelled() {
    return new MySQLStatementCancelledException();
  }

  /** Connector/J's exception for a statement whose query timeout expired. */
  public static SQLException timedOut() {
    return new MySQLTimeoutException();
  }

  /** Gives a physical statement {@code millis} (at least 1) for its next execution, as its query timeout. */
  public static void limit(Statement s, long millis) throws SQLException {
    s.unwrap(JdbcStatement.class).setTimeoutInMillis(Math.max(1, millis));
  }
}
