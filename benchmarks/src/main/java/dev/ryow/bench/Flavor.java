package dev.ryow.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * What the benchmarks say differently to MySQL, to MySQL without GTIDs and to MariaDB servers: how to learn a
 * write's position and wait for it on a replica (the hand-written approach and the catch-up between cells), and
 * where the servers count what they ran (MySQL, with or without GTIDs: performance_schema; MariaDB, where
 * performance_schema is off by default: {@code userstat}'s {@code information_schema} tables). Without GTIDs
 * ({@code gtid_mode=OFF}) a position is the primary's binary-log file and offset ({@code SHOW BINARY LOG STATUS}),
 * waited for with {@code SOURCE_POS_WAIT(file, pos, timeout)}.
 */
enum Flavor {
  MYSQL("SELECT @@global.gtid_executed", "SELECT @@global.gtid_executed", "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)",
      "SELECT COALESCE(SUM(COUNT_STAR), 0) FROM performance_schema.events_statements_summary_by_digest"
          + " WHERE SCHEMA_NAME = ? AND DIGEST_TEXT LIKE CONCAT('SELECT % FROM `', ?, '` %')",
      "SELECT COALESCE(SUM(COUNT_STAR), 0)"
          + " FROM performance_schema.events_statements_summary_by_user_by_event_name WHERE USER = ?"),
  MARIADB("SELECT @@last_gtid", "SELECT @@global.gtid_binlog_pos", "SELECT MASTER_GTID_WAIT(?, ?)",
      "SELECT COALESCE(SUM(KEY_READ_HITS + KEY_READ_MISSES), 0) FROM information_schema.TABLE_STATISTICS"
          + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
      "SELECT COALESCE(SUM(SELECT_COMMANDS + UPDATE_COMMANDS + OTHER_COMMANDS), 0)"
          + " FROM information_schema.USER_STATISTICS WHERE USER = ?"),
  MYSQL_NO_GTID("SHOW BINARY LOG STATUS", "SHOW BINARY LOG STATUS", "SELECT SOURCE_POS_WAIT(?, ?, ?)",
      MYSQL.tableReads, MYSQL.userStatements);

  /** After a write, on the same connection: the position the hand-written approach waits for. */
  final String ownPosition;
  /** Everything the primary has committed, for the replicas to catch up with. */
  final String primaryPosition;
  /**
   * On a replica: 0 once it has the position (parameter 1) within the seconds (parameter 2). Without GTIDs:
   * the file (1), the offset (2) and the seconds (3), and the number of events waited for (0 or more) once it
   * has it, -1 on timeout, NULL when the applier is stopped (see {@link #waitOn}).
   */
  final String waitQuery;
  /** Reads of one table a server ran (parameters: database, table). MySQL's, with or without GTIDs. */
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
    String privileges = this != MARIADB ? "ALL PRIVILEGES"
        : "SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, RELOAD, PROCESS, SUPER, REPLICATION SLAVE ADMIN, "
            + "SLAVE MONITOR, BINLOG MONITOR, CONNECTION ADMIN";
    return "GRANT " + privileges + " ON *.* TO '" + user + "'@'%'";
  }

  /** The flavour of the server at {@code url}, from its version string and, on MySQL, its {@code gtid_mode}. */
  static Flavor of(String url) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT VERSION()")) {
        rs.next();
        if (rs.getString(1).toLowerCase(Locale.ROOT).contains("mariadb")) {
          return MARIADB;
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT @@global.gtid_mode")) {
        rs.next();
        return "OFF".equalsIgnoreCase(rs.getString(1)) ? MYSQL_NO_GTID : MYSQL;
      }
    }
  }

  /** Whether the servers run without GTIDs: positions are binary-log files and offsets. */
  boolean noGtid() {
    return this == MYSQL_NO_GTID;
  }

  /**
   * Runs {@code sql} ({@link #ownPosition} or {@link #primaryPosition}) on {@code c} and returns the position:
   * a GTID set or GTID; without GTIDs, the binary log's file and offset joined by a tab.
   */
  String position(Connection c, String sql) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      if (!rs.next()) {
        throw new SQLException(sql + " returned no row: is binary logging on?");
      }
      return noGtid() ? rs.getString(1) + "\t" + rs.getLong(2) : rs.getString(1);
    }
  }

  /**
   * Waits on the replica connection {@code c} (one statement, {@link #waitQuery}) at most {@code seconds} for
   * {@code position} (as {@link #position} returns it); whether the replica has it. GTID waits answer 0;
   * {@code SOURCE_POS_WAIT} answers the events it waited for (0 or more), and -1 (timeout) or NULL (applier
   * stopped, or not a replica) when it does not have it.
   */
  boolean waitOn(Connection c, String position, double seconds) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(waitQuery)) {
      if (noGtid()) {
        int tab = position.indexOf('\t');
        ps.setString(1, position.substring(0, tab));
        ps.setLong(2, Long.parseLong(position.substring(tab + 1)));
        ps.setDouble(3, seconds);
      } else {
        ps.setString(1, position);
        ps.setDouble(2, seconds);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long result = rs.getLong(1);
        if (rs.wasNull()) {
          return false;
        }
        return noGtid() ? result >= 0 : result == 0;
      }
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
    return this != MARIADB && Topology.groupMember(url);
  }

  /**
   * Whether the replicas' apply delay can be sampled ({@link ApplyDelaySampler}: MySQL's performance_schema, which
   * tells transactions apart by GTID: without GTIDs every one is {@code ANONYMOUS}).
   */
  boolean samplesApplyDelay() {
    return this == MYSQL;
  }
}
