package dev.ryow.jdbc.session;

import dev.ryow.jdbc.server.CurrentDatabase;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.sql.BinlogControls;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.Connection;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * What a session records of its settings, so that every physical connection shows the same session:
 * {@code SET}/{@code USE} statements that ran on the primary, and the JDBC calls that change session
 * state (catalog or schema, isolation, holdability, network timeout, client info), each applied to the
 * primary connection first, then recorded in the {@link SessionState} that the other physical
 * connections replay before their next use. Also where a physical statement is created (Connector/J
 * runs a statement in the database current at its creation).
 */
public final class SessionSettings {
  private final SessionState session;
  private final PrimaryLink link;
  private final Transactions transactions;
  private final int defaultMaxRows;

  SessionSettings(SessionState session, PrimaryLink link, Transactions transactions, int defaultMaxRows) {
    this.session = session;
    this.link = link;
    this.transactions = transactions;
    this.defaultMaxRows = defaultMaxRows;
  }

  /**
   * Connector/J's {@code maxRows} of the URL (0: every row): what a new statement's {@code getMaxRows()}
   * answers and every physical statement starts with, as with Connector/J.
   */
  public int defaultMaxRows() {
    return defaultMaxRows;
  }

  /** {@code maxRows} as Connector/J reads it: a number, -1 (the default) or anything below 1 meaning none. */
  static int maxRows(@Nullable String value) {
    if (value == null) {
      return 0;
    }
    try {
      return Math.max(0, Integer.parseInt(value.trim()));
    } catch (NumberFormatException e) {
      return 0; // Connector/J refuses such a value itself when it connects
    }
  }

  private boolean autoCommit() {
    return transactions.state().autoCommit();
  }

  /**
   * Records a session-level statement ({@code SET}, or {@code USE} for {@code kind} {@link StatementKind#USE})
   * that ran on the primary; replica connections replay it before their next use. A {@code SET} of the
   * binary-log controls of the session's own writes only ({@link BinlogControls}) is not replayed.
   */
  public void statement(StatementKind kind, String sql) {
    if (kind == StatementKind.USE) {
      session.use(sql, null);
    } else if (!BinlogControls.onlyShapesTheBinlog(sql)) {
      session.record(sql, null);
    }
    link.mirror().markApplied(autoCommit());
  }

  /** Records a prepared session-level statement and its parameters for replay on other connections. */
  public void statement(StatementKind kind, String sql, ParameterRecorder parameters) {
    if (kind == StatementKind.USE) {
      session.use(sql, parameters.copy());
    } else if (!BinlogControls.onlyShapesTheBinlog(sql)) {
      session.record(sql, parameters.copy());
    }
    link.mirror().markApplied(autoCommit());
  }

  /**
   * As Connector/J: moves the connection to {@code catalog} when its {@code databaseTerm} is
   * {@code CATALOG} (the default), does nothing when it is {@code SCHEMA}. Replica connections follow
   * what the primary connection did (see {@link #databaseCall}).
   */
  public void setCatalog(String catalog) throws SQLException {
    databaseCall(c -> c.setCatalog(catalog));
  }

  /**
   * Runs {@code setCatalog} or {@code setSchema} on the primary connection, then records the database
   * its Connector/J is in now, which every replica connection moves to before its next use. Whether the
   * call did anything depends on Connector/J's {@code databaseTerm}; asking Connector/J afterwards
   * follows it whatever the setting. When the database did not change but a {@code USE} sent as SQL had
   * moved the session elsewhere, the call may or may not have moved it back: the primary is asked
   * ({@code SELECT DATABASE()}, only in that case).
   */
  private void databaseCall(DatabaseCall call) throws SQLException {
    Connection c = link.connection().jdbc();
    String before = CurrentDatabase.of(c);
    call.on(c);
    String after = CurrentDatabase.of(c);
    if (after == null) {
      return;
    }
    if (!after.equals(before) || (session.use != null && after.equals(CurrentDatabase.onServer(c)))) {
      session.database(after);
    }
    link.mirror().markApplied(autoCommit());
  }

  /** The database the primary's Connector/J is in now: a statement created now runs there (Connector/J's rule). */
  public @Nullable String currentDatabase() throws SQLException {
    return CurrentDatabase.of(link.connection().jdbc());
  }

  /**
   * Creates a physical statement on {@code on} for a logical statement created while the connection was
   * in {@code database}. Connector/J runs each statement in the database that was current when it was
   * created; the logical statement creates its physical ones on first use, so when the connection has
   * moved since, the physical statement is created in {@code database} (two {@code USE} round trips,
   * only in that case) and then behaves as the application's statement would with Connector/J alone.
   */
  public <S> S createIn(@Nullable String database, PhysicalConnection on, StatementFactory<S> factory) throws SQLException {
    Connection c = on.jdbc();
    String now = database == null ? null : CurrentDatabase.of(c);
    if (database == null || now == null || now.equals(database)) {
      return factory.create(c);
    }
    CurrentDatabase.set(c, database);
    try {
      return factory.create(c);
    } finally {
      CurrentDatabase.set(c, now);
      SessionState.Recorded use = session.use;
      if (use != null) {
        use.replay(c);
      }
    }
  }

  /** {@code setCatalog} or {@code setSchema} on the primary's JDBC connection. */
  @FunctionalInterface
  private interface DatabaseCall {
    void on(Connection c) throws SQLException;
  }

  /**
   * As Connector/J: moves the connection to {@code schema} when its {@code databaseTerm} is
   * {@code SCHEMA}, does nothing when it is {@code CATALOG} (the default).
   */
  public void setSchema(String schema) throws SQLException {
    databaseCall(c -> c.setSchema(schema));
  }

  public void isolation(int level) throws SQLException {
    link.connection().jdbc().setTransactionIsolation(level);
    session.isolation(level);
    link.mirror().markApplied(autoCommit());
  }

  public void holdability(int holdability) throws SQLException {
    link.connection().jdbc().setHoldability(holdability);
    session.holdability(holdability);
    link.mirror().markApplied(autoCommit());
  }

  public void networkTimeout(Executor executor, int milliseconds) throws SQLException {
    link.connection().jdbc().setNetworkTimeout(executor, milliseconds);
    session.networkTimeout(executor, milliseconds);
    link.mirror().markApplied(autoCommit());
  }

  public void clientInfo(String name, @Nullable String value) throws SQLClientInfoException {
    link.connection().jdbc().setClientInfo(name, value);
    session.clientInfo(name, value);
    link.mirror().markApplied(autoCommit());
  }

  /** Replaces the client info on every physical connection; null clears it, as with Connector/J. */
  public void clientInfo(@Nullable Properties properties) throws SQLClientInfoException {
    link.connection().jdbc().setClientInfo(properties);
    session.clientInfo(properties);
    link.mirror().markApplied(autoCommit());
  }

  /** Creates one physical statement on a JDBC connection. */
  @FunctionalInterface
  public interface StatementFactory<S> {
    S create(Connection c) throws SQLException;
  }
}
