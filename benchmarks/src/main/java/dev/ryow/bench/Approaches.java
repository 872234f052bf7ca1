package dev.ryow.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The ways an application can read its own write from a primary/replica cluster, as the workload
 * runs them. Each thread gets a {@link Worker}: {@code write} inserts its row on the primary,
 * {@code read} reads it back. Every approach prepares its statements per use, as an application
 * without a statement cache (or an ORM) does.
 */
final class Approaches {
  /** What {@link Worker#read} returns when the row is not there. */
  static final int MISSING = Integer.MIN_VALUE;
  /** ryow's fallback budget off, so that every approach may fall back to the primary as often as it needs. */
  static final String UNLIMITED_FALLBACK = "ryow.fallbackRate=1000000&ryow.fallbackBurst=1000000";

  /** The hand-written approach's wait timeout, as ryow's default {@code ryow.waitTimeout=100}. */
  static final double HAND_WRITTEN_WAIT_SECONDS = 0.1;

  private Approaches() {}

  /** One thread's connections. */
  interface Worker extends AutoCloseable {
    void write(long id, int v) throws SQLException;

    int read(long id) throws SQLException;

    @Override
    void close() throws SQLException;
  }

  /** How to open a worker. */
  interface Approach {
    /** Short name, used in tables and table names. */
    String name();

    /** One line for the results. */
    String description();

    Worker open(Topology topology, int thread, String table) throws SQLException;
  }

  static List<Approach> all() {
    return List.of(
        single("ryow", "`jdbc:ryow:`, default `ryow.gtidCapture=own_gtid` (GTID from the OK packet), "
            + "`ryow.waitTimeout=100`, fallback to the primary (budget unlimited, as the other approaches'"
            + " fallbacks: `ryow.fallbackRate` is measured by FleetProtectionIT)", t -> t.ryowUrl(UNLIMITED_FALLBACK)),
        single("ryow-query", "`jdbc:ryow:` with `ryow.gtidCapture=query` (`SELECT @@global.gtid_executed` "
            + "before the next replica read)", t -> t.ryowUrl("ryow.gtidCapture=query", UNLIMITED_FALLBACK)),
        single("primary-only", "plain Connector/J, every statement on the primary", t -> t.mysqlUrl(t.primary())),
        new CjReplication(),
        new HandWritten());
  }

  interface UrlOf {
    String url(Topology t);
  }

  private static Approach single(String name, String description, UrlOf url) {
    return new Approach() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String description() {
        return description;
      }

      @Override
      public Worker open(Topology topology, int thread, String table) throws SQLException {
        Connection c = DriverManager.getConnection(url.url(topology));
        return new Worker() {
          @Override
          public void write(long id, int v) throws SQLException {
            insert(c, table, id, v);
          }

          @Override
          public int read(long id) throws SQLException {
            return select(c, table, id);
          }

          @Override
          public void close() throws SQLException {
            c.close();
          }
        };
      }
    };
  }

  /** Connector/J's replication driver: {@code setReadOnly(false)} to write, {@code true} to read. */
  static final class CjReplication implements Approach {
    @Override
    public String name() {
      return "cj-replication";
    }

    @Override
    public String description() {
      return "Connector/J's replication driver (`jdbc:mysql:replication://primary,replica1,replica2/…`), "
          + "`setReadOnly(false)` before the write, `setReadOnly(true)` before the read";
    }

    @Override
    public Worker open(Topology topology, int thread, String table) throws SQLException {
      Connection c = DriverManager.getConnection(topology.replicationUrl());
      return new Worker() {
        @Override
        public void write(long id, int v) throws SQLException {
          c.setReadOnly(false);
          insert(c, table, id, v);
        }

        @Override
        public int read(long id) throws SQLException {
          c.setReadOnly(true);
          return select(c, table, id);
        }

        @Override
        public void close() throws SQLException {
          c.close();
        }
      };
    }
  }

  /**
   * The articles' approach, by hand: after the write, {@code SELECT @@global.gtid_executed} on the
   * same primary connection; before the read, {@code WAIT_FOR_EXECUTED_GTID_SET(set, 0.1)} on a
   * replica connection; 0 reads there, anything else reads on the primary.
   */
  static final class HandWritten implements Approach {
    @Override
    public String name() {
      return "hand-written";
    }

    @Override
    public String description() {
      return "plain Connector/J, the articles' code: `SELECT @@global.gtid_executed` after the write, "
          + "`WAIT_FOR_EXECUTED_GTID_SET(set, 0.1)` on a replica before the read, primary on timeout";
    }

    @Override
    public Worker open(Topology topology, int thread, String table) throws SQLException {
      Connection primary = DriverManager.getConnection(topology.mysqlUrl(topology.primary()));
      List<String> replicas = topology.replicas();
      Connection replica = DriverManager.getConnection(topology.mysqlUrl(replicas.get(thread % replicas.size())));
      return new Worker() {
        private String gtidSet = "";

        @Override
        public void write(long id, int v) throws SQLException {
          insert(primary, table, id, v);
          try (PreparedStatement ps = primary.prepareStatement("SELECT @@global.gtid_executed");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            gtidSet = rs.getString(1);
          }
        }

        @Override
        public int read(long id) throws SQLException {
          boolean reached;
          try (PreparedStatement ps = replica.prepareStatement("SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)")) {
            ps.setString(1, gtidSet);
            ps.setDouble(2, HAND_WRITTEN_WAIT_SECONDS);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              int result = rs.getInt(1);
              reached = !rs.wasNull() && result == 0;
            }
          }
          return select(reached ? replica : primary, table, id);
        }

        @Override
        public void close() throws SQLException {
          try (primary; replica) {
            // closes both
          }
        }
      };
    }
  }

  static void insert(Connection c, String table, long id, int v) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, v) VALUES (?, ?)")) {
      ps.setLong(1, id);
      ps.setInt(2, v);
      ps.executeUpdate();
    }
  }

  static int select(Connection c, String table, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM " + table + " WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getInt(1) : MISSING;
      }
    }
  }
}
