package dev.ryow.jdbc.session;

import dev.ryow.jdbc.server.CurrentDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executor;

/**
 * One physical connection's copy of the logical connection's {@link SessionState}: what of it this
 * connection has applied. {@link #sync} replays the rest before the connection is used. The primary
 * connection's mirror is {@link #markApplied marked} as the application changes the state there directly.
 */
final class SessionMirror {
  private final SessionState state;
  private int replayed;
  private int statementsGeneration;
  private int databaseVersion;
  private int isolationVersion;
  private int holdabilityVersion;
  private int clientInfoVersion;
  private int networkTimeoutVersion;
  private boolean autoCommit = true;

  SessionMirror(SessionState state) {
    this.state = state;
  }

  /** The connection already has the whole state (the application set it there). */
  void markApplied(boolean autoCommitNow) {
    replayed = state.statements.size();
    statementsGeneration = state.statementsGeneration;
    databaseVersion = state.databaseVersion;
    isolationVersion = state.isolationVersion;
    holdabilityVersion = state.holdabilityVersion;
    clientInfoVersion = state.clientInfoVersion;
    networkTimeoutVersion = state.networkTimeoutVersion;
    autoCommit = autoCommitNow;
  }

  /** The autocommit mode this connection is in. */
  boolean autoCommit() {
    return autoCommit;
  }

  /** Whether {@link #sync} has nothing to do: the connection has the whole state and {@code wantAutoCommit}. */
  boolean inSync(boolean wantAutoCommit) {
    return autoCommit == wantAutoCommit
        && databaseVersion == state.databaseVersion
        && statementsGeneration == state.statementsGeneration
        && replayed == state.statements.size()
        && isolationVersion == state.isolationVersion
        && holdabilityVersion == state.holdabilityVersion
        && clientInfoVersion == state.clientInfoVersion
        && networkTimeoutVersion == state.networkTimeoutVersion;
  }

  /** Brings {@code c} up to date; {@code wantAutoCommit} is the autocommit it must have for its next statement. */
  void sync(Connection c, boolean wantAutoCommit) throws SQLException {
    if (databaseVersion != state.databaseVersion) {
      // The database first, as the primary got it: the JDBC call's database, then a USE that followed it.
      String database = state.database;
      if (database != null) {
        CurrentDatabase.set(c, database);
      }
      SessionState.Recorded use = state.use;
      if (use != null) {
        use.replay(c);
      }
      databaseVersion = state.databaseVersion;
    }
    if (statementsGeneration != state.statementsGeneration) {
      // A repeated statement moved: replaying the whole (short, distinct) list in order is correct.
      replayed = 0;
      statementsGeneration = state.statementsGeneration;
    }
    for (; replayed < state.statements.size(); replayed++) {
      state.statements.get(replayed).replay(c);
    }
    if (isolationVersion != state.isolationVersion && state.isolation >= 0) {
      c.setTransactionIsolation(state.isolation);
    }
    isolationVersion = state.isolationVersion;
    if (holdabilityVersion != state.holdabilityVersion && state.holdability >= 0) {
      c.setHoldability(state.holdability);
    }
    holdabilityVersion = state.holdabilityVersion;
    if (clientInfoVersion != state.clientInfoVersion) {
      c.setClientInfo(state.clientInfo);
    }
    clientInfoVersion = state.clientInfoVersion;
    Executor executor = state.timeoutExecutor;
    if (networkTimeoutVersion != state.networkTimeoutVersion && executor != null) {
      c.setNetworkTimeout(executor, state.networkTimeout);
    }
    networkTimeoutVersion = state.networkTimeoutVersion;
    if (autoCommit != wantAutoCommit) {
      c.setAutoCommit(wantAutoCommit);
      autoCommit = wantAutoCommit;
    }
  }
}
