package dev.ryow.jdbc.cluster.wait;

import java.math.BigDecimal;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * How long a read may wait on a replica: {@code ryow.waitTimeout}, the learned bound per replica
 * ({@link WaitBound}) from its smoothed waits and the primary's smoothed cost, and the seconds bound to a
 * wait, made once each.
 */
public final class WaitBounds {
  private final int waitTimeoutMillis;
  private final BigDecimal waitTimeoutSeconds;
  /** {@link #waitSeconds}: the values below a second, made on first use. */
  private final @Nullable BigDecimal[] secondsByMillis;
  /** A read the replicas leave goes to the primary, without a cap: waits may be bounded ({@link #waitBoundMillis}). */
  private final boolean primaryUncapped;
  /** {@link #primaryPollTook}, {@link Smoothed}. */
  private final AtomicLong primaryCost = new AtomicLong(Smoothed.NONE);

  /**
   * The bounds of a cluster whose {@code ryow.waitTimeout} is {@code waitTimeoutMillis}; {@code primaryUncapped}:
   * a read the replicas leave goes to the primary without a cap ({@code ryow.fallback=primary} with no
   * {@code ryow.fallbackRate}), so that waits may be bounded by what a read on the primary costs.
   */
  public WaitBounds(int waitTimeoutMillis, boolean primaryUncapped) {
    this.waitTimeoutMillis = waitTimeoutMillis;
    this.waitTimeoutSeconds = BigDecimal.valueOf(waitTimeoutMillis, 3);
    this.secondsByMillis = new BigDecimal[Math.min(waitTimeoutMillis, 1_000)];
    this.primaryUncapped = primaryUncapped;
  }

  /** {@code ryow.waitTimeout} in milliseconds. */
  public int waitTimeoutMillis() {
    return waitTimeoutMillis;
  }

  /** {@code ryow.waitTimeout} in seconds, as bound to {@code WAIT_FOR_EXECUTED_GTID_SET}. */
  public BigDecimal waitTimeoutSeconds() {
    return waitTimeoutSeconds;
  }

  /**
   * {@code millis} as the seconds bound to a wait: {@link #waitTimeoutSeconds} from {@code ryow.waitTimeout}
   * up; shorter ones are made once each (below a second) and shared, so a bounded wait allocates nothing.
   */
  public BigDecimal waitSeconds(long millis) {
    if (millis >= waitTimeoutMillis) {
      return waitTimeoutSeconds;
    }
    int i = (int) Math.max(1, millis);
    if (i >= secondsByMillis.length) {
      return BigDecimal.valueOf(i, 3);
    }
    BigDecimal s = secondsByMillis[i]; // a race makes an equal value twice: BigDecimal is immutable
    if (s == null) {
      s = BigDecimal.valueOf(i, 3);
      secondsByMillis[i] = s;
    }
    return s;
  }

  /** A poll of the primary took {@code nanos}: a round trip with a small read, what a read there costs. */
  public void primaryPollTook(long nanos) {
    Smoothed.add(primaryCost, nanos);
  }

  /**
   * How long a read may wait on a replica whose successful waits are {@code waits} ({@link Smoothed}, its
   * {@code ReplicaEndpoint.smoothedWait}), in milliseconds ({@link WaitBound}): {@code ryow.waitTimeout},
   * or less once its normal wait and the primary's cost are known, when the primary takes every read the
   * replicas leave ({@code ryow.fallback=primary} with no {@code ryow.fallbackRate} cap: the defaults).
   */
  public long waitBoundMillis(long waits) {
    long micros = WaitBound.micros(primaryUncapped, waitTimeoutMillis * 1_000L, Smoothed.smoothedMicros(waits),
        Smoothed.deviationMicros(waits), Smoothed.smoothedMicros(primaryCost.get()), Smoothed.backoff(waits));
    return (micros + 999) / 1_000;
  }

  /** The primary's poll round trips, smoothed ({@link Smoothed}; {@link Smoothed#NONE} before the first). */
  public long primaryCost() {
    return primaryCost.get();
  }
}
