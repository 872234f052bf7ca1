package dev.ryow.jdbc.gtid;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A position in one primary's binary log, for servers without GTIDs ({@code gtid_mode=OFF}): the
 * {@code File} and {@code Position} of {@code SHOW BINARY LOG STATUS} after a commit, with the
 * {@code server_uuid} of the primary that wrote it. A replica that replicates directly from that primary
 * has executed everything up to it once {@code SOURCE_POS_WAIT(file, pos, timeout)} returns 0 or more.
 *
 * <p>Positions are ordered only within one primary and one binary-log base name: by the file's sequence
 * number ({@code binlog.000012} is 12), then by the offset. A position of another primary (after a
 * failover or a switchover) or of another base name is not comparable: neither contains the other, so a
 * read whose watermark is such a position goes to the primary until a new position is captured there.
 * {@link #union} of two comparable positions is the later one; of incomparable ones it is the argument
 * (the position captured last replaces the meaningless old one): unlike the other kinds, it is then not
 * commutative.
 *
 * <p>Text: {@code uuid:file:offset}, e.g. {@code 3e11fa47-71ca-11e1-9e33-c80aa9429562:binlog.000012:4711};
 * the file is {@code base.digits} without {@code :} or {@code ,}; the empty string is {@link #EMPTY}.
 */
public final class BinlogPosition implements Position {
  private static final String WHAT = "binlog position";

  /** The position before any transaction; its text is the empty string. */
  public static final BinlogPosition EMPTY = new BinlogPosition("", "", "", 0, 0);

  private final String primaryUuid;
  private final String file;
  private final String base;
  private final long sequence;
  private final long offset;

  private BinlogPosition(String primaryUuid, String file, String base, long sequence, long offset) {
    this.primaryUuid = primaryUuid;
    this.file = file;
    this.base = base;
    this.sequence = sequence;
    this.offset = offset;
  }

  /**
   * The position {@code file}/{@code offset} in the binary log of the primary {@code primaryUuid}.
   *
   * @throws MalformedGtidSetException if the uuid, file name or offset is not one a server reports
   */
  public static BinlogPosition of(String primaryUuid, String file, long offset) {
    return parse(primaryUuid + ":" + file + ":" + offset);
  }

  /** Parses canonical text ({@link #toString()}). */
  public static BinlogPosition parse(CharSequence text) {
    return parse(text, Integer.MAX_VALUE);
  }

  /**
   * Parses canonical text of at most {@code maxLength} characters (checked before anything is read).
   *
   * @throws MalformedGtidSetException if it is not a binlog position or is longer
   */
  public static BinlogPosition parse(CharSequence text, int maxLength) {
    Objects.requireNonNull(text, "text");
    int n = text.length();
    if (n > maxLength) {
      throw MalformedGtidSetException.at(WHAT, text.subSequence(0, Math.min(n, 200)), maxLength,
          "longer than " + maxLength + " characters (" + n + ")");
    }
    if (n == 0) {
      return EMPTY;
    }
    String s = text.toString();
    int c1 = s.indexOf(':');
    int c2 = s.lastIndexOf(':');
    if (c1 != 36 || c2 <= c1 + 1 || !isUuid(s, c1)) {
      throw MalformedGtidSetException.at(WHAT, s, 0, "expected uuid:file:offset");
    }
    String file = s.substring(c1 + 1, c2);
    int dot = file.lastIndexOf('.');
    if (dot <= 0 || dot == file.length() - 1 || file.indexOf(':') >= 0 || file.indexOf(',') >= 0) {
      throw MalformedGtidSetException.at(WHAT, s, c1 + 1, "expected a binary log file name base.digits");
    }
    long sequence = digits(s, c1 + 2 + dot, c2, s);
    long offset = digits(s, c2 + 1, n, s);
    return new BinlogPosition(s.substring(0, c1).toLowerCase(java.util.Locale.ROOT), file, file.substring(0, dot),
        sequence, offset);
  }

  private static boolean isUuid(String s, int end) {
    for (int i = 0; i < end; i++) {
      char ch = s.charAt(i);
      boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash ? ch != '-' : Character.digit(ch, 16) < 0) {
        return false;
      }
    }
    return true;
  }

  private static long digits(String s, int from, int to, String text) {
    if (from >= to || to - from > 18) {
      throw MalformedGtidSetException.at(WHAT, text, from, "expected 1 to 18 digits");
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      char ch = s.charAt(i);
      if (ch < '0' || ch > '9') {
        throw MalformedGtidSetException.at(WHAT, text, i, "expected a digit");
      }
      v = v * 10 + (ch - '0');
    }
    return v;
  }

  @Override
  public PositionKind kind() {
    return PositionKind.BINLOG_POSITION;
  }

  /** The {@code server_uuid} of the primary whose binary log this is a position in; empty for {@link #EMPTY}. */
  public String primaryUuid() {
    return primaryUuid;
  }

  /** The file name as the server reports it ({@code binlog.000012}); empty for {@link #EMPTY}. */
  public String file() {
    return file;
  }

  /** The offset in {@link #file()}. */
  public long offset() {
    return offset;
  }

  /** Whether the two are positions in the same binary log (same primary, same base name). */
  public boolean comparable(BinlogPosition other) {
    return primaryUuid.equals(other.primaryUuid) && base.equals(other.base);
  }

  /** Whether this is the same or a later place in the same binary log. */
  public boolean contains(BinlogPosition other) {
    if (other.isEmpty()) {
      return true;
    }
    if (isEmpty() || !comparable(other)) {
      return false;
    }
    return sequence > other.sequence || (sequence == other.sequence && offset >= other.offset);
  }

  /** The later of the two, or {@code other} when they are of different logs. */
  public BinlogPosition union(BinlogPosition other) {
    if (contains(other)) {
      return this;
    }
    return other; // later in the same log, or of another primary: the meaningless old one is dropped
  }

  @Override
  public Position union(Position other) {
    return other instanceof BinlogPosition p ? union(p) : Positions.unionOfKinds(this, other);
  }

  @Override
  public boolean contains(Position other) {
    return other instanceof BinlogPosition p ? contains(p) : Positions.containsOfKinds(other);
  }

  /** One place, or none. */
  @Override
  public int intervalCount() {
    return isEmpty() ? 0 : 1;
  }

  /** One primary's log, or none. */
  @Override
  public int sourceCount() {
    return intervalCount();
  }

  /** Whether {@code other} is empty or a place in the log of this position's primary or of {@code also}'s. */
  @Override
  public boolean namesSourcesOf(Position other, Position also) {
    if (!(other instanceof BinlogPosition o)) {
      return Positions.namesOfKinds(other);
    }
    return o.isEmpty() || o.primaryUuid.equals(primaryUuid)
        || (also instanceof BinlogPosition a && o.primaryUuid.equals(a.primaryUuid));
  }

  /** This position when its primary is named by {@code a} or {@code b} (or, with {@code keepNamed} false, is not). */
  @Override
  public BinlogPosition bySourcesOf(Position a, Position b, boolean keepNamed) {
    boolean named = (a instanceof BinlogPosition x && !isEmpty() && x.primaryUuid.equals(primaryUuid))
        || (b instanceof BinlogPosition y && !isEmpty() && y.primaryUuid.equals(primaryUuid));
    return isEmpty() || named == keepNamed ? this : EMPTY;
  }

  @Override
  public boolean isEmpty() {
    return primaryUuid.isEmpty();
  }

  @Override
  public String toString() {
    return isEmpty() ? "" : primaryUuid + ":" + file() + ":" + offset;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof BinlogPosition p && p.primaryUuid.equals(primaryUuid) && p.file.equals(file)
        && p.offset == offset;
  }

  @Override
  public int hashCode() {
    return Objects.hash(primaryUuid, file, offset);
  }
}
