package dev.ryow.jdbc.cluster;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * A token bucket: {@code ratePerSecond} tokens per second, at most {@code capacity} stored, starting
 * full. Never blocks: {@link #tryAcquire()} answers at once. The critical section is a few arithmetic
 * operations, no I/O.
 */
public final class TokenBucket {
  private static final double NANOS_PER_SECOND = 1e9;

  private final double tokensPerNano;
  private final double capacity;
  private final LongSupplier nanoClock;
  private final ReentrantLock lock = new ReentrantLock();
  private double tokens;
  private long refilledAt;

  /** A bucket on {@link System#nanoTime()}. */
  public TokenBucket(int ratePerSecond, int capacity) {
    this(ratePerSecond, capacity, System::nanoTime);
  }

  /** A bucket on a given clock (tests). */
  public TokenBucket(int ratePerSecond, int capacity, LongSupplier nanoClock) {
    if (ratePerSecond < 1 || capacity < 1) {
      throw new IllegalArgumentException("rate and capacity must be positive: " + ratePerSecond + ", " + capacity);
    }
    this.tokensPerNano = ratePerSecond / NANOS_PER_SECOND;
    this.capacity = capacity;
    this.nanoClock = nanoClock;
    this.tokens = capacity;
    this.refilledAt = nanoClock.getAsLong();
  }

  /** Takes one token if there is one. */
  public boolean tryAcquire() {
    lock.lock();
    try {
      long now = nanoClock.getAsLong();
      long elapsed = now - refilledAt;
      if (elapsed > 0) {
        tokens = Math.min(capacity, tokens + elapsed * tokensPerNano);
        refilledAt = now;
      }
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
      return false;
    } finally {
      lock.unlock();
    }
  }
}
