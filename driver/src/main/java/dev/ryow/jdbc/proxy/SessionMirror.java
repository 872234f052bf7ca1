package dev.ryow.jdbc.proxy;

import java.sql.Connection;
import java.sql.PreparedStatement;
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
  /** A session statement as it ran on the primary: its text and, for a prepared one, its parameters. */
  private record Recorded(String sql, @Nullable ParameterRecorder parameters) {}

  private final List<Recorded> statements = new ArrayList<>();
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
    record(sql, null);
  }

  /**
   * Records a prepared session statement with a copy of its parameters; a later execution of the
   * same text replaces it (it sets the same variables).
   */
  void record(String sql, @Nullable ParameterRecorder parameters) {
    for (int i = 0; i < statements.size(); i++) {
      if (statements.get(i).sql().equals(sql)) {
        statements.remove(i);
        if (i < replayed) {
          replayed--;
        }
        break;
      }
    }
    statements.add(new Recorded(sql, parameters));
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
    for (; replayed < statements.size(); replayed++) {
      Recorded r = statements.get(replayed);
      ParameterRecorder parameters = r.parameters();
      if (parameters == null) {
        try (Statement s = c.createStatement()) {
          s.execute(r.sql());
        }
      } else {
        try (PreparedStatement ps = c.prepareStatement(r.sql())) {
          parameters.replay(ps);
          ps.execute();
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
