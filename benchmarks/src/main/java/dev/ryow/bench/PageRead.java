package dev.ryow.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The kinds of read a workload page sends, each reading back one row {@code id} that the page's user wrote (so a
 * read that misses the user's write is seen as stale) and each starting {@code SELECT … FROM <table> …}, so that
 * the servers' digest counts find them ({@link Flavor#tableReads}). A key read is one primary-key lookup; the
 * others cost the server more, as an application's reads do: a range scans up to {@link #SPAN} + 1 rows, a join
 * joins the row with up to {@link #SPAN} + 1 rows of the same user and sums them.
 */
enum PageRead {
  /** {@code SELECT v FROM t WHERE id = ?}: the write-heavy page's only read. */
  KEY,
  /** The user's latest {@code SPAN + 1} rows up to {@code id}, newest first; the first row's value is the answer. */
  RANGE,
  /** The row joined with the user's rows just before it, grouped: {@code id}'s value, or no row. */
  JOIN;

  /** How many earlier rows a range or a join reads beside the row itself. */
  static final int SPAN = 19;
  /** Reads per read-heavy page: one write per 16 reads. */
  static final int READ_HEAVY_READS = 16;

  /**
   * The kind of a page's read number {@code k} (0 is the read right after the write): on a read-heavy page, the
   * fifth of every eight reads is a range and the eighth a join (16 reads: 12 key reads, 2 ranges, 2 joins); on a
   * write-heavy page every read is a key read.
   */
  static PageRead of(int k, boolean readHeavy) {
    if (!readHeavy) {
      return KEY;
    }
    return switch (k % 8) {
      case 4 -> RANGE;
      case 7 -> JOIN;
      default -> KEY;
    };
  }

  /** The statement on {@code table}. */
  String sql(String table) {
    return switch (this) {
      case KEY -> "SELECT v FROM " + table + " WHERE id = ?";
      case RANGE -> "SELECT v FROM " + table + " WHERE id BETWEEN ? AND ? ORDER BY id DESC";
      case JOIN -> "SELECT a.v, SUM(b.v) FROM " + table + " a JOIN " + table
          + " b ON b.id BETWEEN a.id - ? AND a.id WHERE a.id = ? GROUP BY a.v";
    };
  }

  /**
   * Runs this read of row {@code id} on {@code c}: the row's value, or {@link Approaches#MISSING} when it is not
   * there. {@code earlier} is how many rows the user wrote before {@code id} (a range or a join reads at most
   * {@link #SPAN} of them, never rows of another user).
   */
  int run(Connection c, String table, long id, long earlier) throws SQLException {
    long span = Math.max(0, Math.min(SPAN, earlier));
    try (PreparedStatement ps = c.prepareStatement(sql(table))) {
      switch (this) {
        case KEY -> ps.setLong(1, id);
        case RANGE -> {
          ps.setLong(1, id - span);
          ps.setLong(2, id);
        }
        case JOIN -> {
          ps.setLong(1, span);
          ps.setLong(2, id);
        }
      }
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Approaches.MISSING;
        }
        int v = rs.getInt(1);
        while (rs.next()) {
          rs.getInt(1); // a range reads all its rows, as an application listing them does
        }
        return v;
      }
    }
  }
}
