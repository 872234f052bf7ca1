package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.BinlogPosition;
import dev.ryow.jdbc.gtid.Position;

/**
 * "The primary has not executed some GTIDs a watermark names: are they lost, or still committing?" A
 * primary acknowledges a commit, and sends it to its replicas (after the binary log's sync), before its own
 * {@code gtid_executed} shows it: for a moment a replica, or the OK packet, is ahead of what the primary
 * externalised, and a check in that moment sees GTIDs "missing" that are not lost. Pure decision; the
 * table is in {@code LostGtidRuleTest}:
 *
 * <ul>
 *   <li>Nothing missing: {@link Verdict#CLEAR} (any suspicion ends).
 *   <li>The primary moved since the GTIDs were seen (a switchover or failover: the new primary may never get
 *       them): {@link Verdict#FORGET} at once.
 *   <li>A binary-log position (servers without GTIDs): {@link Verdict#FORGET} at once. Nothing is in flight
 *       there: a write's position is read from the primary after its commit ({@code SHOW BINARY LOG STATUS}),
 *       and a replica's comes from the primary's log, so the primary always has its own; a position it lacks
 *       is another primary's (which it will never have: positions are per primary) or was lost with a restart.
 *       Kept while it settled, an old primary's position would also displace the new primary's position of
 *       the read's own writes from the read's requirement (a union of positions of two logs keeps only one)
 *       and send the read to a server that has the old position but not the writes.
 *   <li>Missing GTIDs that were all missing already at a check at least {@link #SETTLE_MILLIS} earlier: a
 *       commit does not stay in flight that long, so they are lost (a primary restarted without its last
 *       transactions, an errant transaction on a replica, a foreign token): {@link Verdict#FORGET}.
 *   <li>Otherwise (first seen missing, or something new is missing, or too recently):
 *       {@link Verdict#SUSPECT}: nothing is forgotten; the check is asked again once the commit settled.
 * </ul>
 */
public final class LostGtidRule {
  /** How long GTIDs must stay missing on the same primary before they are taken as lost. */
  public static final long SETTLE_MILLIS = 1_000;

  private LostGtidRule() {}

  /** What to do with the missing GTIDs. */
  public enum Verdict {
    /** Nothing is missing: no suspicion. */
    CLEAR,
    /** Missing, maybe only in flight: remember them and when, forget nothing yet. */
    SUSPECT,
    /** Lost: forget them (and log it). */
    FORGET
  }

  /**
   * Decides one check.
   *
   * @param missing what the primary has not executed now
   * @param suspected what was missing at the earliest check of the current suspicion (empty: none)
   * @param suspectedAtNanos when that check was ({@link System#nanoTime()})
   * @param nowNanos now
   * @param primaryMoved whether the cluster moved to another primary since the GTIDs were seen
   */
  public static Verdict decide(Position missing, Position suspected, long suspectedAtNanos, long nowNanos,
      boolean primaryMoved) {
    if (missing.isEmpty()) {
      return Verdict.CLEAR;
    }
    if (primaryMoved || missing instanceof BinlogPosition) {
      return Verdict.FORGET;
    }
    if (!suspected.isEmpty() && suspected.contains(missing)
        && nowNanos - suspectedAtNanos >= SETTLE_MILLIS * 1_000_000L) {
      return Verdict.FORGET;
    }
    return Verdict.SUSPECT;
  }
}
