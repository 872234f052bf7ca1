package dev.ryow.jdbc.session;

import dev.ryow.jdbc.route.RetryRule;
import dev.ryow.jdbc.sql.ImplicitCommits;
import dev.ryow.jdbc.sql.StatementKind;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The open transaction's statements as they ran on the primary, for a replay on a new primary
 * ({@code ryow.transactionReplay}; a session has none when it is off, so nothing is recorded). Each
 * entry holds the statement's text, kind, database, a copy of its parameters ({@link ParameterRecorder}),
 * its update count, and what the application read of its results ({@link RowChecksum}: rows and
 * generated keys). Bounded: at most {@link #MAX_STATEMENTS} statements and {@link #MAX_BYTES} of SQL text
 * and parameters; past that, or once a statement that cannot be replayed ran, the log is
 * {@linkplain RetryRule.Replay#INCOMPLETE incomplete} (its entries dropped) until the transaction ends.
 *
 * <p>Belongs to its session's thread, like the session.
 */
public final class TransactionLog {
  /** Most statements recorded per transaction. */
  public static final int MAX_STATEMENTS = 1_000;
  /** Most bytes of SQL text (two per char) and parameter values recorded per transaction (1 MiB). */
  public static final long MAX_BYTES = 1L << 20;
  /** Bytes counted per entry beyond its text and parameters. */
  private static final int ENTRY_BYTES = 64;

  private final List<Entry> entries = new ArrayList<>();
  private long bytes;
  /** Why the log does not hold the whole transaction, or null while it does. */
  private @Nullable String incomplete;

  /** One statement of the transaction, as it ran. */
  public static final class Entry {
    final StatementKind kind;
    final String sql;
    final @Nullable String database;
    final @Nullable ParameterRecorder parameters;
    long updateCount = -1;
    final RowChecksum rows = new RowChecksum();
    @Nullable RowChecksum keys;

    Entry(StatementKind kind, String sql, @Nullable String database, @Nullable ParameterRecorder parameters) {
      this.kind = kind;
      this.sql = sql;
      this.database = database;
      this.parameters = parameters;
    }

    /** The update count the statement returned ({@code getLargeUpdateCount}: -1 for a result set). */
    public void updateCount(long count) {
      updateCount = count;
    }

    /** What the application reads of the statement's result set. */
    public RowChecksum rows() {
      return rows;
    }

    /** What the application reads of the statement's generated keys. */
    public RowChecksum keys() {
      RowChecksum k = keys;
      if (k == null) {
        k = new RowChecksum();
        keys = k;
      }
      return k;
    }

    @Override
    public String toString() {
      return kind + " (" + sql.length() + " chars)";
    }
  }

  /**
   * After {@code x} ran ({@code onPrimary}: on the primary connection); {@code inTransaction}: a
   * transaction is open after it. Returns its entry, or null when it is not recorded (outside a
   * transaction the log is emptied).
   */
  @Nullable Entry ran(Execution x, boolean onPrimary, boolean inTransaction) {
    if (!inTransaction) {
      clear();
      return null;
    }
    if (incomplete != null) {
      return null;
    }
    String why = whyNot(x, onPrimary);
    if (why != null) {
      cut(why);
      return null;
    }
    ParameterRecorder p = x.parameters();
    ParameterRecorder copy = p == null ? null : p.copy();
    bytes += ENTRY_BYTES + 2L * x.sql().length() + (copy == null ? 0 : copy.sizeEstimate());
    if (entries.size() >= MAX_STATEMENTS || bytes > MAX_BYTES) {
      cut("it passed the cap of " + MAX_STATEMENTS + " statements or " + MAX_BYTES + " bytes");
      return null;
    }
    Entry e = new Entry(x.kind(), x.sql(), x.database(), copy);
    entries.add(e);
    return e;
  }

  /** Why {@code x} cannot be part of a replay, or null when it can. */
  private @Nullable String whyNot(Execution x, boolean onPrimary) {
    if (!onPrimary) {
      return "a statement ran on a replica";
    }
    String sql = x.sql();
    if (sql.isEmpty()) {
      return "a batch or a stored procedure call ran"; // executions without an SQL string of their own
    }
    ParameterRecorder p = x.parameters();
    if (p != null && !p.replayableLater()) {
      return "a parameter is a stream, a reader or a LOB";
    }
    boolean begins = x.kind() == StatementKind.BEGIN || x.kind() == StatementKind.BEGIN_READ_ONLY;
    if (begins ? !entries.isEmpty() : ImplicitCommits.possible(sql)) {
      // BEGIN inside a transaction, COMMIT AND CHAIN, ROLLBACK AND CHAIN: what ran before is over
      return "a statement that may commit implicitly ran";
    }
    return null;
  }

  /** The transaction cannot be replayed ({@code why}, for the log) until it ends. */
  void cut(String why) {
    if (incomplete == null) {
      incomplete = why;
    }
    entries.clear();
    bytes = 0;
  }

  /** A GTID arrived while a transaction was open: a statement committed it (implicitly: DDL...). */
  void committed() {
    cut("a statement committed the transaction implicitly");
  }

  /** The transaction ended: the log starts afresh. */
  void clear() {
    if (!entries.isEmpty()) {
      entries.clear();
    }
    bytes = 0;
    incomplete = null;
  }

  /** What the log holds, for the {@link RetryRule}, if {@code failed} (which failed) ran again after a replay. */
  RetryRule.Replay state(Execution failed) {
    return incomplete == null && whyNot(failed, true) == null ? RetryRule.Replay.RECORDED
        : RetryRule.Replay.INCOMPLETE;
  }

  /** Why the log cannot replay the transaction with {@code failed} after it, for the log; null if it can. */
  @Nullable String whyIncomplete(Execution failed) {
    return incomplete != null ? incomplete : whyNot(failed, true);
  }

  /** The recorded statements, in order. */
  List<Entry> entries() {
    return entries;
  }
}
