package dev.ryow.jdbc.it;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The replicas of one sandbox as lag injection ({@link LagPulse}, {@link LagBlock}) needs them: their ports, a
 * plain connection to each, the statements that stop and start an applier in the server's own words, and how
 * to resume them all and wait until they caught up. {@link Topology#REPLICAS} (MySQL) and
 * {@link MariaDbTopology#REPLICAS}.
 */
record Replicas(List<Integer> ports, Opener plain, String stopApplier, String startApplier, Action resume,
    Action awaitCaughtUp) {

  /** Opens a plain connection to the server on a port. */
  @FunctionalInterface
  interface Opener {
    Connection open(int port) throws SQLException;
  }

  /** Something done to the replicas. */
  @FunctionalInterface
  interface Action {
    void run() throws SQLException;
  }

  /** Runs {@code sql} on every replica, each on a plain connection of its own. */
  void execAll(String sql) throws SQLException {
    for (int port : ports) {
      try (Connection c = plain.open(port); java.sql.Statement s = c.createStatement()) {
        s.execute(sql);
      }
    }
  }
}
