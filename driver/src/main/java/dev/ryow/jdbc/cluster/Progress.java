package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import org.jspecify.annotations.Nullable;

/**
 * What the cluster knows of one replica's progress, beside its {@link HealthState}: immutable, held by
 * its {@link ReplicaEndpoint} in one reference and replaced as a whole by one compare-and-set.
 *
 * @param polledKnown its known position right after the last poll (the same instance while it does not grow)
 * @param stalledAt its known position when it was last found stalled ({@link StallRule}), null when never
 *     or once released
 * @param lacked what it lacked then: the set a wait on it did not reach, or the primary's position it was
 *     behind; once it advanced, it stays stalled until it has that set, {@link StallRule#RELEASE_NANOS} at most
 * @param stalledSinceNanos when this stall began ({@link System#nanoTime()}), 0 when never
 */
// A known position is replaced, never changed, when it grows: "the same instance" is "not advanced".
@SuppressWarnings("ReferenceEquality")
record Progress(Position polledKnown, @Nullable Position stalledAt, Position lacked, long stalledSinceNanos) {
  static final Progress INITIAL = new Progress(Positions.EMPTY, null, Positions.EMPTY, 0);

  /** Found stalled at {@code known}, lacking {@code lacked}, at {@code nowNanos}. */
  Progress stalled(Position known, Position lacked, long nowNanos) {
    return stall(polledKnown, known, lacked, nowNanos);
  }

  /**
   * A poll left the known position at {@code known}; {@code stall} says whether it found the replica stalled
   * (lacking {@code lacked}).
   */
  Progress polled(Position known, boolean stall, Position lacked, long nowNanos) {
    if (stall) {
      return stall(known, known, lacked, nowNanos);
    }
    return polledKnown == known ? this : new Progress(known, stalledAt, this.lacked, stalledSinceNanos);
  }

  /**
   * Stalled at {@code known}, lacking {@code lacked}. A stall still under way ({@link StallRule#stalled}) goes on:
   * it keeps its start, and of what it lacked and what is lacking now, the newer (unless it is not).
   */
  private Progress stall(Position polled, Position known, Position lacked, long nowNanos) {
    boolean ongoing = StallRule.stalled(stalledAt, this.lacked, stalledSinceNanos, known, nowNanos);
    Position need = ongoing && !lacked.contains(this.lacked) ? this.lacked : lacked;
    if (polledKnown == polled && stalledAt == known && this.lacked == need) {
      return this;
    }
    return new Progress(polled, known, need, ongoing ? stalledSinceNanos : nowNanos | 1);
  }

  /** No longer stalled (it reached what it lacked, or was reset). */
  Progress released() {
    return stalledAt == null ? this : new Progress(polledKnown, null, Positions.EMPTY, 0);
  }
}
