package dev.ryow.jdbc.proxy;

import java.sql.SQLException;
import java.sql.Statement;
import org.jspecify.annotations.Nullable;

/** What the statement wrappers do alike with their physical statements: close them, ask whether they closed. */
final class PhysicalStatements {
  private PhysicalStatements() {}

  /** What every method of a closed statement throws: Connector/J's message and SQLState (JDBC names none). */
  static SQLException closed() {
    return new SQLException("No operations allowed after statement closed.", "S1009");
  }

  /** Whether {@code s} is closed; one whose connection fails to answer counts as closed. */
  static boolean isClosed(Statement s) {
    try {
      return s.isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  /** Closes {@code s} (if any); returns {@code failure}, or its failure, or {@code failure} with it suppressed. */
  static @Nullable SQLException close(@Nullable Statement s, @Nullable SQLException failure) {
    if (s == null) {
      return failure;
    }
    try {
      s.close();
      return failure;
    } catch (SQLException e) {
      if (failure == null) {
        return e;
      }
      failure.addSuppressed(e);
      return failure;
    }
  }
}
