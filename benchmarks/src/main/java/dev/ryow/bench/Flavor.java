package dev.ryow.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * What the benchmarks say differently to MySQL and to MariaDB servers: how to learn a write's position and
 * wait for it on a replica (the hand-written approach and the catch-up between cells), and where the servers
 * count what they ran (MySQL: performance_schema; MariaDB, where performance_schema is off by default:
 * {@code userstat}'s {@code information_schema} tables).
 */
enum Flavor {
  MYSQL("SELECT @@global.gtid_executed", "SELECT @@global.gtid_executed", "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)",
      "SELECT COALESCE(SUM(COUNT_STAR), 0) FROM performance_schema.events_statements_summary_by_digest"
          + " WHERE SCHEMA_NAME = ? AND DIGEST_TEXT LIKE CONCAT('SELECT `v` FROM `', ?, '` WHERE %')",
      "SELECT COALESCE(SUM(COUNT_STAR), 0)"
          + " FROM performance_schema.events_statements_summary_by_user_by_event_name WHERE USER = ?"),
  MARIADB("SELECT @@last_gtid", "SELECT @@global.gtid_binlog_pos", "SELECT MASTER_GTID_WAIT(?, ?)",
      "SELECT COALESCE(SUM(KEY_READ_HITS + KEY_READ_MISSES), 0) FROM information_schema.TABLE_STATISTICS"
          + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
      "SELECT COALESCE(SUM(SELECT_COMMANDS + UPDATE_COMMANDS + OTHER_COMMANDS), 0)"
          + " FROM information_schema.USER_STATISTICS WHERE USER = ?");

  /** After a write, on the same connection: the position the hand-written approach waits for. */
  final String ownPosition;
  /** Everything the primary has committed, for the replicas to catch up with. */
  final String primaryPosition;
  /** On a replica: 0 once it has the position (parameter 1) within the seconds (parameter 2). */
  final String waitQuery;
  /** Reads of one table a server ran (parameters: database, table). */
  final String tableReads;
  /** Statements one user ran on a server (parameter: the user). */
  final String userStatements;

  Flavor(String ownPosition, String primaryPosition, String waitQuery, String tableReads, String userStatements) {
    this.ownPosition = ownPosition;
    this.primaryPosition = primaryPosition;
    this.waitQuery = waitQuery;
    this.tableReads = tableReads;
    this.userStatements = userStatements;
  }

  /**
   * The grant that lets the benchmarks' admin user inject lag and read the counters. On MariaDB, what that
   * takes rather than ALL PRIVILEGES: the sandbox's application user, which grants it, lacks READ_ONLY ADMIN.
   */
  String adminGrant(String user) {
    String privileges = this == MYSQL ? "ALL PRIVILEGES"
        : "SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, RELOAD, PROCESS, SUPER, REPLICATION SLAVE ADMIN, "
            + "SLAVE MONITOR, BINLOG MONITOR, CONNECTION ADMIN";
    return "GRANT " + privileges + " ON *.* TO '" + user + "'@'%'";
  }

  /** The flavour of the server at {@code url}, from its version string. */
  static Flavor of(String url) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT VERSION()")) {
      rs.next();
      return rs.getString(1).toLowerCase(Locale.ROOT).contains("mariadb") ? MARIADB : MYSQL;
    }
  }

  /**
   * Makes the server at {@code adminUrl} count what {@link #tableReads} and {@link #userStatements} read:
   * nothing to do on MySQL; {@code userstat} on MariaDB (a global setting, until the server restarts).
   */
  void countOn(String adminUrl) throws SQLException {
    if (this == MARIADB) {
      Topology.exec(adminUrl, "SET GLOBAL userstat = ON");
    }
  }

  /**
   * Whether the server at {@code url} is a Group Replication member (its own row in
   * {@code replication_group_members}): its applier belongs to the group and cannot be stopped. MariaDB has
   * no Group Replication.
   */
  boolean groupMember(String url) throws SQLException {
    return this == MYSQL && Topology.groupMember(url);
  }

  /** Whether the replicas' apply delay can be sampled ({@link ApplyDelaySampler}: MySQL's performance_schema). */
  boolean samplesApplyDelay() {
    return this == MYSQL;
  }
}
