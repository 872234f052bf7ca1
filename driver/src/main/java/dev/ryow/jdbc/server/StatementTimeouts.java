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

  /**
   * When a query timeout of {@code seconds} set on a statement expires if its execution starts now
   * ({@link System#nanoTime()}), 0 when it has none. The timeout covers the replica wait and the statement:
   * the wait ends by it, and {@link #within} gives the statement what is left.
   */
  public static long deadline(int seconds) {
    if (seconds == 0) {
      return 0;
    }
    long d = System.nanoTime() + seconds * 1_000_000_000L;
    return d == 0 ? 1 : d;
  }

  /** {@code s}, given the rest of the query timeout that expires at {@code deadline} (0: none, untouched). */
  public static <S extends Statement> S within(S s, long deadline) throws SQLException {
    if (deadline != 0) {
      limit(s, (deadline - System.nanoTime() + 999_999) / 1_000_000);
    }
    return s;
  }
}
