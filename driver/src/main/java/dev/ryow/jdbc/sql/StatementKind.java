package dev.ryow.jdbc.sql;

/**
 * The routing intent of one SQL string, as decided by {@link SqlClassifier#classify(String)}.
 *
 * <p>Only {@link #READ} may go to a replica. Every other kind runs on the primary; the kinds other
 * than {@link #READ}, {@link #PRIMARY_READ} and {@link #WRITE} additionally tell the router that
 * session or transaction state changes.
 */
public enum StatementKind {
  /**
   * Provably read-only, reading replicated data only, and safe to run on a replica: {@code SELECT},
   * {@code WITH … SELECT}, {@code TABLE t}, {@code VALUES ROW(…)}, parenthesised queries and unions,
   * {@code SHOW} of schema objects and accounts ({@code TABLES}, {@code COLUMNS}, {@code INDEX},
   * {@code CREATE TABLE}, {@code GRANTS}, …), {@code DESCRIBE}/{@code DESC}/{@code EXPLAIN} of a read,
   * {@code HELP}. Of the system variables only the server's identity ({@code @@port},
   * {@code @@server_uuid}, {@code @@server_id}, {@code @@hostname}) may be read here: it says which
   * server ran the statement.
   */
  READ,

  /**
   * Read-only, but must run on the primary: locking reads ({@code FOR UPDATE}, {@code FOR SHARE},
   * {@code LOCK IN SHARE MODE}), reads of session-bound values ({@code LAST_INSERT_ID()},
   * {@code ROW_COUNT()}, {@code FOUND_ROWS()}, {@code CONNECTION_ID()}, {@code PS_CURRENT_THREAD_ID()},
   * {@code CURRENT_ROLE()}, lock functions other than {@code GET_LOCK}, user variables {@code @x}),
   * reads of any system variable but the server's identity, in any scope and spelling
   * ({@code @@identity}, {@code @@session . sql_mode}, {@code @@global.gtid_executed}, …),
   * {@code VERSION()}, {@code performance_schema}/{@code sys} and the runtime tables of
   * {@code information_schema}, {@code SQL_CALC_FOUND_ROWS}, every {@code SHOW} but those of schema
   * objects and accounts ({@code SHOW STATUS}, {@code VARIABLES}, {@code WARNINGS}, {@code PROCESSLIST}, …),
   * {@code EXPLAIN ANALYZE} of a read, {@code EXPLAIN} (without {@code ANALYZE}) of a write,
   * {@code XA RECOVER}, and any read carrying a {@code ryow:primary} hint.
   */
  PRIMARY_READ,

  /**
   * May change data, or cannot be proved read-only: DML, DDL, account management, {@code CALL},
   * {@code DO}, {@code HANDLER}, {@code LOAD}, {@code XA END}/{@code PREPARE}, {@code UNLOCK TABLES},
   * {@code SELECT … INTO},
   * {@code NEXTVAL}/{@code SETVAL}, {@code SET GLOBAL}/{@code PERSIST}/{@code PASSWORD}, multi-statements
   * without session changes, unterminated strings or comments, unbalanced parentheses, empty or unknown
   * statements.
   */
  WRITE,

  /**
   * Sets session state that the router records and replays on a replica before using it:
   * {@code SET} of session or user variables, {@code SET NAMES}, {@code SET CHARACTER SET},
   * {@code SET SESSION TRANSACTION …}, {@code SET ROLE}.
   */
  SET_SESSION,

  /** {@code SET TRANSACTION …} without a scope: applies to the next transaction only. */
  SET_TRANSACTION,

  /** {@code USE db}: changes the default database. */
  USE,

  /**
   * Starts a read-write transaction: {@code BEGIN [WORK]}, {@code START TRANSACTION [READ WRITE]
   * [WITH CONSISTENT SNAPSHOT]}, {@code XA START}/{@code XA BEGIN} (every statement up to the
   * matching {@code XA COMMIT}/{@code XA ROLLBACK} stays on the primary); also {@code COMMIT AND CHAIN}
   * and {@code ROLLBACK AND CHAIN}, which end a transaction and open the next one at once.
   */
  BEGIN,

  /** {@code START TRANSACTION READ ONLY}, possibly with other characteristics. */
  BEGIN_READ_ONLY,

  /**
   * {@code COMMIT [WORK] [AND NO CHAIN] [[NO] RELEASE]} ({@code AND CHAIN} is {@link #BEGIN}), and
   * {@code XA COMMIT xid [ONE PHASE]}.
   */
  COMMIT,

  /**
   * {@code ROLLBACK [WORK] [AND NO CHAIN] [[NO] RELEASE]}, but not {@code ROLLBACK TO} ({@link
   * #SAVEPOINT_CONTROL}) nor {@code AND CHAIN} ({@link #BEGIN}); and {@code XA ROLLBACK xid}.
   */
  ROLLBACK,

  /** {@code SAVEPOINT x}, {@code ROLLBACK [WORK] TO [SAVEPOINT] x}, {@code RELEASE SAVEPOINT x}. */
  SAVEPOINT_CONTROL,

  /**
   * Creates session state that cannot be mirrored to a replica, so this and all later work of the
   * session must stay on the primary: {@code CREATE TEMPORARY TABLE}, {@code PREPARE},
   * {@code EXECUTE}, {@code DEALLOCATE}/{@code DROP PREPARE}, {@code LOCK TABLES},
   * {@code LOCK INSTANCE}, any statement calling {@code GET_LOCK}, a {@code SET} whose value cannot
   * be replayed (a subquery, a session-bound or unknown function), a {@code SET} of
   * {@code autocommit} or {@code completion_type} (transaction state the connection would not see),
   * and multi-statements that contain a session or transaction statement.
   */
  SESSION_PIN
}
