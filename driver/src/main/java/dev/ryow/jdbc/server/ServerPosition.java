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
   * Parses {@code @@global.gtid_owned}: GTID-set text in which every number carries its owner's thread
   * id ({@code uuid:27#17:26#16,uuid2:tag:5#3}). The thread ids are dropped; the rest is a GTID set.
   *
   * @throws dev.ryow.jdbc.gtid.MalformedGtidSetException if the text is not in that form
   */
  public static GtidSet parseOwned(String text) {
    if (text.isEmpty()) {
      return GtidSet.EMPTY;
    }
    StringBuilder b = new StringBuilder(text.length());
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i++);
      if (c == '#' && i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
        while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
          i++;
        }
      } else {
        b.append(c);
      }
    }
    return GtidSet.parse(b);
  }
}
