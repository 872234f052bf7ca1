package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import java.util.concurrent.atomic.AtomicReference;

/**
 * GTIDs of one watermark the primary was found not to have executed, and since when: the state the
 * {@link LostGtidRule} decides on, so that a commit still in flight on the primary is not taken for a loss.
 * Shared when the watermark is (the JVM's read history); one immutable record, replaced whole.
 */
public final class LostGtidSuspicion {
  private record Suspected(Position missing, long sinceNanos) {}

  private static final Suspected NONE = new Suspected(Positions.EMPTY, 0);

  private final AtomicReference<Suspected> state = new AtomicReference<>(NONE);

  /**
   * Whether a check is worth its round trip at {@code nowNanos}: no suspicion, or one old enough for the
   * {@link LostGtidRule} to decide.
   */
  public boolean due(long nowNanos) {
    Suspected s = java.util.Objects.requireNonNull(state.get()); // never set to null
    return s.missing().isEmpty() || nowNanos - s.sinceNanos() >= LostGtidRule.SETTLE_MILLIS * 1_000_000L;
  }

  /**
   * One check found {@code missing} (empty: nothing) at {@code nowNanos}: the rule's verdict, with the
   * suspicion updated (started or renewed on {@code SUSPECT}, ended otherwise).
   */
  public LostGtidRule.Verdict check(Position missing, long nowNanos, boolean primaryMoved) {
    Suspected s = java.util.Objects.requireNonNull(state.get()); // never set to null
    LostGtidRule.Verdict v = LostGtidRule.decide(missing, s.missing(), s.sinceNanos(), nowNanos, primaryMoved);
    if (v == LostGtidRule.Verdict.SUSPECT) {
      if (s.missing().isEmpty() || !s.missing().contains(missing)) {
        state.compareAndSet(s, new Suspected(missing, nowNanos));
      }
    } else if (!s.missing().isEmpty()) {
      state.compareAndSet(s, NONE);
    }
    return v;
  }
}
