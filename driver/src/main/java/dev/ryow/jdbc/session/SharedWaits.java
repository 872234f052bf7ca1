package dev.ryow.jdbc.session;

/**
 * How long a read rides on another read's wait ({@link dev.ryow.jdbc.cluster.wait.SharedWait}) before it waits
 * on its own, and what is left for that: half of its budget at most, so that a wait ridden on that does not end
 * (its read's query runs long after it, or it times out) leaves the read half of its budget to wait for its own
 * set; together never more than the budget, so no read waits longer than {@code ryow.waitTimeout}.
 */
final class SharedWaits {
  private SharedWaits() {}

  /** The longest ride, in nanoseconds, for a read whose wait budget is {@code budgetMillis} (0: none left). */
  static long rideNanos(long budgetMillis) {
    return budgetMillis <= 0 ? 0 : budgetMillis * 500_000L;
  }

  /**
   * The bound, in ms, of the read's own wait after riding {@code rodeNanos} on a wait that did not serve it:
   * {@code boundMillis} less the ride (rounded up), at least 1 ms (a wait of 0 would not wait at all).
   */
  static long afterRide(long boundMillis, long rodeNanos) {
    long rodeMillis = (Math.max(0, rodeNanos) + 999_999) / 1_000_000;
    return Math.max(1, boundMillis - rodeMillis);
  }
}
