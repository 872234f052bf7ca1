package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import org.jspecify.annotations.Nullable;

/**
 * What the cluster knows of one replica's progress, beside its {@link HealthState}: immutable, held by
 * its {@link ReplicaEndpoint} in one reference and replaced as a whole by one compare-and-set.
 *
 * @param polledKnown its known position right after the last poll (the same instance while it does not grow)
 * @param stalledAt its known position when it was last found stalled ({@link StallRule}), null when never;
 *     it is stalled while its known position is still this very instance
 * @param stalledSinceNanos when it was found stalled at {@code stalledAt} ({@link System#nanoTime()}), 0 when never
 */
// A known position is replaced, never changed, when it grows: "the same instance" is "not advanced".
@SuppressWarnings("ReferenceEquality")
record Progress(Position polledKnown, @Nullable Position stalledAt, long stalledSinceNanos) {
  static final Progress INITIAL = new Progress(Positions.EMPTY, null, 0);

  /** Found stalled at {@code known} (no change when it already is, at that position). */
  Progress stalled(Position known, long nowNanos) {
    return stalledAt == known ? this : new Progress(polledKnown, known, nowNanos | 1);
  }

  /** A poll left the known position at {@code known}; {@code stall} says whether it found the replica stalled. */
  Progress polled(Position known, boolean stall, long nowNanos) {
    if (stall) {
      return stalledAt == known && polledKnown == known ? this : new Progress(known, known,
          stalledAt == known ? stalledSinceNanos : nowNanos | 1);
    }
    return polledKnown == known ? this : new Progress(known, stalledAt, stalledSinceNanos);
  }
}
