package dev.ryow.jdbc.cluster;

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
    if (primaryMoved) {
      return Verdict.FORGET;
    }
    if (!suspected.isEmpty() && suspected.contains(missing)
        && nowNanos - suspectedAtNanos >= SETTLE_MILLIS * 1_000_000L) {
      return Verdict.FORGET;
    }
    return Verdict.SUSPECT;
  }
}
