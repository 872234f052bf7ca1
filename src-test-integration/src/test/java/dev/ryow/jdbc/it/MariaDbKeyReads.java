package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.MariaDbTopology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.MariaDbTopology.REPLICA_PORTS;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * How many lookups by key in one table each MariaDB server ran, as counted by the servers themselves:
 * {@code information_schema.TABLE_STATISTICS} ({@code KEY_READ_HITS + KEY_READ_MISSES}), kept while
 * {@code userstat} is ON (performance_schema, which the MySQL tests count with, is off by default on
 * MariaDB). A point select by primary key is one lookup (a hit when the row is there, a miss when it is
 * not); inserts and the replicas' row-based apply are none. MariaDB 10.11 has no {@code KEY_READ_*}
 * columns: there it counts {@code ROWS_READ}, the lookups that found their row ({@link #countsMisses()}
 * says which). Take one before, one after, subtract.
 */
record MariaDbKeyReads(String table, long primary, long replicas) {

  /** Turns the servers' statistics on (a global setting, until the server restarts). */
  static void enable() throws SQLException {
    for (int port : MariaDbTopology.ALL_PORTS) {
      MariaDbTopology.exec(port, "SET GLOBAL userstat = ON");
    }
  }

  static MariaDbKeyReads of(String table) throws SQLException {
    return new MariaDbKeyReads(table, on(PRIMARY_PORT, table), onReplicas(table));
  }

  /** Key lookups in {@code table} the replicas ran (asks only them: the primary may be down). */
  static long onReplicas(String table) throws SQLException {
    long replicas = 0;
    for (int port : REPLICA_PORTS) {
      replicas += on(port, table);
    }
    return replicas;
  }

  /**
   * {@link #of} once it stopped changing: a server adds a statement's lookups when the statement closes
   * its tables, just after the client has its result.
   */
  static MariaDbKeyReads settled(String table) throws SQLException {
    return Topology.unchanged(() -> of(table));
  }

  /** Whether the servers count lookups that found no row too (11.x), or only those that found one (10.11). */
  static boolean countsMisses() throws SQLException {
    try (Connection c = MariaDbTopology.plain(PRIMARY_PORT)) {
      return countsMisses(c);
    }
  }

  private static boolean countsMisses(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM information_schema.COLUMNS"
            + " WHERE TABLE_SCHEMA = 'information_schema' AND TABLE_NAME = 'TABLE_STATISTICS'"
            + " AND COLUMN_NAME = 'KEY_READ_MISSES'");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1) > 0;
    }
  }

  /** Key lookups in {@code table} (database {@code ryow}) the server on {@code port} ran. */
  static long on(int port, String table) throws SQLException {
    try (Connection c = MariaDbTopology.plain(port)) {
      return on(c, table);
    }
  }

  private static long on(Connection c, String table) throws SQLException {
    String counted = countsMisses(c) ? "KEY_READ_HITS + KEY_READ_MISSES" : "ROWS_READ";
    try (PreparedStatement ps = c.prepareStatement("SELECT COALESCE(SUM(" + counted + "), 0)"
            + " FROM information_schema.TABLE_STATISTICS WHERE TABLE_SCHEMA = 'ryow' AND TABLE_NAME = ?")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** The lookups run since {@code before}. */
  MariaDbKeyReads since(MariaDbKeyReads before) {
    return new MariaDbKeyReads(table, primary - before.primary, replicas - before.replicas);
  }

  @Override
  public String toString() {
    return String.format("key reads in %s: primary %d, replicas %d", table, primary, replicas);
  }
}
