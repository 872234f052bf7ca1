package dev.ryow.jdbc.session;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;

/**
 * What the application read of one result set, for a transaction replay to compare: how many rows it
 * reached with {@code next()}, whether it saw the end, and a running 64-bit checksum (FNV-1a) of every
 * column of those rows. A column is checksummed as the server sent it: its bytes for binary types, its
 * text otherwise, with its length first and a marker for SQL {@code NULL}, so that moving a value from
 * one column to the next changes the sum. Exists only while {@code ryow.transactionReplay} records a
 * transaction: the statement path never makes one otherwise.
 *
 * <p>The replay computes the same over the replayed result ({@link #matches}): the same rows reached,
 * the same end seen, the same sum. Rows the application did not reach are not compared.
 */
public final class RowChecksum {
  private static final long OFFSET = 0xcbf29ce484222325L;
  private static final long PRIME = 0x100000001b3L;
  private static final long NULL_MARK = 0x9e3779b97f4a7c15L;

  private long rows;
  private boolean end;
  private long sum = OFFSET;
  /** Per column: read as bytes (binary types) rather than as text; null until the first row. */
  private boolean @org.jspecify.annotations.Nullable [] binary;

  /** After the application's {@code next()} on {@code rs} returned {@code row}. */
  public void next(ResultSet rs, boolean row) throws SQLException {
    if (!row) {
      end = true;
      return;
    }
    rows++;
    boolean[] b = binary;
    if (b == null) {
      b = columns(rs.getMetaData());
      binary = b;
    }
    sum = row(rs, b, sum);
  }

  long rows() {
    return rows;
  }

  boolean end() {
    return end;
  }

  long sum() {
    return sum;
  }

  /** Whether the application read any of it. */
  boolean read() {
    return rows > 0 || end;
  }

  /**
   * Reads {@code replayed} as far as the application read the original (and one row more when it saw the
   * end) and says whether it read the same.
   */
  boolean matches(ResultSet replayed) throws SQLException {
    RowChecksum again = new RowChecksum();
    for (long i = 0; i < rows; i++) {
      boolean row = replayed.next();
      again.next(replayed, row);
      if (!row) {
        return false;
      }
    }
    if (end) {
      again.next(replayed, replayed.next());
    }
    return again.rows == rows && again.end == end && again.sum == sum;
  }

  private static boolean[] columns(ResultSetMetaData meta) throws SQLException {
    boolean[] binary = new boolean[meta.getColumnCount()];
    for (int i = 0; i < binary.length; i++) {
      int type = meta.getColumnType(i + 1);
      binary[i] = type == Types.BINARY || type == Types.VARBINARY || type == Types.LONGVARBINARY
          || type == Types.BLOB;
    }
    return binary;
  }

  private static long row(ResultSet rs, boolean[] binary, long sum) throws SQLException {
    long h = sum;
    for (int i = 0; i < binary.length; i++) {
      if (binary[i]) {
        byte[] v = rs.getBytes(i + 1);
        if (v == null) {
          h = mix(h, NULL_MARK);
        } else {
          h = mix(h, v.length);
          for (byte x : v) {
            h = mix(h, x & 0xff);
          }
        }
      } else {
        String v = rs.getString(i + 1);
        if (v == null) {
          h = mix(h, NULL_MARK);
        } else {
          h = mix(h, v.length());
          for (int j = 0; j < v.length(); j++) {
            h = mix(h, v.charAt(j));
          }
        }
      }
    }
    return mix(h, binary.length);
  }

  private static long mix(long h, long v) {
    return (h ^ v) * PRIME;
  }
}
