package dev.ryow.jdbc.server;

import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;

/**
 * What one read of a server's {@code @@global.gtid_owned} and then {@code @@global.gtid_executed}
 * (in that order, in one statement) says about it: together they contain every transaction the server
 * had made visible before the read began. MySQL commits a transaction in its storage engine (it is
 * visible) a moment before it moves its GTID from the owned set to {@code gtid_executed}; a GTID is
 * owned from before that commit until the move, so reading the owned set first closes that window.
 *
 * @param executed {@code @@global.gtid_executed}
 * @param owned the GTIDs of {@code @@global.gtid_owned} (transactions being applied or committed now),
 *     without their owners' thread ids
 */
public record ServerPosition(Position executed, Position owned) {

  /** Everything the server may have made visible before the read: {@code executed} ∪ {@code owned}. */
  public Position visibleBound() {
    return executed.union(owned);
  }

  /**
   * Parses {@code @@global.gtid_owned}: for each UUID (with its tag, if any) the UUID, then {@code :number#thread}
   * for each GTID it owns, and the next UUID right after the last thread id, with no separator (as MySQL
   * 8.0-9.7 print it: {@code uuid:27#17:26#16uuid2:tag:5#3}). A thread id is digits and a UUID may begin with
   * digits, so the next UUID begins 8 characters before the first {@code -} after the {@code #}. The thread
   * ids are dropped; the rest is a GTID set. A comma (and line break) between UUIDs is accepted too.
   *
   * @throws dev.ryow.jdbc.gtid.MalformedGtidSetException if the text is not in that form
   */
  public static GtidSet parseOwned(String text) {
    if (text.isEmpty()) {
      return GtidSet.EMPTY;
    }
    StringBuilder b = new StringBuilder(text.length() + 8);
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i++);
      if (c != '#') {
        b.append(c);
        continue;
      }
      int digits = i;
      while (digits < n && isDigit(text.charAt(digits))) {
        digits++;
      }
      if (digits == i) {
        b.append(c); // a "#" without a thread id stays: the set parser refuses the text
        continue;
      }
      if (digits == n || text.charAt(digits) == ':' || text.charAt(digits) == ',') {
        i = digits;
        continue;
      }
      int dash = text.indexOf('-', i);
      int uuid = dash - 8;
      if (dash < 0 || uuid <= i || uuid > digits) {
        b.append(c); // no thread id, then a UUID: the set parser refuses the text
        continue;
      }
      b.append(',');
      i = uuid;
    }
    return GtidSet.parse(b);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
