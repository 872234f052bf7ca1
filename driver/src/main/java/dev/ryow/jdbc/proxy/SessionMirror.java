package dev.ryow.jdbc.proxy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
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
  private int holdability = -1;
  private boolean holdabilityDirty;
  private final Properties clientInfo = new Properties();
  private boolean clientInfoDirty;

  /** A new replica connection: everything recorded must be applied to it. */
  void newConnection() {
    replayed = 0;
    catalogDirty = catalog != null;
    isolationDirty = isolation >= 0;
    networkTimeoutDirty = networkTimeout >= 0;
    holdabilityDirty = holdability >= 0;
    clientInfoDirty = !clientInfo.isEmpty();
    autoCommit = true;
  }

  /**
   * Records a session statement. Repeating a statement moves it to the end (it is replayed again
   * if the replica had it already), so the list holds each distinct statement once and replay keeps
   * the application's order.
   */
  void record(String sql) {
    int existing = statements.indexOf(sql);
    if (existing >= 0) {
      statements.remove(existing);
      if (existing < replayed) {
        replayed--;
      }
    }
    statements.add(sql);
  }

  void holdability(int value) {
    holdability = value;
    holdabilityDirty = true;
  }

  void clientInfo(String name, @Nullable String value) {
    if (value == null) {
      clientInfo.remove(name);
    } else {
      clientInfo.setProperty(name, value);
    }
    clientInfoDirty = true;
  }

  void clientInfo(Properties properties) {
    clientInfo.clear();
    clientInfo.putAll(properties);
    clientInfoDirty = true;
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

  /** Brings the replica connection {@code c} up to date; {@code wantAutoCommit} is its required autocommit. */
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
    if (holdabilityDirty) {
      c.setHoldability(holdability);
      holdabilityDirty = false;
    }
    if (clientInfoDirty) {
      c.setClientInfo(clientInfo);
      clientInfoDirty = false;
    }
    if (autoCommit != wantAutoCommit) {
      c.setAutoCommit(wantAutoCommit);
      autoCommit = wantAutoCommit;
    }
  }
}
