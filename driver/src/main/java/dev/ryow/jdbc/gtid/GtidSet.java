package dev.ryow.jdbc.gtid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An immutable, thread-safe set of MySQL GTIDs, such as {@code @@gtid_executed} or a session's
 * tracked GTID, including MySQL 8.3+ tagged GTIDs.
 *
 * <p>Text syntax: comma-separated groups {@code uuid:element[:element...]}, where an element is an
 * interval {@code n} or {@code n-m} ({@code 1 <= n <= m <= 9223372036854775806}) or a tag ({@code
 * [a-zA-Z_][a-zA-Z0-9_]{0,31}}) that applies to the intervals after it in the group. Whitespace
 * (space, tab, CR, LF) is allowed at both ends and around commas; empty or blank text is {@link
 * #EMPTY}. UUIDs and tags are case-insensitive. Overlapping, adjacent, repeated and out-of-order
 * intervals are merged.
 *
 * <p>The parser is stricter than MySQL's, which silently ignores some input: it rejects a UUID or
 * a tag with no interval after it ({@code uuid}, {@code uuid:tag}; MySQL accepts both and adds
 * nothing), a reversed interval ({@code 5-3}; MySQL ignores it), empty groups ({@code a,,b},
 * trailing or leading commas; MySQL skips them), whitespace inside a group, numbers with a leading
 * zero ({@code 010}; MySQL reads it as octal 8) and UUIDs without dashes. None of these appear in
 * text that MySQL prints.
 *
 * <p>{@link #toString()} is MySQL's canonical form: groups ordered by UUID, one group per UUID
 * with untagged intervals first and then each tag in ascending order ({@code
 * uuid:1-5:7:tag_a:1-3}), groups joined by {@code ","} with no newline, lower-case.
 */
public final class GtidSet implements Position {
  /** Largest GTID number MySQL accepts: {@code GNO_END - 1 = 2^63 - 2}. */
  static final long MAX_GNO = Long.MAX_VALUE - 1;

  /** Longest tag MySQL accepts. */
  static final int MAX_TAG_LENGTH = 32;

  /** The set with no GTIDs; its text is the empty string. */
  public static final GtidSet EMPTY = new GtidSet(new Source[0]);

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** Sorted by {@link #compareKeys}; no two with the same key; none with empty ranges. */
  private final Source[] sources;

  private final int intervalCount;
  /** Hash code; racy single-check cache like {@link String#hashCode()} (0: not computed yet). */
  private int hash;

  /** Canonical text; racy single-check cache like {@link String#hashCode()} (Strings are immutable). */
  private @Nullable String text;

  private GtidSet(Source[] sources) {
    this.sources = sources;
    int count = 0;
    for (Source s : sources) {
      count += s.ranges.length / 2;
    }
    this.intervalCount = count;
  }

  /**
   * Parses GTID set text, as printed by MySQL or in any order.
   *
   * @param text the GTID set text, e.g. {@code 3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5}
   * @return the set; {@link #EMPTY} for blank text
   * @throws MalformedGtidSetException if the text is not a valid GTID set
   * @throws NullPointerException if {@code text} is null
   */
  public static GtidSet parse(CharSequence text) {
    return parse(text, Integer.MAX_VALUE, Integer.MAX_VALUE);
  }

  /**
   * Parses GTID set text with bounds, for untrusted input such as tokens sent by HTTP clients.
   * The length is checked before anything is read.
   *
   * @param text the GTID set text
   * @param maxLength most characters accepted
   * @param maxIntervals most intervals accepted, counted as written (before merging)
   * @return the set; {@link #EMPTY} for blank text
   * @throws MalformedGtidSetException if the text is not a valid GTID set or exceeds a bound; the
   *     message names the bound ({@code maxLength} or {@code maxIntervals})
   * @throws NullPointerException if {@code text} is null
   * @throws IllegalArgumentException if a bound is negative
   */
  public static GtidSet parse(CharSequence text, int maxLength, int maxIntervals) {
    Objects.requireNonNull(text, "text");
    if (maxLength < 0 || maxIntervals < 0) {
      throw new IllegalArgumentException(
          "maxLength and maxIntervals must be >= 0, got " + maxLength + " and " + maxIntervals);
    }
    if (text.length() > maxLength) {
      throw MalformedGtidSetException.at(
          text,
          maxLength,
          "text is longer than maxLength=" + maxLength + " characters");
    }
    GtidSet single = maxIntervals > 0 ? singleInterval(text) : null;
    return single != null ? single : new Parser(text, maxIntervals).parse();
  }

  /** What {@link #uuidBits} returns for text that is not a UUID's half. */
  private static final long NOT_HEX = Long.MIN_VALUE;

  /**
   * The bits of the UUID text in {@code text[from, to)} ({@code 0, 18}: the first half, {@code 18, 36}:
   * the second), skipping the dashes at positions 8, 13, 18 and 23; {@link #NOT_HEX} when a character
   * is out of place. The shortcuts that call it then return null and their callers take the general
   * path, so a half whose bits happen to be {@code NOT_HEX} only loses the shortcut.
   */
  private static long uuidBits(CharSequence text, int from, int to) {
    long bits = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (i == 8 || i == 13 || i == 18 || i == 23) {
        if (c != '-') {
          return NOT_HEX;
        }
        continue;
      }
      int v = Parser.hexValue(c);
      if (v < 0) {
        return NOT_HEX;
      }
      bits = bits << 4 | v;
    }
    return bits;
  }

  /**
   * The set of {@code text} when it is exactly {@code uuid:n} or {@code uuid:n-m} (what the primary
   * reports in each OK packet, and a quiet server's {@code gtid_executed}), without the general
   * parser's bookkeeping; null for anything else, which the general parser then reads (and
   * reports errors of).
   */
  private static @Nullable GtidSet singleInterval(CharSequence text) {
    final int len = text.length();
    if (len < 38 || text.charAt(36) != ':') {
      return null;
    }
    long hi = uuidBits(text, 0, 18);
    long lo = uuidBits(text, 18, 36);
    if (hi == NOT_HEX || lo == NOT_HEX) {
      return null;
    }
    int pos = 37;
    long start = 0;
    int digits = pos;
    while (pos < len) {
      int d = text.charAt(pos) - '0';
      if (d < 0 || d > 9 || start > (MAX_GNO - d) / 10) {
        break;
      }
      start = start * 10 + d;
      pos++;
    }
    if (pos == digits || text.charAt(digits) == '0') {
      return null;
    }
    long end = start;
    if (pos < len) {
      if (text.charAt(pos) != '-') {
        return null;
      }
      digits = ++pos;
      end = 0;
      while (pos < len) {
        int d = text.charAt(pos) - '0';
        if (d < 0 || d > 9 || end > (MAX_GNO - d) / 10) {
          return null;
        }
        end = end * 10 + d;
        pos++;
      }
      if (pos == digits || text.charAt(digits) == '0' || end < start) {
        return null;
      }
    }
    return new GtidSet(new Source[] {new Source(hi, lo, "", new long[] {start, end})});
  }

  /**
   * This set plus the GTID {@code text} names, when {@code text} is exactly {@code uuid:n} (untagged,
   * as a primary reports one write's GTID in its OK packet) and {@code n} directly follows the only
   * interval of this set's only source, of that uuid: a primary's consecutive writes, the usual case.
   * Builds the result without parsing {@code text} into a set of its own. Null otherwise (the caller
   * parses {@code text} and takes the {@link #union}, whose value this equals).
   */
  public @Nullable GtidSet plusNext(String text) {
    if (sources.length != 1) {
      return null;
    }
    Source s = sources[0];
    long[] r = s.ranges;
    if (r.length != 2 || !s.tag.isEmpty() || r[1] >= MAX_GNO) {
      return null;
    }
    long next = r[1] + 1;
    int len = text.length();
    if (len < 38 || len > 56 || text.charAt(36) != ':' || text.charAt(37) == '0') {
      return null;
    }
    // The primary reports its own UUID, in lower case, on every write: compare the text, not its bits.
    if (!text.startsWith(s.uuidText())) {
      return null;
    }
    long n = 0;
    for (int pos = 37; pos < len; pos++) {
      int d = text.charAt(pos) - '0';
      if (d < 0 || d > 9 || n > (MAX_GNO - d) / 10) {
        return null;
      }
      n = n * 10 + d;
    }
    if (n != next) {
      return null;
    }
    return new GtidSet(new Source[] {s.withRanges(new long[] {r[0], next})});
  }

  /**
   * Returns the union of this set and {@code other}.
   *
   * @param other the set to add
   * @return {@code this} (no allocation) if it contains {@code other}, else {@code other} if it
   *     contains this set, else a new set
   */
  public GtidSet union(GtidSet other) {
    Objects.requireNonNull(other, "other");
    if (contains(other)) {
      return this;
    }
    if (other.contains(this)) {
      return other;
    }
    Source[] a = sources;
    Source[] b = other.sources;
    Source[] out = new Source[distinctKeys(a, b)];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length && j < b.length) {
      int cmp = compareKeys(a[i], b[j]);
      if (cmp < 0) {
        out[n++] = a[i++];
      } else if (cmp > 0) {
        out[n++] = b[j++];
      } else {
        out[n++] = a[i++].union(b[j++]);
      }
    }
    while (i < a.length) {
      out[n++] = a[i++];
    }
    while (j < b.length) {
      out[n++] = b[j++];
    }
    return new GtidSet(out);
  }

  /** How many different (UUID, tag) keys two sorted source arrays hold together. */
  private static int distinctKeys(Source[] a, Source[] b) {
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length && j < b.length) {
      int cmp = compareKeys(a[i], b[j]);
      if (cmp <= 0) {
        i++;
      }
      if (cmp >= 0) {
        j++;
      }
      n++;
    }
    return n + (a.length - i) + (b.length - j);
  }

  /**
   * Returns this set plus the GTIDs of {@code executed} that lie below this set's highest GTID of
   * the same (UUID, tag). Keeps a watermark of one session's own GTIDs compact: the other sessions'
   * GTIDs between them, once known to be executed, fill the gaps, so that the set stays a few
   * intervals long instead of growing by one interval per write.
   *
   * @param executed GTIDs known to be executed (for example a server's {@code gtid_executed})
   * @return {@code this} (no allocation) when nothing is added, {@code executed} itself (no allocation)
   *     when the result equals it, else a new set
   */
  public GtidSet filledFrom(GtidSet executed) {
    Objects.requireNonNull(executed, "executed");
    Source[] mine = sources;
    Source[] theirs = executed.sources;
    if (mine.length == 1 && theirs.length == 1 && compareKeys(mine[0], theirs[0]) == 0) {
      // The usual case: one primary's GTIDs; the executed set holding them and nothing above them is the answer.
      long[] t = theirs[0].ranges;
      long[] m = mine[0].ranges;
      if (t[t.length - 1] <= m[m.length - 1] && containsRanges(t, m)) {
        return containsRanges(m, t) ? this : executed;
      }
    }
    Source[] out = null;
    int j = 0;
    for (int i = 0; i < mine.length; i++) {
      Source s = mine[i];
      int cmp = -1;
      while (j < theirs.length && (cmp = compareKeys(theirs[j], s)) < 0) {
        j++;
      }
      if (cmp != 0) {
        continue;
      }
      long[] below = clipRanges(theirs[j].ranges, s.ranges[s.ranges.length - 1]);
      if (below.length == 0 || containsRanges(s.ranges, below)) {
        continue;
      }
      if (out == null) {
        out = mine.clone();
      }
      // Usually the executed set has all of this source (one's own GTIDs are executed): share it.
      out[i] = below == theirs[j].ranges && containsRanges(below, s.ranges)
          ? theirs[j]
          : new Source(s.hi, s.lo, s.tag, unionRanges(s.ranges, below));
    }
    if (out == null) {
      return this;
    }
    return sameSources(out, theirs) ? executed : new GtidSet(out);
  }

  // Identity on purpose: whether the merge kept every Source object, so that the set itself is returned.
  @SuppressWarnings("ReferenceEquality")
  private static boolean sameSources(Source[] a, Source[] b) {
    if (a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (a[i] != b[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns the smallest set with one interval per (UUID, tag) that contains this set: each source's
   * intervals joined from its lowest to its highest GTID.
   *
   * @return {@code this} when every source already has a single interval, else a new set
   */
  @Override
  public GtidSet spanned() {
    if (intervalCount == sources.length) {
      return this;
    }
    Source[] out = new Source[sources.length];
    for (int i = 0; i < out.length; i++) {
      Source s = sources[i];
      long[] r = s.ranges;
      out[i] = r.length == 2 ? s : new Source(s.hi, s.lo, s.tag, new long[] {r[0], r[r.length - 1]});
    }
    return new GtidSet(out);
  }

  /**
   * Tells whether every UUID of {@code other} is named by this set or by {@code also} (with any tag; the
   * intervals do not matter). Does not allocate.
   *
   * @param other the set whose UUIDs are looked for
   * @param also a second set that may name them
   * @return true when no UUID of {@code other} is missing from both
   */
  public boolean namesUuidsOf(GtidSet other, GtidSet also) {
    Objects.requireNonNull(also, "also");
    for (Source s : other.sources) {
      if (!namesUuid(s) && !also.namesUuid(s)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns the GTIDs of this set whose UUID is named by {@code a} or {@code b} (with any tag), or, with
   * {@code keepNamed} false, those whose UUID neither names.
   *
   * @return {@code this} (no allocation) when every source is kept, else a new set
   */
  public GtidSet byUuidsOf(GtidSet a, GtidSet b, boolean keepNamed) {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    int kept = 0;
    for (Source s : sources) {
      if ((a.namesUuid(s) || b.namesUuid(s)) == keepNamed) {
        kept++;
      }
    }
    if (kept == sources.length) {
      return this;
    }
    if (kept == 0) {
      return EMPTY;
    }
    Source[] out = new Source[kept];
    int n = 0;
    for (Source s : sources) {
      if ((a.namesUuid(s) || b.namesUuid(s)) == keepNamed) {
        out[n++] = s;
      }
    }
    return new GtidSet(out);
  }

  /** Whether some source of this set has the UUID of {@code s} (any tag); binary search, no allocation. */
  private boolean namesUuid(Source s) {
    int lo = 0;
    int hi = sources.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      Source m = sources[mid];
      int c = Long.compareUnsigned(m.hi, s.hi);
      if (c == 0) {
        c = Long.compareUnsigned(m.lo, s.lo);
      }
      if (c == 0) {
        return true;
      }
      if (c < 0) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return false;
  }

  /**
   * Tells whether every GTID of {@code other} is in this set. Untagged and tagged GTIDs of one
   * UUID are different GTIDs. Does not allocate.
   *
   * @param other the set to look for
   * @return true if {@code other} is a subset of this set
   */
  @SuppressWarnings("ReferenceEquality") // a fast path before the comparison by value
  public boolean contains(GtidSet other) {
    Objects.requireNonNull(other, "other");
    if (other == this) {
      return true;
    }
    Source[] mine = sources;
    if (other.sources.length > mine.length) {
      return false;
    }
    int i = 0;
    for (Source wanted : other.sources) {
      int cmp = -1;
      while (i < mine.length && (cmp = compareKeys(mine[i], wanted)) < 0) {
        i++;
      }
      if (cmp != 0 || !containsRanges(mine[i].ranges, wanted.ranges)) {
        return false;
      }
      i++;
    }
    return true;
  }

  @Override
  public Position union(Position other) {
    return other instanceof GtidSet g ? union(g) : Positions.unionOfKinds(this, other);
  }

  @Override
  public boolean contains(Position other) {
    return other instanceof GtidSet g ? contains(g) : Positions.containsOfKinds(other);
  }

  @Override
  public Position filledFrom(Position executed) {
    return executed instanceof GtidSet g ? filledFrom(g) : this;
  }

  /** {@link #namesUuidsOf}; a position of another kind names no UUID. */
  @Override
  public boolean namesSourcesOf(Position other, Position also) {
    return other instanceof GtidSet o ? namesUuidsOf(o, also instanceof GtidSet a ? a : EMPTY)
        : Positions.namesOfKinds(other);
  }

  /** {@link #byUuidsOf}; a position of another kind names no UUID. */
  @Override
  public GtidSet bySourcesOf(Position a, Position b, boolean keepNamed) {
    return byUuidsOf(a instanceof GtidSet x ? x : EMPTY, b instanceof GtidSet y ? y : EMPTY, keepNamed);
  }

  /**
   * Tells whether this set has no GTIDs.
   *
   * @return true for the empty set
   */
  @Override
  public boolean isEmpty() {
    return sources.length == 0;
  }

  /** {@link PositionKind#GTID_SET}. */
  @Override
  public PositionKind kind() {
    return PositionKind.GTID_SET;
  }

  /**
   * Returns the number of disjoint intervals, over all UUIDs and tags.
   *
   * @return the number of intervals in the canonical text
   */
  @Override
  public int intervalCount() {
    return intervalCount;
  }

  /**
   * Returns the number of distinct (UUID, tag) sources, the untagged GTIDs of a UUID being one.
   *
   * @return the number of sources
   */
  @Override
  public int sourceCount() {
    return sources.length;
  }

  /**
   * Returns the canonical MySQL text of this set, computed once and cached.
   *
   * @return e.g. {@code 3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7:tag_a:1-3}, or {@code ""}
   */
  @Override
  public String toString() {
    String s = text;
    if (s == null) {
      s = format();
      text = s;
    }
    return s;
  }

  /**
   * Compares by value: two sets are equal when they hold the same GTIDs.
   *
   * @param o the object to compare with
   * @return true if {@code o} is a GtidSet with the same GTIDs
   */
  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof GtidSet other)
        || intervalCount != other.intervalCount
        || sources.length != other.sources.length) {
      return false;
    }
    for (int i = 0; i < sources.length; i++) {
      Source x = sources[i];
      Source y = other.sources[i];
      if (compareKeys(x, y) != 0 || !Arrays.equals(x.ranges, y.ranges)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns a hash code consistent with {@link #equals(Object)}.
   *
   * @return the hash code, computed on first use
   */
  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = 1;
      for (Source s : sources) {
        h = 31 * h + s.hashCode();
      }
      hash = h;
    }
    return h;
  }

  private String format() {
    if (sources.length == 0) {
      return "";
    }
    StringBuilder sb = new StringBuilder(sources.length * 40 + intervalCount * 12);
    for (int i = 0; i < sources.length; i++) {
      Source s = sources[i];
      boolean sameUuid = i > 0 && sources[i - 1].hi == s.hi && sources[i - 1].lo == s.lo;
      if (!sameUuid) {
        if (i > 0) {
          sb.append(',');
        }
        appendUuid(sb, s.hi, s.lo);
      }
      if (!s.tag.isEmpty()) {
        sb.append(':').append(s.tag);
      }
      long[] r = s.ranges;
      for (int k = 0; k < r.length; k += 2) {
        sb.append(':').append(r[k]);
        if (r[k + 1] != r[k]) {
          sb.append('-').append(r[k + 1]);
        }
      }
    }
    return sb.toString();
  }

  private static void appendUuid(StringBuilder sb, long hi, long lo) {
    appendHex(sb, hi >>> 32, 8);
    sb.append('-');
    appendHex(sb, hi >>> 16, 4);
    sb.append('-');
    appendHex(sb, hi, 4);
    sb.append('-');
    appendHex(sb, lo >>> 48, 4);
    sb.append('-');
    appendHex(sb, lo, 12);
  }

  private static void appendHex(StringBuilder sb, long value, int digits) {
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
      sb.append(HEX[(int) (value >>> shift) & 0xf]);
    }
  }

  /** Orders by UUID (unsigned 128-bit order is the text order) then tag, untagged first. */
  @SuppressWarnings("ReferenceEquality") // a fast path: equal tags that are not one object compare by value below
  private static int compareKeys(Source a, Source b) {
    int c = Long.compareUnsigned(a.hi, b.hi);
    if (c == 0) {
      c = Long.compareUnsigned(a.lo, b.lo);
      if (c == 0 && a.tag != b.tag) {
        c = a.tag.compareTo(b.tag);
      }
    }
    return c;
  }

  /** Both arguments are canonical range arrays; linear, no allocation. */
  private static boolean containsRanges(long[] big, long[] small) {
    int j = 0;
    for (int i = 0; i < small.length; i += 2) {
      long start = small[i];
      while (j < big.length && big[j + 1] < start) {
        j += 2;
      }
      // Canonical ranges are non-adjacent, so a contained interval lies within a single range.
      if (j == big.length || big[j] > start || big[j + 1] < small[i + 1]) {
        return false;
      }
    }
    return true;
  }

  /** The part of a canonical range array at or below {@code max}; the same array when all of it is. */
  private static long[] clipRanges(long[] r, long max) {
    int n = 0;
    while (n < r.length && r[n] <= max) {
      n += 2;
    }
    if (n == r.length && (n == 0 || r[n - 1] <= max)) {
      return r;
    }
    long[] out = Arrays.copyOf(r, n);
    if (n > 0 && out[n - 1] > max) {
      out[n - 1] = max;
    }
    return out;
  }

  /** Merges two canonical range arrays, coalescing overlapping and adjacent intervals. */
  private static long[] unionRanges(long[] a, long[] b) {
    long[] out = new long[mergeRanges(a, b, null)];
    mergeRanges(a, b, out);
    return out;
  }

  /**
   * Merges {@code a} and {@code b} into {@code out}, or only counts when {@code out} is null (so that
   * {@link #unionRanges} allocates its result once, at its exact size); returns the merged length.
   */
  private static int mergeRanges(long[] a, long[] b, long @Nullable [] out) {
    int i = 0;
    int j = 0;
    int n = 0;
    long last = 0;
    while (i < a.length || j < b.length) {
      long start;
      long end;
      if (j == b.length || (i < a.length && a[i] <= b[j])) {
        start = a[i];
        end = a[i + 1];
        i += 2;
      } else {
        start = b[j];
        end = b[j + 1];
        j += 2;
      }
      // end <= MAX_GNO, so + 1 cannot overflow.
      if (n > 0 && start <= last + 1) {
        last = Math.max(last, end);
        if (out != null) {
          out[n - 1] = last;
        }
      } else {
        if (out != null) {
          out[n] = start;
          out[n + 1] = end;
        }
        n += 2;
        last = end;
      }
    }
    return n;
  }

  /** The intervals of one (UUID, tag). */
  private static final class Source {
    /** The UUID's first and last 64 bits. */
    final long hi;

    final long lo;

    /** Lower-case tag, {@code ""} for untagged. */
    final String tag;

    /** Inclusive {@code [start, end]} pairs, sorted, non-overlapping, non-adjacent, non-empty. */
    final long[] ranges;

    /** The UUID in canonical text, made on first use ({@link #uuidText}); racy but idempotent, like {@code String.hash}. */
    private @Nullable String uuidText;

    Source(long hi, long lo, String tag, long[] ranges) {
      this.hi = hi;
      this.lo = lo;
      this.tag = tag;
      this.ranges = ranges;
    }

    /** The UUID as MySQL writes it (lower case, with dashes). */
    String uuidText() {
      String text = uuidText;
      if (text == null) {
        StringBuilder sb = new StringBuilder(36);
        appendUuid(sb, hi, lo);
        text = sb.toString();
        uuidText = text;
      }
      return text;
    }

    /** The same source with other ranges; keeps the UUID text already made. */
    Source withRanges(long[] newRanges) {
      Source s = new Source(hi, lo, tag, newRanges);
      s.uuidText = uuidText;
      return s;
    }

    Source union(Source other) {
      if (containsRanges(ranges, other.ranges)) {
        return this;
      }
      if (containsRanges(other.ranges, ranges)) {
        return other;
      }
      return new Source(hi, lo, tag, unionRanges(ranges, other.ranges));
    }

    /** The value of {@code Objects.hash(hi, lo, tag, Arrays.hashCode(ranges))}, without boxing. */
    @Override
    public int hashCode() {
      int h = 31 + Long.hashCode(hi);
      h = 31 * h + Long.hashCode(lo);
      h = 31 * h + tag.hashCode();
      return 31 * h + Arrays.hashCode(ranges);
    }

    @Override
    public boolean equals(@Nullable Object o) {
      return o instanceof Source s && compareKeys(this, s) == 0 && Arrays.equals(ranges, s.ranges);
    }
  }

  /** Key of a source while parsing. */
  private record Key(long hi, long lo, String tag) {}

  /** Collects the intervals of one source while parsing, in input order. */
  private static final class Accumulator {
    final Key key;
    long[] starts = new long[4];
    long[] ends = new long[4];
    int n;
    boolean canonical = true;

    Accumulator(Key key) {
      this.key = key;
    }

    void add(long start, long end) {
      if (n == starts.length) {
        starts = Arrays.copyOf(starts, n * 2);
        ends = Arrays.copyOf(ends, n * 2);
      }
      if (n > 0 && start <= ends[n - 1] + 1) {
        canonical = false;
      }
      starts[n] = start;
      ends[n] = end;
      n++;
    }

    Source toSource() {
      long[] ranges = new long[2 * n];
      int m = 0;
      if (canonical) {
        for (int k = 0; k < n; k++) {
          ranges[m++] = starts[k];
          ranges[m++] = ends[k];
        }
        return new Source(key.hi(), key.lo(), key.tag(), ranges);
      }
      // Sorting starts and ends independently keeps the covered set (the number of intervals
      // covering a point depends only on the multisets of starts and ends) and pairs each start
      // with an end >= it, so one sweep over the pairs merges them.
      Arrays.sort(starts, 0, n);
      Arrays.sort(ends, 0, n);
      for (int k = 0; k < n; k++) {
        if (m > 0 && starts[k] <= ranges[m - 1] + 1) {
          ranges[m - 1] = Math.max(ranges[m - 1], ends[k]);
        } else {
          ranges[m++] = starts[k];
          ranges[m++] = ends[k];
        }
      }
      return new Source(
          key.hi(), key.lo(), key.tag(), m == ranges.length ? ranges : Arrays.copyOf(ranges, m));
    }
  }

  /**
   * Single-pass parser without regular expressions: linear in the input, plus an n log n sort of
   * the intervals of a source only when they were written out of order or overlapping.
   */
  private static final class Parser {
    private static final int UUID_LENGTH = 36;

    private final CharSequence in;
    private final int len;
    private final int maxIntervals;
    /** The first source's intervals; most texts (a session's own GTID, a server's executed set) have one source. */
    private @Nullable Accumulator first;
    /** Every source's intervals, once a second source appears. */
    private @Nullable Map<Key, Accumulator> byKey;
    private int pos;
    private int intervals;
    private long uuidHi;
    private long uuidLo;

    Parser(CharSequence in, int maxIntervals) {
      this.in = in;
      this.len = in.length();
      this.maxIntervals = maxIntervals;
    }

    GtidSet parse() {
      skipWhitespace();
      if (pos == len) {
        return EMPTY;
      }
      while (true) {
        group();
        skipWhitespace();
        if (pos == len) {
          break;
        }
        if (in.charAt(pos) != ',') {
          throw error(pos, "expected ',' or end of text but found " + describe(pos));
        }
        pos++;
        skipWhitespace();
      }
      Map<Key, Accumulator> all = byKey;
      if (all == null) {
        return new GtidSet(new Source[] {Objects.requireNonNull(first).toSource()});
      }
      List<Accumulator> accs = new ArrayList<>(all.values());
      Source[] sources = new Source[accs.size()];
      for (int i = 0; i < sources.length; i++) {
        sources[i] = accs.get(i).toSource();
      }
      Arrays.sort(sources, GtidSet::compareKeys);
      return new GtidSet(sources);
    }

    /** The intervals of {@code key} collected so far (a new accumulator for a new key). */
    private Accumulator accumulator(Key key) {
      Accumulator f = first;
      if (f == null) {
        f = new Accumulator(key);
        first = f;
        return f;
      }
      Map<Key, Accumulator> all = byKey;
      if (all == null) {
        if (f.key.equals(key)) {
          return f;
        }
        all = new HashMap<>();
        all.put(f.key, f);
        byKey = all;
      }
      return all.computeIfAbsent(key, Accumulator::new);
    }

    /** Parses {@code uuid:element[:element...]} at pos. */
    private void group() {
      if (pos == len || in.charAt(pos) == ',') {
        throw error(pos, "expected a UUID but found " + describe(pos) + " (empty group)");
      }
      uuid();
      long hi = uuidHi;
      long lo = uuidLo;
      if (pos == len || in.charAt(pos) != ':') {
        throw error(
            pos,
            pos == len || isWhitespace(in.charAt(pos)) || in.charAt(pos) == ','
                ? "UUID without intervals (expected ':' and an interval)"
                : "expected ':' after UUID but found " + describe(pos));
      }
      Key key = new Key(hi, lo, "");
      @Nullable Accumulator current = null;
      int tagStart = -1; // offset of a tag that still needs an interval
      while (pos < len && in.charAt(pos) == ':') {
        pos++;
        char c = pos < len ? in.charAt(pos) : '\0';
        if (isTagStart(c)) {
          if (tagStart >= 0) {
            throw error(tagStart, "tag without intervals");
          }
          tagStart = pos;
          key = new Key(hi, lo, tag());
          current = null;
        } else if (c >= '0' && c <= '9') {
          long start = number();
          long end = start;
          if (pos < len && in.charAt(pos) == '-') {
            pos++;
            int endOffset = pos;
            end = number();
            if (end < start) {
              throw error(endOffset, "interval end " + end + " is less than its start " + start);
            }
          }
          if (++intervals > maxIntervals) {
            throw error(pos, "more than maxIntervals=" + maxIntervals + " intervals");
          }
          if (current == null) {
            current = accumulator(key);
          }
          current.add(start, end);
          tagStart = -1;
        } else {
          throw error(
              pos, "expected an interval or a tag after ':' but found " + describe(pos));
        }
      }
      if (tagStart >= 0) {
        throw error(tagStart, "tag without intervals");
      }
      if (pos < len) {
        char c = in.charAt(pos);
        if (c != ',' && !isWhitespace(c)) {
          throw error(pos, "unexpected " + describe(pos) + " after interval");
        }
      }
    }

    /** Reads the 8-4-4-4-12 hex digit UUID at pos into {@code uuid}. */
    private void uuid() {
      long hi = 0;
      long lo = 0;
      for (int i = 0; i < UUID_LENGTH; i++, pos++) {
        if (pos == len) {
          throw error(pos, "UUID is truncated (expected 36 characters, 8-4-4-4-12 hex digits)");
        }
        char c = in.charAt(pos);
        if (i == 8 || i == 13 || i == 18 || i == 23) {
          if (c != '-') {
            throw error(
                pos, "expected '-' in UUID (8-4-4-4-12 hex digits) but found " + describe(pos));
          }
          continue;
        }
        int v = hexValue(c);
        if (v < 0) {
          throw error(pos, "expected a hex digit in UUID but found " + describe(pos));
        }
        if (i < 18) {
          hi = hi << 4 | v;
        } else {
          lo = lo << 4 | v;
        }
      }
      uuidHi = hi;
      uuidLo = lo;
    }

    private String tag() {
      int start = pos;
      char[] chars = new char[MAX_TAG_LENGTH];
      int n = 0;
      while (pos < len) {
        char c = in.charAt(pos);
        if (!isTagStart(c) && !(c >= '0' && c <= '9')) {
          break;
        }
        if (n == MAX_TAG_LENGTH) {
          throw error(start, "tag longer than " + MAX_TAG_LENGTH + " characters");
        }
        chars[n++] = c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
        pos++;
      }
      return new String(chars, 0, n);
    }

    private long number() {
      int start = pos;
      long value = 0;
      while (pos < len) {
        char c = in.charAt(pos);
        if (c < '0' || c > '9') {
          break;
        }
        int digit = c - '0';
        if (value > (MAX_GNO - digit) / 10) {
          throw error(start, "GTID number greater than " + MAX_GNO);
        }
        value = value * 10 + digit;
        pos++;
      }
      if (pos == start) {
        throw error(pos, "expected a number but found " + describe(pos));
      }
      if (value == 0) {
        throw error(start, "GTID number 0 (GTID numbers start at 1)");
      }
      if (in.charAt(start) == '0') {
        throw error(start, "GTID number with a leading zero");
      }
      return value;
    }

    private void skipWhitespace() {
      while (pos < len && isWhitespace(in.charAt(pos))) {
        pos++;
      }
    }

    private static boolean isWhitespace(char c) {
      return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    private static boolean isTagStart(char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    static int hexValue(char c) {
      if (c >= '0' && c <= '9') {
        return c - '0';
      }
      if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
      }
      if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
      }
      return -1;
    }

    private String describe(int p) {
      if (p >= len) {
        return "end of text";
      }
      StringBuilder sb = new StringBuilder("'");
      MalformedGtidSetException.appendEscaped(sb, in.charAt(p));
      return sb.append('\'').toString();
    }

    private MalformedGtidSetException error(int offset, String problem) {
      return MalformedGtidSetException.at(in, offset, problem);
    }
  }
}
