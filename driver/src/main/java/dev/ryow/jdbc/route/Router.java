package dev.ryow.jdbc.route;

import dev.ryow.jdbc.sql.StatementKind;

/**
 * "May this statement leave the primary?" Pure decision from the statement's kind and the session's
 * transaction state; the consistency gate decides afterwards whether the replica is ready.
 *
 * <ul>
 *   <li>Only {@link StatementKind#READ} leaves the primary, in autocommit mode or in a JDBC read-only
 *       transaction ({@code setReadOnly(true)} + {@code autoCommit=false}), and never once the session is
 *       pinned to the primary.
 *   <li>{@code START TRANSACTION READ ONLY} in autocommit mode opens the transaction on a replica; every
 *       statement of that transaction, its {@code COMMIT} or {@code ROLLBACK} included, follows it there.
 *   <li>Any other transaction opened with SQL keeps every statement on the primary until it ends.
 * </ul>
 */
public final class Router {
  private Router() {}

  /**
   * Routes one statement of {@code kind} in transaction state {@code tx}.
   */
  public static Target route(StatementKind kind, TransactionState tx) {
    switch (tx.sqlTransaction()) {
      case READ_ONLY_ON_REPLICA:
        return Target.REPLICA;
      case ON_PRIMARY:
        return Target.PRIMARY;
      case NONE:
      default:
        break;
    }
    if (tx.pinned()) {
      return Target.PRIMARY;
    }
    if (kind == StatementKind.BEGIN_READ_ONLY) {
      return tx.autoCommit() ? Target.REPLICA : Target.PRIMARY;
    }
    if (kind != StatementKind.READ) {
      return Target.PRIMARY;
    }
    return tx.autoCommit() || tx.readOnly() ? Target.REPLICA : Target.PRIMARY;
  }
}
