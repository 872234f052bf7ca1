package dev.ryow.jdbc.proxy;

import java.sql.ResultSet;
import java.sql.Statement;
import org.jspecify.annotations.Nullable;

/**
 * The application's views of one statement's physical result sets: each reports the statement
 * wrapper from {@code getStatement()}, and the same physical result set always gets the same view
 * (so {@code executeQuery} and a later {@code getResultSet} agree).
 */
final class ResultSetWrappers {
  private final Statement owner;
  private @Nullable ResultSet lastPhysical;
  private @Nullable ResultSet lastWrapped;

  ResultSetWrappers(Statement owner) {
    this.owner = owner;
  }

  /** The view of {@code physical}. */
  ResultSet wrap(ResultSet physical) {
    ResultSet wrapped = lastWrapped;
    if (physical == lastPhysical && wrapped != null) {
      return wrapped;
    }
    wrapped = RoutedResultSet.wrap(physical, owner);
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
