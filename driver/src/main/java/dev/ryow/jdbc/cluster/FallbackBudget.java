package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * What a cluster's connections share when a read falls back from the replicas: the primary's fallback
 * budget ({@code ryow.fallbackRate}/{@code ryow.fallbackBurst}, unlimited when the rate is 0) and the
 * once-a-second throttle of the stale-read warning. The decision itself is {@code route.FallbackPolicy}.
 */
public final class FallbackBudget {
  private static final long STALE_LOG_INTERVAL_NANOS = 1_000_000_000L;

  /** Null: no cap ({@code ryow.fallbackRate=0}). */
  private final @Nullable TokenBucket bucket;
  private final AtomicLong lastStaleLog = new AtomicLong(System.nanoTime() - STALE_LOG_INTERVAL_NANOS);

  /** The budget of a cluster's config. */
  public FallbackBudget(RyowConfig config) {
    this(bucketOf(config));
  }

  /** A budget drawn from {@code bucket}, null for no cap (tests). */
  public FallbackBudget(@Nullable TokenBucket bucket) {
    this.bucket = bucket;
  }

  private static @Nullable TokenBucket bucketOf(RyowConfig config) {
    int rate = config.get(RyowProperties.FALLBACK_RATE);
    return rate == 0 ? null : new TokenBucket(rate, config.get(RyowProperties.FALLBACK_BURST));
  }

  /** Takes one fallback from the budget: true when there is no cap or a token was left. */
  public boolean tryAcquire() {
    TokenBucket b = bucket;
    return b == null || b.tryAcquire();
  }

  /** True for at most one caller per second: whose turn it is to log a stale read. */
  public boolean mayLogStale() {
    long now = System.nanoTime();
    long last = lastStaleLog.get();
    return now - last >= STALE_LOG_INTERVAL_NANOS && lastStaleLog.compareAndSet(last, now);
  }
}
