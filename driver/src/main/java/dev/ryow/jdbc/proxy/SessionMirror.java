package dev.ryow.jdbc.proxy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executor;

/**
 * One physical connection's copy of the logical connection's {@link SessionState}: what of it this
 * connection has applied. {@link #sync} replays the rest before the connection is used. The primary
 * connection's mirror is {@link #markApplied marked} as the application changes the state there directly.
 */
final class SessionMirror {
  private final SessionState state;
  private int replayed;
  private int catalogVersion;
  private int isolationVersion;
  private int networkTimeoutVersion;
  private boolean autoCommit = true;

  SessionMirror(SessionState state) {
    this.state = state;
  }

  /** The connection already has the whole state (the application set it there). */
  void markApplied(boolean autoCommitNow) {
    replayed = state.statements.size();
    catalogVersion = state.catalogVersion;
    isolationVersion = state.isolationVersion;
    networkTimeoutVersion = state.networkTimeoutVersion;
    autoCommit = autoCommitNow;
  }

  boolean autoCommit() {
    return autoCommit;
  }

  void sync(Connection c, boolean wantAutoCommit) throws SQLException {
    if (replayed < state.statements.size()) {
      try (Statement s = c.createStatement()) {
        for (; replayed < state.statements.size(); replayed++) {
          s.execute(state.statements.get(replayed));
        }
      }
    }
    String wantCatalog = state.catalog;
    if (catalogVersion != state.catalogVersion && wantCatalog != null) {
      c.setCatalog(wantCatalog);
    }
    catalogVersion = state.catalogVersion;
    if (isolationVersion != state.isolationVersion && state.isolation >= 0) {
      c.setTransactionIsolation(state.isolation);
    }
    isolationVersion = state.isolationVersion;
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
