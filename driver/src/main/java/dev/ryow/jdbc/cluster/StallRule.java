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
 * It stays stalled exactly as long as its known position is the one it stalled at: any growth (a poll
 * that finds it advanced, a wait that reached its set) ends the prediction without another write. The
 * known position only ever changes by growing ({@link GtidSet#union} returns the same instance when
 * nothing is new) or by a reset, so "the same instance" means "not advanced". A read it already has is
 * never affected: it is read there without a wait, stalled or not.
 */
public final class StallRule {
  private StallRule() {}

  /**
   * Whether a replica whose known position is {@code known} is stalled, given the position it was found
   * stalled at ({@code stalledAt}, null when it never was).
   */
  // A known position is replaced, never changed, when it grows: "the same instance" is "not advanced".
  @SuppressWarnings("ReferenceEquality")
  public static boolean stalled(@Nullable Position stalledAt, Position known) {
    return stalledAt != null && stalledAt == known;
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
