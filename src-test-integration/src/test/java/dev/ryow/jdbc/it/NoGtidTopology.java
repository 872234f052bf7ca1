package dev.ryow.jdbc.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * The sandbox without GTIDs ({@code sandbox/ryow-sandbox --no-gtid}: {@code gtid_mode=OFF}, primary on
 * {@code RYOW_SANDBOX_PORT_BASE}+40, replicas on +41 and +42 replicating by file and offset, server ids 1..3) for
 * the {@code NoGtid*IT} classes: the driver's URL on its defaults, plain Connector/J connections, and its
 * {@link #REPLICAS} for real lag ({@link LagPulse}, {@link LagBlock}).
 */
final class NoGtidTopology {
  private static final int PORT_BASE =
      Integer.parseInt(System.getenv().getOrDefault("RYOW_SANDBOX_PORT_BASE", "23306"));
  static final String HOST = "127.0.0.1";
  static final int PRIMARY_PORT = PORT_BASE + 40;
  static final List<Integer> REPLICA_PORTS = List.of(PORT_BASE + 41, PORT_BASE + 42);
  static final List<Integer> ALL_PORTS = List.of(PRIMARY_PORT, PORT_BASE + 41, PORT_BASE + 42);
  /** The sandbox's {@code @@server_id} of each server, by {@code @@port}. */
  static final Map<Integer, Long> SERVER_IDS = Map.of(PRIMARY_PORT, 1L, PORT_BASE + 41, 2L, PORT_BASE + 42, 3L);
  static final Replicas REPLICAS = new Replicas(REPLICA_PORTS, NoGtidTopology::plain, "STOP REPLICA SQL_THREAD",
      "START REPLICA SQL_THREAD", NoGtidTopology::resumeAppliers, NoGtidTopology::awaitReplicasCaughtUp);

  private NoGtidTopology() {}

  /** The driver's URL on its defaults (a {@code ryow.*} parameter only in a test about that setting). */
  static String ryowUrl(String... parameters) {
    StringBuilder url = new StringBuilder("jdbc:ryow:mysql://").append(HOST).append(':').append(PRIMARY_PORT);
    for (int port : REPLICA_PORTS) {
      url.append(',').append(HOST).append(':').append(port);
    }
    url.append("/ryow?user=ryow&password=ryow");
    for (String p : parameters) {
      url.append('&').append(p);
    }
    return url.toString();
  }

  static Connection ryow(String... parameters) throws SQLException {
    return DriverManager.getConnection(ryowUrl(parameters));
  }

  /** A plain Connector/J connection to the server on {@code port} ({@link Topology#plain}: same account). */
  static Connection plain(int port) throws SQLException {
    return Topology.plain(port);
  }

  static void exec(int port, String sql) throws SQLException {
    Topology.exec(port, sql);
  }

  static String queryString(int port, String sql) throws SQLException {
    try (Connection c = plain(port)) {
      return Topology.queryString(c, sql);
    }
  }

  /** Starts the sandbox if needed, and every replica's threads. */
  static void start() {
    Sandbox.run("--no-gtid", "start");
  }

  static void startAppliers() throws SQLException {
    REPLICAS.execAll("START REPLICA SQL_THREAD");
  }

  /** Starts the appliers and waits until every replica has what the primary has. */
  static void resumeAppliers() throws SQLException {
    startAppliers();
    awaitReplicasCaughtUp();
  }

  /** Drops and creates a table on the primary, then waits until every replica has it. */
  static void recreateTable(String table, String columns) throws SQLException {
    exec(PRIMARY_PORT, "DROP TABLE IF EXISTS " + table);
    exec(PRIMARY_PORT, "CREATE TABLE " + table + " (" + columns + ")");
    awaitReplicasCaughtUp();
  }

  /** Waits ({@code SOURCE_POS_WAIT}, 60 s) until every replica has executed the primary's binary log up to its end. */
  static void awaitReplicasCaughtUp() throws SQLException {
    String file;
    long pos;
    try (Connection c = plain(PRIMARY_PORT); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW BINARY LOG STATUS")) {
      rs.next();
      file = rs.getString(1);
      pos = rs.getLong(2);
    }
    for (int port : REPLICA_PORTS) {
      String answer = queryString(port, "SELECT SOURCE_POS_WAIT('" + file + "', " + pos + ", 60)");
      if (answer == null || Long.parseLong(answer) < 0) {
        throw new AssertionError("replica on port " + port + " did not reach " + file + ":" + pos + " in 60 s: " + answer);
      }
    }
  }

  /** Statements the server on {@code port} ran whose digest contains {@code fragment} ({@code performance_schema}). */
  static long statementsLike(int port, String fragment) throws SQLException {
    return Topology.statementsLike(port, fragment);
  }
}
