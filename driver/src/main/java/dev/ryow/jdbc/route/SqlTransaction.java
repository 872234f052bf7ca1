package dev.ryow.jdbc.route;

/** A transaction the application opened with SQL ({@code BEGIN}, {@code START TRANSACTION}) in autocommit mode. */
public enum SqlTransaction {
  /** None open. */
  NONE,
  /** Open on the primary: every statement goes there until {@code COMMIT}/{@code ROLLBACK}. */
  ON_PRIMARY,
  /** {@code START TRANSACTION READ ONLY} open on the replica: every statement goes there until it ends. */
  READ_ONLY_ON_REPLICA
}
