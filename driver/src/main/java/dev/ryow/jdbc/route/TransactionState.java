package dev.ryow.jdbc.route;

import dev.ryow.jdbc.sql.StatementKind;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A logical connection's transaction state, as an explicit state machine: the application's
 * autocommit and read-only flags, the transaction opened with SQL, whether a statement ran since the
 * transaction began ({@link #started}), whether one ran on the primary inside it ({@link #holdsPrimary}),
 * and whether session state exists that only the primary has ({@link #pinned}). Every value is one of a
 * fixed set of interned instances, so a transition never allocates; every transition is a pure method.
 *
 * <p>The transitions (see {@code TransactionStateTest} for the table):
 * <ul>
 *   <li>{@link #ran}: after a statement ran. With autocommit off it starts the transaction; {@code BEGIN}
 *       opens one on the primary; {@code START TRANSACTION READ ONLY} opens one where it ran;
 *       {@code COMMIT}/{@code ROLLBACK} end it; a statement that creates primary-only session state
 *       pins the connection for good; a statement run on the primary inside a transaction makes the
 *       transaction hold its primary connection (it must not be swapped).
 *   <li>{@link #withAutoCommit}: switching autocommit on ends the open transaction (JDBC commits it).
 *   <li>{@link #withReadOnly}: refused (null) once a transaction has started.
 *   <li>{@link #ended}: {@code commit()} and {@code rollback()}.
 * </ul>
 */
public final class TransactionState {
  private static final SqlTransaction[] SQL = SqlTransaction.values();
  private static final TransactionState[] ALL = new TransactionState[32 * SQL.length];

  static {
    for (int i = 0; i < ALL.length; i++) {
      ALL[i] = new TransactionState(i);
    }
  }

  /** A new connection: autocommit on, read-write, nothing open, nothing pinned. */
  public static final TransactionState INITIAL = of(true, false, SqlTransaction.NONE, false, false, false);

  private static final int AUTO_COMMIT = 1;
  private static final int READ_ONLY = 2;
  private static final int STARTED = 4;
  private static final int HOLDS_PRIMARY = 8;
  private static final int PINNED = 16;

  private final int bits;

  private TransactionState(int bits) {
    this.bits = bits;
  }

  /** The interned state with these values. */
  @SuppressWarnings("EnumOrdinal") // the ordinal indexes this class's own table of interned states (in memory, never stored)
  public static TransactionState of(
      boolean autoCommit, boolean readOnly, SqlTransaction sql, boolean started, boolean holdsPrimary, boolean pinned) {
    return ALL[(autoCommit ? AUTO_COMMIT : 0) | (readOnly ? READ_ONLY : 0) | (started ? STARTED : 0)
        | (holdsPrimary ? HOLDS_PRIMARY : 0) | (pinned ? PINNED : 0) | sql.ordinal() * 32];
  }

  private TransactionState with(int set, int clear) {
    return ALL[(bits | set) & ~clear];
  }

  @SuppressWarnings("EnumOrdinal") // the ordinal indexes this class's own table of interned states (in memory, never stored)
  private TransactionState withSql(SqlTransaction sql) {
    return ALL[(bits & 31) | sql.ordinal() * 32];
  }

  private boolean is(int flag) {
    return (bits & flag) != 0;
  }

  // ---------------------------------------------------------------- what the state says

  /** The application's autocommit flag. */
  public boolean autoCommit() {
    return is(AUTO_COMMIT);
  }

  /** The application's read-only flag. */
  public boolean readOnly() {
    return is(READ_ONLY);
  }

  /** The transaction opened with SQL, if any. */
  public SqlTransaction sqlTransaction() {
    return SQL[bits >>> 5];
  }

  /** Autocommit is off and a statement ran since the last commit or rollback. */
  public boolean started() {
    return is(STARTED);
  }

  /** A statement ran on the primary inside the open transaction: its primary connection must not be swapped. */
  public boolean holdsPrimary() {
    return is(HOLDS_PRIMARY);
  }

  /** Session state exists that only the primary has: every statement runs there until the connection closes. */
  public boolean pinned() {
    return is(PINNED);
  }

  /** A transaction is open: autocommit is off, or one was opened with SQL. */
  public boolean inTransaction() {
    return !autoCommit() || sqlTransaction() != SqlTransaction.NONE;
  }

  // ---------------------------------------------------------------- transitions

  /** After a statement of {@code kind} ran, on the primary when {@code onPrimary}. */
  public TransactionState ran(StatementKind kind, boolean onPrimary) {
    TransactionState s = autoCommit() ? this : with(STARTED, 0);
    switch (kind) {
      case BEGIN -> s = s.withSql(SqlTransaction.ON_PRIMARY);
      case BEGIN_READ_ONLY -> s = s.withSql(onPrimary ? SqlTransaction.ON_PRIMARY : SqlTransaction.READ_ONLY_ON_REPLICA);
      case COMMIT, ROLLBACK -> {
        return s.ended();
      }
      case SESSION_PIN -> s = s.with(PINNED, 0);
      default -> { }
    }
    if (!onPrimary) {
      return s;
    }
    return s.inTransaction() ? s.with(HOLDS_PRIMARY, 0) : s.with(0, HOLDS_PRIMARY);
  }

  /** The transaction is over (committed or rolled back): nothing open, nothing started, nothing held. */
  public TransactionState ended() {
    return ALL[bits & (AUTO_COMMIT | READ_ONLY | PINNED)];
  }

  /** {@code setAutoCommit(on)}: switching it on ends the open transaction (JDBC commits it). */
  public TransactionState withAutoCommit(boolean on) {
    if (on == autoCommit()) {
      return this;
    }
    return on ? ended().with(AUTO_COMMIT, 0) : with(0, AUTO_COMMIT);
  }

  /**
   * {@code setReadOnly(readOnly)}: the new state, or null when it cannot change now (a transaction has
   * started: its server is chosen). Setting the current value is always allowed.
   */
  public @Nullable TransactionState withReadOnly(boolean readOnly) {
    if (readOnly == readOnly()) {
      return this;
    }
    if (started() || sqlTransaction() != SqlTransaction.NONE) {
      return null;
    }
    return readOnly ? with(READ_ONLY, 0) : with(0, READ_ONLY);
  }

  /** Every state there is (for the table tests). */
  static List<TransactionState> all() {
    return List.of(ALL);
  }

  /** E.g. {@code autocommit read-only NONE} or {@code manual ON_PRIMARY started holds-primary pinned}. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(autoCommit() ? "autocommit" : "manual");
    if (readOnly()) {
      b.append(" read-only");
    }
    b.append(' ').append(sqlTransaction());
    if (started()) {
      b.append(" started");
    }
    if (holdsPrimary()) {
      b.append(" holds-primary");
    }
    if (pinned()) {
      b.append(" pinned");
    }
    return b.toString();
  }
}
