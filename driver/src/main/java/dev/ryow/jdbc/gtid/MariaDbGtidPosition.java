package dev.ryow.jdbc.gtid;

import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A MariaDB GTID position, such as {@code @@gtid_binlog_pos}, {@code @@gtid_slave_pos} or a session's
 * {@code @@last_gtid}: at most one GTID {@code domain-server-seq} per replication domain.
 *
 * <p>It is a per-domain high-water mark, not a set: within a domain, transactions are applied in
 * sequence-number order, so {@code 0-1-9} stands for every transaction of domain 0 up to sequence number 9,
 * gaps included. {@link #contains} therefore compares sequence numbers per domain and ignores the server
 * id, as {@code MASTER_GTID_WAIT} does; {@link #union} keeps, per domain, the GTID with the higher
 * sequence number (this one's on a tie).
 *
 * <p>Text: GTIDs joined by {@code ","}, each {@code domain-server-seq} with domain and server id in
 * {@code 0..4294967295} and seq in {@code 0..9223372036854775807}, decimal without sign or leading zero;
 * whitespace is allowed around commas and at both ends; blank text is {@link #EMPTY}. Two GTIDs of one
 * domain are refused (MariaDB refuses them in {@code gtid_slave_pos} too). {@link #toString()} orders the
 * GTIDs by domain.
 */
public final class MariaDbGtidPosition implements Position {
  private static final long MAX_U32 = 0xFFFF_FFFFL;

  /** The position of no transaction; its text is the empty string. */
  public static final MariaDbGtidPosition EMPTY = new MariaDbGtidPosition(new long[0]);

  /** Triples (domain, server, seq), sorted by domain, one per domain. */
  private final long[] gtids;

  private @Nullable String text;

  private MariaDbGtidPosition(long[] gtids) {
    this.gtids = gtids;
  }

  /**
   * Parses position text as MariaDB prints it.
   *
   * @throws MalformedGtidSetException if it is not a MariaDB GTID position
   */
  public static MariaDbGtidPosition parse(CharSequence text) {
    return parse(text, Integer.MAX_VALUE);
  }

  /**
   * Parses position text of at most {@code maxLength} characters (checked before anything is read).
   *
   * @throws MalformedGtidSetException if it is not a MariaDB GTID position or is longer
   */
  public static MariaDbGtidPosition parse(CharSequence text, int maxLength) {
    Objects.requireNonNull(text, "text");
    int n = text.length();
    if (n > maxLength) {
      throw MalformedGtidSetException.at(WHAT, text.subSequence(0, Math.min(n, 200)), maxLength,
          "longer than " + maxLength + " characters (" + n + ")");
    }
    int i = skipSpace(text, 0);
    if (i == n) {
      return EMPTY;
    }
    long[] out = new long[12];
    int count = 0;
    while (true) {
      if (count * 3 == out.length) {
        out = Arrays.copyOf(out, out.length * 2);
      }
      long[] cursor = {i};
      long domain = number(text, cursor, MAX_U32, "domain id");
      expect(text, cursor, '-');
      long server = number(text, cursor, MAX_U32, "server id");
      expect(text, cursor, '-');
      long seq = number(text, cursor, Long.MAX_VALUE, "sequence number");
      int at = (int) cursor[0];
      for (int k = 0; k < count; k++) {
        if (out[k * 3] == domain) {
          throw MalformedGtidSetException.at(WHAT, text, i, "a second GTID of domain " + domain);
        }
      }
      out[count * 3] = domain;
      out[count * 3 + 1] = server;
      out[count * 3 + 2] = seq;
      count++;
      i = skipSpace(text, at);
      if (i == n) {
        break;
      }
      if (text.charAt(i) != ',') {
        throw MalformedGtidSetException.at(WHAT, text, i, "expected ',' or the end");
      }
      i = skipSpace(text, i + 1);
      if (i == n) {
        throw MalformedGtidSetException.at(WHAT, text, i, "a GTID expected after ','");
      }
    }
    return new MariaDbGtidPosition(sorted(Arrays.copyOf(out, count * 3)));
  }

  private static final String WHAT = "Malformed MariaDB GTID position: ";

  private static int skipSpace(CharSequence t, int i) {
    while (i < t.length() && (t.charAt(i) == ' ' || t.charAt(i) == '\t' || t.charAt(i) == '\r' || t.charAt(i) == '\n')) {
      i++;
    }
    return i;
  }

  private static void expect(CharSequence t, long[] cursor, char c) {
    int i = (int) cursor[0];
    if (i >= t.length() || t.charAt(i) != c) {
      throw MalformedGtidSetException.at(WHAT, t, i, "expected '" + c + "'");
    }
    cursor[0] = i + 1L;
  }

  private static long number(CharSequence t, long[] cursor, long max, String what) {
    int start = (int) cursor[0];
    int i = start;
    long v = 0;
    while (i < t.length() && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
      int d = t.charAt(i) - '0';
      if (v > (max - d) / 10) {
        throw MalformedGtidSetException.at(WHAT, t, start, what + " larger than " + max);
      }
      v = v * 10 + d;
      i++;
    }
    if (i == start) {
      throw MalformedGtidSetException.at(WHAT, t, start, what + " expected");
    }
    if (t.charAt(start) == '0' && i - start > 1) {
      throw MalformedGtidSetException.at(WHAT, t, start, what + " with a leading zero");
    }
    cursor[0] = i;
    return v;
  }

  private static long[] sorted(long[] g) {
    // Insertion sort of triples by domain: positions hold a handful of domains.
    for (int a = 3; a < g.length; a += 3) {
      for (int b = a; b > 0 && g[b - 3] > g[b]; b -= 3) {
        for (int k = 0; k < 3; k++) {
          long x = g[b - 3 + k];
          g[b - 3 + k] = g[b + k];
          g[b + k] = x;
        }
      }
    }
    return g;
  }

  /** The single GTID {@code domain-server-seq}. */
  public static MariaDbGtidPosition of(long domain, long serverId, long seq) {
    if (domain < 0 || domain > MAX_U32 || serverId < 0 || serverId > MAX_U32 || seq < 0) {
      throw new IllegalArgumentException("not a MariaDB GTID: " + domain + "-" + serverId + "-" + seq);
    }
    return new MariaDbGtidPosition(new long[] {domain, serverId, seq});
  }

  @Override
  public PositionKind kind() {
    return PositionKind.MARIADB_GTID;
  }

  /** The number of domains (GTIDs) in this position. */
  public int domainCount() {
    return gtids.length / 3;
  }

  /** The sequence number this position has for {@code domain}, or -1 when it has none. */
  public long seqOf(long domain) {
    for (int i = 0; i < gtids.length; i += 3) {
      if (gtids[i] == domain) {
        return gtids[i + 2];
      }
    }
    return -1;
  }

  /** Whether this position has, in every domain of {@code other}, a sequence number at least as high. */
  public boolean contains(MariaDbGtidPosition other) {
    long[] o = other.gtids;
    int i = 0;
    for (int j = 0; j < o.length; j += 3) {
      while (i < gtids.length && gtids[i] < o[j]) {
        i += 3;
      }
      if (i == gtids.length || gtids[i] != o[j] || gtids[i + 2] < o[j + 2]) {
        return false;
      }
    }
    return true;
  }

  /** The higher GTID of each domain of either (the server id goes with it). */
  public MariaDbGtidPosition union(MariaDbGtidPosition other) {
    if (contains(other)) {
      return this;
    }
    if (other.contains(this)) {
      return other;
    }
    long[] a = gtids;
    long[] b = other.gtids;
    long[] out = new long[a.length + b.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length || j < b.length) {
      long[] src;
      int at;
      if (j == b.length || (i < a.length && a[i] < b[j])) {
        src = a;
        at = i;
        i += 3;
      } else if (i == a.length || b[j] < a[i]) {
        src = b;
        at = j;
        j += 3;
      } else {
        boolean mine = a[i + 2] >= b[j + 2];
        src = mine ? a : b;
        at = mine ? i : j;
        i += 3;
        j += 3;
      }
      System.arraycopy(src, at, out, n, 3);
      n += 3;
    }
    return new MariaDbGtidPosition(Arrays.copyOf(out, n));
  }

  @Override
  public Position union(Position other) {
    return other instanceof MariaDbGtidPosition p ? union(p) : Positions.unionOfKinds(this, other);
  }

  @Override
  public boolean contains(Position other) {
    return other instanceof MariaDbGtidPosition p ? contains(p) : Positions.containsOfKinds(other);
  }

  /** Its GTIDs: one per domain. */
  @Override
  public int intervalCount() {
    return domainCount();
  }

  /** Its domains. */
  @Override
  public int sourceCount() {
    return domainCount();
  }

  /** Whether every domain of {@code other} is a domain of this position or of {@code also}. */
  @Override
  public boolean namesSourcesOf(Position other, Position also) {
    if (!(other instanceof MariaDbGtidPosition o)) {
      return Positions.namesOfKinds(other);
    }
    for (int j = 0; j < o.gtids.length; j += 3) {
      if (seqOf(o.gtids[j]) < 0 && !(also instanceof MariaDbGtidPosition a && a.seqOf(o.gtids[j]) >= 0)) {
        return false;
      }
    }
    return true;
  }

  /** The GTIDs of the domains {@code a} or {@code b} name (or, with {@code keepNamed} false, of the others). */
  @Override
  public MariaDbGtidPosition bySourcesOf(Position a, Position b, boolean keepNamed) {
    long[] out = new long[gtids.length];
    int n = 0;
    for (int i = 0; i < gtids.length; i += 3) {
      long domain = gtids[i];
      boolean named = (a instanceof MariaDbGtidPosition x && x.seqOf(domain) >= 0)
          || (b instanceof MariaDbGtidPosition y && y.seqOf(domain) >= 0);
      if (named == keepNamed) {
        System.arraycopy(gtids, i, out, n, 3);
        n += 3;
      }
    }
    return n == gtids.length ? this : n == 0 ? EMPTY : new MariaDbGtidPosition(Arrays.copyOf(out, n));
  }

  @Override
  public boolean isEmpty() {
    return gtids.length == 0;
  }

  @Override
  public String toString() {
    String t = text;
    if (t == null) {
      StringBuilder b = new StringBuilder(gtids.length * 8);
      for (int i = 0; i < gtids.length; i += 3) {
        if (i > 0) {
          b.append(',');
        }
        b.append(gtids[i]).append('-').append(gtids[i + 1]).append('-').append(gtids[i + 2]);
      }
      t = b.toString();
      text = t;
    }
    return t;
  }

  /** The GTIDs of this position that {@code has} does not cover: those of a domain where {@code has} is lower or absent. */
  public MariaDbGtidPosition notCoveredBy(MariaDbGtidPosition has) {
    return split(has, false);
  }

  /**
   * The part of this position that {@code has} covers: per domain of this position, its GTID where {@code has}
   * is as high, else {@code has}'s lower GTID of that domain, if any.
   */
  public MariaDbGtidPosition coveredPartOf(MariaDbGtidPosition has) {
    return split(has, true);
  }

  private MariaDbGtidPosition split(MariaDbGtidPosition has, boolean covered) {
    long[] out = new long[gtids.length];
    int n = 0;
    for (int i = 0; i < gtids.length; i += 3) {
      int at = has.indexOf(gtids[i]);
      boolean reached = at >= 0 && has.gtids[at + 2] >= gtids[i + 2];
      long[] src = covered && !reached ? has.gtids : gtids;
      int from = covered && !reached ? at : i;
      if (covered ? at >= 0 : !reached) {
        System.arraycopy(src, from, out, n, 3);
        n += 3;
      }
    }
    return n == gtids.length && !covered ? this : n == 0 ? EMPTY : new MariaDbGtidPosition(Arrays.copyOf(out, n));
  }

  private int indexOf(long domain) {
    for (int i = 0; i < gtids.length; i += 3) {
      if (gtids[i] == domain) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof MariaDbGtidPosition p && Arrays.equals(gtids, p.gtids);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(gtids);
  }
}
