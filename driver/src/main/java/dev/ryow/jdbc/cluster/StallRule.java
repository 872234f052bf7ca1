package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import org.jspecify.annotations.Nullable;

/**
 * "Will a wait on this replica fail?" A prediction from what the driver learns anyway, corrected by the
 * next observation. A replica is <em>stalled</em> when it has not advanced while the primary has, for
 * longer than its normal apply delay; a read whose watermark a stalled replica lacks skips it at once
 * (another replica, or the primary) instead of waiting {@code ryow.waitTimeout} there for nothing.
 *
 * <p>Two observations make a replica stalled, at its known position of the moment:
 *
 * <ul>
 *   <li>a wait on it timed out: it lacked a set the primary had, for the whole {@code ryow.waitTimeout};
 *   <li>a poll found it <em>quiet</em> and {@linkplain ReplicaEndpoint#behind() behind}: its known position
 *       did not grow since the poll before, and it lacks what the primary had executed one round earlier;
 *       so for a whole {@code ryow.pollInterval} it applied nothing while a transaction at least that old
 *       was waiting for it (a replica that applies with a steady delay shorter than a poll round grows
 *       between two polls and is never quiet).
 * </ul>
 *
 * It stays stalled while its known position is the one it stalled at (the known position only ever changes
 * by growing, and {@link GtidSet#union} returns the same instance when nothing is new, so "the same instance"
 * means "not advanced"), and after that until it has what it lacked: the set the wait did not reach, or the
 * primary's position it was behind. Growth alone does not end it: an applier that is stopped or blocked
 * still commits the transactions it had under way, and a replica that advanced by those is no closer to
 * the reads that wait for the primary's newer writes; ended on the first growth, the prediction let every
 * such read wait its bound again (the waits cut one after the other, each twice as long as the last). Once
 * it advanced, the prediction ends {@link #RELEASE_NANOS} after the stall began at the latest, so that a set it will never
 * have (a GTID no server will execute) cannot keep it from waits for good. A reset of its position (another
 * server, or a rebuilt one) ends it too. A read it already has is never affected: it is read there without
 * a wait, stalled or not.
 */
public final class StallRule {
  /** How long after it began a stall ends, once the replica advanced, when it never gets what it lacked. */
  public static final long RELEASE_NANOS = 1_000_000_000L;

  private StallRule() {}

  /**
   * Whether a replica whose known position is {@code known} is stalled at {@code nowNanos}, given the
   * position it was found stalled at ({@code stalledAt}, null when it never was or was released), what it
   * lacked then and when the stall began.
   */
  // A known position is replaced, never changed, when it grows: "the same instance" is "not advanced".
  @SuppressWarnings("ReferenceEquality")
  public static boolean stalled(@Nullable Position stalledAt, Position lacked, long sinceNanos, Position known,
      long nowNanos) {
    if (stalledAt == null) {
      return false;
    }
    if (stalledAt == known) {
      return true;
    }
    return nowNanos - sinceNanos < RELEASE_NANOS && !known.contains(lacked);
  }

  /**
   * After a poll: whether the replica is found stalled now.
   *
   * @param advanced its known position grew since the previous poll (by this poll, or a wait in between)
   * @param behind it lacks what the primary had executed at the previous poll round
   * @param inRotation it may be waited on at all (out of rotation it is never waited on: nothing to predict)
   */
  public static boolean stalledByPoll(boolean advanced, boolean behind, boolean inRotation) {
    return inRotation && behind && !advanced;
  }

  /**
   * After a wait on it that did not reach its set: whether the replica is found stalled ({@code timedOut}: it
   * returned 1, the replica applied too little within the timeout; a NULL or an error says nothing of its
   * progress).
   */
  public static boolean stalledByWait(boolean timedOut) {
    return timedOut;
  }
}
