package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.server.PhysicalConnection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.jspecify.annotations.Nullable;

/**
 * The application's views of one statement's physical result sets: each reports the statement
 * wrapper from {@code getStatement()} and its connection failures to the logical connection, and the
 * same physical result set always gets the same view (so {@code executeQuery} and a later
 * {@code getResultSet} agree).
 */
final class ResultSetWrappers {
  private final Statement owner;
  private final LinkFailures failures;
  private @Nullable ResultSet lastPhysical;
  private @Nullable ResultSet lastWrapped;

  ResultSetWrappers(Statement owner, LinkFailures failures) {
    this.owner = owner;
    this.failures = failures;
  }

  /** The view of {@code physical}, a result set of a physical statement on {@code on}. */
  ResultSet wrap(ResultSet physical, PhysicalConnection on) {
    ResultSet wrapped = lastWrapped;
    if (physical == lastPhysical && wrapped != null) {
      return wrapped;
    }
    wrapped = RoutedResultSet.wrap(physical, owner, failures, on);
    lastPhysical = physical;
    lastWrapped = wrapped;
    return wrapped;
  }

  /** Forgets the last result set (the statement closed). */
  void clear() {
    lastPhysical = null;
    lastWrapped = null;
  }
}
