package dev.ryow.jdbc.route;

import dev.ryow.jdbc.sql.StatementKind;

/**
 * "May this statement leave the primary?" Pure decision from the statement's kind and the session's
 * transaction state; the consistency gate decides afterwards whether the replica is ready.
 */
public final class Router {
  private Router() {}

  /**
   * Routes one statement.
   *
   * @param kind what the classifier made of the SQL
   * @param autoCommit the connection's autocommit flag
   * @param readOnly the connection's read-only flag
   * @param inSqlTransaction a transaction was opened with SQL ({@code BEGIN}/{@code START TRANSACTION})
   * @param pinnedToPrimary session state exists that only the primary has
   */
  public static Target route(
      StatementKind kind, boolean autoCommit, boolean readOnly, boolean inSqlTransaction, boolean pinnedToPrimary) {
    if (kind != StatementKind.READ || inSqlTransaction || pinnedToPrimary) {
      return Target.PRIMARY;
    }
    return autoCommit || readOnly ? Target.REPLICA : Target.PRIMARY;
  }
}
