package dev.ryow.jdbc.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The MariaDB sandbox ({@code sandbox/ryow-sandbox --mariadb}: primary on {@code RYOW_SANDBOX_PORT_BASE}+30,
 * replicas on +31 and +32, server ids 21..23) for the {@code MariaDb*IT} classes: the driver's URL on its
 * defaults, plain Connector/J connections to each server, and its {@link #REPLICAS} for real lag:
 * {@link LagPulse} (stopped appliers) and {@link LagBlock} (appliers running but blocked).
 */
final class MariaDbTopology {
  private static final int PORT_BASE =
      Integer.parseInt(System.getenv().getOrDefault("RYOW_SANDBOX_PORT_BASE", "23306"));
  static final String HOST = "127.0.0.1";
  static final int PRIMARY_PORT = PORT_BASE + 30;
  static final List<Integer> REPLICA_PORTS = List.of(PORT_BASE + 31, PORT_BASE + 32);
  static final List<Integer> ALL_PORTS = List.of(PRIMARY_PORT, PORT_BASE + 31, PORT_BASE + 32);
  /** The replicas, for lag injection ({@link LagPulse}, {@link LagBlock}). */
  static final Replicas REPLICAS = new Replicas(REPLICA_PORTS, MariaDbTopology::plain, "STOP SLAVE SQL_THREAD",
      "START SLAVE SQL_THREAD", MariaDbTopology::resumeAppliers, MariaDbTopology::awaitReplicasCaughtUp);

  private MariaDbTopology() {}

  /** The sandbox's {@code @@server_id} of each server, by {@code @@port}: 21, 22, 23 in port order. */
  static java.util.Map<Integer, Long> serverIds() {
    java.util.Map<Integer, Long> ids = new java.util.HashMap<>();
    for (int i = 0; i < ALL_PORTS.size(); i++) {
      ids.put(ALL_PORTS.get(i), 21L + i);
    }
    return ids;
  }

  /**
   * The driver's URL for the MariaDB sandbox, with extra {@code key=value} parameters: none means the
   * driver's defaults; a {@code ryow.*} parameter belongs only in a test about that setting
   * ({@link ItSettingsRuleTest} enforces it).
   */
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

  /**
   * Opens a connection and returns once its cluster's poller has finished a round with every replica in
   * rotation (see {@link Topology#ryowPolledOnce}): tests that slow the poller down use it before they stop
   * the appliers.
   */
  static Connection ryowPolledOnce(String... parameters) throws SQLException {
    Connection c = ryow(parameters);
    try {
      Topology.awaitInRotation(c, REPLICA_PORTS.size());
    } catch (AssertionError | SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }

  static Connection plain(int port) throws SQLException {
    return DriverManager.getConnection("jdbc:mysql://" + HOST + ":" + port + "/ryow", "ryow", "ryow");
  }

  static void exec(int port, String sql) throws SQLException {
    try (Connection c = plain(port); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  static long queryLong(int port, String sql) throws SQLException {
    try (Connection c = plain(port); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Starts the sandbox if needed and every replica's threads. */
  static void start() {
    Sandbox.run("--mariadb", "start");
  }

  static void stopAppliers() throws SQLException {
    for (int port : REPLICA_PORTS) {
      exec(port, "STOP SLAVE SQL_THREAD");
    }
  }

  static void startAppliers() throws SQLException {
    for (int port : REPLICA_PORTS) {
      exec(port, "START SLAVE SQL_THREAD");
    }
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

  /** Waits (MASTER_GTID_WAIT, 60 s) until every replica has the primary's gtid_binlog_pos. */
  static void awaitReplicasCaughtUp() throws SQLException {
    String pos;
    try (Connection c = plain(PRIMARY_PORT); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@global.gtid_binlog_pos")) {
      rs.next();
      pos = rs.getString(1);
    }
    for (int port : REPLICA_PORTS) {
      long answer = queryLong(port, "SELECT MASTER_GTID_WAIT('" + pos + "', 60)");
      if (answer != 0) {
        throw new AssertionError("replica on port " + port + " did not reach " + pos + " in 60 s");
      }
    }
  }
}
