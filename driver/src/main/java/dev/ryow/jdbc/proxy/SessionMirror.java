package dev.ryow.jdbc.proxy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * The replica connection's copy of the logical connection's session state: recorded when the
 * application sets it (on the primary), replayed on the replica connection before its next use.
 * Never read back from a server.
 */
final class SessionMirror {
  private final List<String> statements = new ArrayList<>();
  private int replayed;
  private @Nullable String catalog;
  private boolean catalogDirty;
  private int isolation = -1;
  private boolean isolationDirty;
  private @Nullable Executor timeoutExecutor;
  private int networkTimeout = -1;
  private boolean networkTimeoutDirty;
  private boolean autoCommit = true;

  void newConnection() {
    replayed = 0;
    catalogDirty = catalog != null;
    isolationDirty = isolation >= 0;
    networkTimeoutDirty = networkTimeout >= 0;
    autoCommit = true;
  }

  void record(String sql) {
    statements.add(sql);
  }

  void catalog(String value) {
    catalog = value;
    catalogDirty = true;
  }

  void isolation(int level) {
    isolation = level;
    isolationDirty = true;
  }

  void networkTimeout(Executor executor, int millis) {
    timeoutExecutor = executor;
    networkTimeout = millis;
    networkTimeoutDirty = true;
  }

  boolean autoCommit() {
    return autoCommit;
  }

  void sync(Connection c, boolean wantAutoCommit) throws SQLException {
    if (replayed < statements.size()) {
      try (Statement s = c.createStatement()) {
        for (; replayed < statements.size(); replayed++) {
          s.execute(statements.get(replayed));
        }
      }
    }
    if (catalogDirty && catalog != null) {
      c.setCatalog(catalog);
      catalogDirty = false;
    }
    if (isolationDirty) {
      c.setTransactionIsolation(isolation);
      isolationDirty = false;
    }
    if (networkTimeoutDirty && timeoutExecutor != null) {
      c.setNetworkTimeout(timeoutExecutor, networkTimeout);
      networkTimeoutDirty = false;
    }
    if (autoCommit != wantAutoCommit) {
      c.setAutoCommit(wantAutoCommit);
      autoCommit = wantAutoCommit;
    }
  }
}
