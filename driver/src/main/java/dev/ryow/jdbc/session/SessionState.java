package dev.ryow.jdbc.session;

import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * The session state a logical connection's application set, recorded once: the {@code SET}
 * statements in order (each distinct text once, with its parameters if it was prepared), the current
 * database, isolation, holdability, client info, network timeout. Every physical connection of the logical
 * connection has a {@link SessionMirror} that replays what it has not applied yet. Never read back
 * from a server.
 */
final class SessionState {
  /** A session statement as it ran on the primary: its text and, for a prepared one, its parameters. */
  record Recorded(String sql, @Nullable ParameterRecorder parameters) {
    void replay(java.sql.Connection c) throws java.sql.SQLException {
      ParameterRecorder p = parameters;
      if (p == null) {
        try (java.sql.Statement s = c.createStatement()) {
          s.execute(sql);
        }
      } else {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
          p.replay(ps);
          ps.execute();
        }
      }
    }
  }

  final List<Recorded> statements = new ArrayList<>();
  /** Grows when a repeated statement moved to the end: mirrors then replay the whole list again. */
  int statementsGeneration;
  /**
   * The database the primary's Connector/J is in after the last {@code setCatalog}/{@code setSchema}
   * that changed it (null: the URL's); whichever of the two calls Connector/J's {@code databaseTerm}
   * honours, this is what it did.
   */
  @Nullable String database;
  /** A {@code USE} sent as SQL after {@link #database} was set: the server is there, Connector/J does not know. */
  @Nullable Recorded use;
  int isolation = -1;
  int holdability = -1;
  final Properties clientInfo = new Properties();
  @Nullable Executor timeoutExecutor;
  int networkTimeout = -1;
  /** Grow on every set, so that setting the same value again (after a {@code USE}) is replayed too. */
  int databaseVersion;
  int isolationVersion;
  int holdabilityVersion;
  int clientInfoVersion;
  int networkTimeoutVersion;

  /**
   * Records a session statement. Running the same text again moves it to the end (it sets the same
   * variables, with the newest parameters), so the list holds each distinct statement once, in the
   * order of its last execution.
   */
  void record(String sql, @Nullable ParameterRecorder parameters) {
    for (int i = 0; i < statements.size(); i++) {
      if (statements.get(i).sql().equals(sql)) {
        statements.remove(i);
        statementsGeneration++;
        break;
      }
    }
    statements.add(new Recorded(sql, parameters));
  }

  /** The primary connection moved to {@code value} through JDBC: replicas move there too. */
  void database(String value) {
    database = value;
    use = null;
    databaseVersion++;
  }

  /** A {@code USE} statement ran on the primary: replicas run it too (after {@link #database}). */
  void use(String sql, @Nullable ParameterRecorder parameters) {
    use = new Recorded(sql, parameters);
    databaseVersion++;
  }

  void isolation(int level) {
    isolation = level;
    isolationVersion++;
  }

  void holdability(int value) {
    holdability = value;
    holdabilityVersion++;
  }

  void clientInfo(String name, @Nullable String value) {
    if (value == null) {
      clientInfo.remove(name);
    } else {
      clientInfo.setProperty(name, value);
    }
    clientInfoVersion++;
  }

  /** Replaces the client info by {@code properties}; null clears it, as Connector/J does. */
  void clientInfo(@Nullable Properties properties) {
    clientInfo.clear();
    if (properties != null) {
      clientInfo.putAll(properties);
    }
    clientInfoVersion++;
  }

  void networkTimeout(Executor executor, int millis) {
    timeoutExecutor = executor;
    networkTimeout = millis;
    networkTimeoutVersion++;
  }
}
