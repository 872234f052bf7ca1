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
 *     behind; it stays stalled until it has that set, or for {@link StallRule#RELEASE_NANOS} after it advanced
 * @param stalledSinceNanos when this stall began ({@link System#nanoTime()}), 0 when never
 */
// A known position is replaced, never changed, when it grows: "the same instance" is "not advanced".
@SuppressWarnings("ReferenceEquality")
record Progress(Position polledKnown, @Nullable Position stalledAt, Position lacked, long stalledSinceNanos) {
  static final Progress INITIAL = new Progress(Positions.EMPTY, null, Positions.EMPTY, 0);

  /**
   * Found stalled at {@code known}, lacking {@code lacked}; {@code ongoing}: it was still stalled, and this
   * stall continues that one (it keeps its start).
   */
  Progress stalled(Position known, Position lacked, boolean ongoing, long nowNanos) {
    Position need = ongoing ? larger(this.lacked, lacked) : lacked;
    if (stalledAt == known && this.lacked == need) {
      return this;
    }
    return new Progress(polledKnown, known, need, ongoing ? stalledSinceNanos : nowNanos | 1);
  }

  /**
   * A poll left the known position at {@code known}; {@code stall} says whether it found the replica stalled
   * (lacking {@code lacked}), {@code ongoing} whether it was still stalled.
   */
  Progress polled(Position known, boolean stall, Position lacked, boolean ongoing, long nowNanos) {
    if (stall) {
      Position need = ongoing ? larger(this.lacked, lacked) : lacked;
      return stalledAt == known && polledKnown == known && this.lacked == need ? this
          : new Progress(known, known, need, ongoing ? stalledSinceNanos : nowNanos | 1);
    }
    return polledKnown == known ? this : new Progress(known, stalledAt, this.lacked, stalledSinceNanos);
  }

  /** Of what an ongoing stall lacked and what it is found lacking now, the one to wait for: the newer, unless it is not. */
  private static Position larger(Position before, Position now) {
    return now.contains(before) ? now : before;
  }

  /** No longer stalled (it reached what it lacked, or was reset). */
  Progress released() {
    return stalledAt == null ? this : new Progress(polledKnown, null, Positions.EMPTY, 0);
  }
}
