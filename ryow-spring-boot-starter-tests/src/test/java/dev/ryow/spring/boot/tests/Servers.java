package dev.ryow.spring.boot.tests;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The sandbox's servers ({@code sandbox/ryow-sandbox}, port base {@code RYOW_SANDBOX_PORT_BASE}) through
 * plain Connector/J connections: setting up, blocking the replicas' appliers, reading final values.
 */
final class Servers {
  static final String HOST = "127.0.0.1";
  static final int PRIMARY_PORT = Integer.parseInt(System.getenv().getOrDefault("RYOW_SANDBOX_PORT_BASE", "23306"));
  static final List<Integer> REPLICA_PORTS = List.of(PRIMARY_PORT + 1, PRIMARY_PORT + 2);
  static final String USER = "ryow";
  static final String PASSWORD = "ryow";
  static final String DATABASE = "ryow";

  private Servers() {}

  /** The default {@code jdbc:ryow:} URL of the sandbox (no ryow.* parameter: the driver's defaults). */
  static String ryowUrl() {
    return "jdbc:ryow:mysql://" + HOST + ":" + PRIMARY_PORT + "," + HOST + ":" + REPLICA_PORTS.get(0) + "," + HOST + ":"
        + REPLICA_PORTS.get(1) + "/" + DATABASE;
  }

  static Connection plain(int port) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:mysql://" + HOST + ":" + port + "/" + DATABASE + "?allowPublicKeyRetrieval=true", USER, PASSWORD);
  }

  static void exec(int port, String sql) throws SQLException {
    try (Connection c = plain(port);
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /**
   * How many statements whose normalised text contains {@code digestFragment} the server on {@code port}
   * has executed (performance_schema digest summary, all sessions).
   */
  static long statementsLike(int port, String digestFragment) throws SQLException {
    try (Connection c = plain(port);
        PreparedStatement ps = c.prepareStatement("SELECT COALESCE(SUM(COUNT_STAR), 0)"
            + " FROM performance_schema.events_statements_summary_by_digest WHERE DIGEST_TEXT LIKE ?")) {
      ps.setString(1, "%" + digestFragment + "%");
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** {@link #statementsLike} summed over the replicas. */
  static long replicaStatementsLike(String digestFragment) throws SQLException {
    long n = 0;
    for (int port : REPLICA_PORTS) {
      n += statementsLike(port, digestFragment);
    }
    return n;
  }

  /** Blocks (up to 60 s) until every replica has executed what the primary has. */
  static void awaitReplicasCaughtUp() throws SQLException {
    String executed;
    try (Connection c = plain(PRIMARY_PORT);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@global.gtid_executed")) {
      rs.next();
      executed = rs.getString(1);
    }
    for (int port : REPLICA_PORTS) {
      try (Connection c = plain(port);
          PreparedStatement ps = c.prepareStatement("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 60)")) {
        ps.setString(1, executed);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (rs.getInt(1) != 0) {
            throw new AssertionError("replica on port " + port + " did not catch up in 60 s");
          }
        }
      }
    }
  }

  /**
   * Lag with nothing in flight: {@code STOP REPLICA SQL_THREAD} on each replica until {@link #close}
   * ({@code START REPLICA SQL_THREAD}). Taken after {@link #awaitReplicasCaughtUp}, both replicas stay at one
   * and the same position and own no GTID ({@code gtid_owned} empty), unlike {@link ApplierBlock}, whose
   * applier owns the GTIDs of the transactions it is blocked in.
   */
  static final class ApplierStop implements AutoCloseable {
    private final List<Integer> stopped = new java.util.ArrayList<>();

    ApplierStop() throws SQLException {
      try {
        for (int port : REPLICA_PORTS) {
          exec(port, "STOP REPLICA SQL_THREAD");
          stopped.add(port);
        }
      } catch (SQLException e) {
        close();
        throw e;
      }
    }

    @Override
    public void close() throws SQLException {
      SQLException first = null;
      for (int port : stopped) {
        try {
          exec(port, "START REPLICA SQL_THREAD");
        } catch (SQLException e) {
          first = first == null ? e : first;
        }
      }
      if (first != null) {
        throw first;
      }
    }
  }

  /**
   * Real lag with the appliers running, as production lag looks: a session on each replica holds
   * {@code FLUSH TABLES WITH READ LOCK}, so replication cannot commit until {@link #close}.
   */
  static final class ApplierBlock implements AutoCloseable {
    private final List<Connection> sessions = new java.util.ArrayList<>();

    ApplierBlock() throws SQLException {
      try {
        for (int port : REPLICA_PORTS) {
          Connection c = plain(port);
          sessions.add(c);
          try (Statement s = c.createStatement()) {
            s.execute("SET SESSION lock_wait_timeout = 5");
            s.execute("FLUSH TABLES WITH READ LOCK");
          }
        }
      } catch (SQLException e) {
        close();
        throw e;
      }
    }

    @Override
    public void close() throws SQLException {
      SQLException first = null;
      for (Connection c : sessions) {
        try (c; Statement s = c.createStatement()) {
          s.execute("UNLOCK TABLES");
        } catch (SQLException e) {
          first = first == null ? e : first;
        }
      }
      if (first != null) {
        throw first;
      }
    }
  }
}
