package dev.ryow.jdbc.session;

import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Runs a {@link TransactionLog} again on a new primary connection, in order, each statement in its
 * database with its recorded parameters, and compares what the application saw: every update count, and
 * the rows and generated keys it read ({@link RowChecksum}). The first difference ends the replay: the
 * caller rolls it back and the application gets the original error.
 */
final class TransactionReplay {
  private TransactionReplay() {}

  /**
   * Replays {@code log} on {@code on} (the session's flags and state already there). Returns null when
   * every result is identical, else what differed (for the log and the application's exception).
   */
  static @Nullable String run(TransactionLog log, PhysicalConnection on, SessionSettings settings,
      boolean autoCommit) throws SQLException {
    List<TransactionLog.Entry> entries = List.copyOf(log.entries());
    if (autoCommit && (entries.isEmpty() || (entries.get(0).kind != StatementKind.BEGIN
        && entries.get(0).kind != StatementKind.BEGIN_READ_ONLY))) {
      // In autocommit mode only a recorded BEGIN makes the replay one transaction: never commit it piecemeal.
      return "the start of the transaction was not recorded";
    }
    int i = 0;
    for (TransactionLog.Entry e : entries) {
      i++;
      String differs = replay(e, on, settings);
      if (differs != null) {
        return "statement " + i + " of " + entries.size() + " (" + e.kind + "): " + differs;
      }
    }
    return null;
  }

  private static @Nullable String replay(TransactionLog.Entry e, PhysicalConnection on, SessionSettings settings)
      throws SQLException {
    boolean keys = e.keys != null;
    int generated = keys ? Statement.RETURN_GENERATED_KEYS : Statement.NO_GENERATED_KEYS;
    ParameterRecorder parameters = e.parameters;
    Statement s = parameters != null
        ? settings.createIn(e.database, on, c -> c.prepareStatement(e.sql, generated))
        : settings.createIn(e.database, on, c -> c.createStatement());
    try (s) {
      if (s instanceof PreparedStatement ps && parameters != null) {
        parameters.replay(ps);
        ps.execute();
      } else {
        s.execute(e.sql, generated);
      }
      long count = s.getLargeUpdateCount();
      if (count != e.updateCount) {
        return "update count " + count + " instead of " + e.updateCount;
      }
      if (e.rows.read()) {
        ResultSet rs = s.getResultSet();
        if (rs == null || !e.rows.matches(rs)) {
          return "the rows it read differ";
        }
      }
      RowChecksum k = e.keys;
      if (k != null && k.read() && !k.matches(s.getGeneratedKeys())) {
        return "the generated keys it read differ";
      }
    }
    return null;
  }
}
