package dev.ryow.jdbc.proxy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * The session state a logical connection's application set, recorded once: the {@code SET}/{@code USE}
 * statements in order, catalog, isolation, network timeout. Every physical connection of the logical
 * connection has a {@link SessionMirror} that replays what it has not applied yet. Never read back
 * from a server.
 */
final class SessionState {
  final List<String> statements = new ArrayList<>();
  @Nullable String catalog;
  int isolation = -1;
  @Nullable Executor timeoutExecutor;
  int networkTimeout = -1;
  /** Grow on every set, so that setting the same value again (after a {@code USE}) is replayed too. */
  int catalogVersion;
  int isolationVersion;
  int networkTimeoutVersion;

  void record(String sql) {
    statements.add(sql);
  }

  void catalog(String value) {
    catalog = value;
    catalogVersion++;
  }

  void isolation(int level) {
    isolation = level;
    isolationVersion++;
  }

  void networkTimeout(Executor executor, int millis) {
    timeoutExecutor = executor;
    networkTimeout = millis;
    networkTimeoutVersion++;
  }
}
