package dev.ryow.jdbc.session;

/**
 * "How long may this read's wait take?", for both wait paths (the wait in the query's packet and the wait
 * on its own): the replica's wait bound ({@link dev.ryow.jdbc.cluster.WaitBounds#waitBoundMillis}: the learned
 * bound, at most {@code ryow.waitTimeout}), or less when the statement's query timeout ends sooner, since
 * the timeout also covers the query. What is left of the query timeout is counted in whole milliseconds
 * rounded up, once, here: a wait is never given less than the caller left it.
 */
final class WaitBudget {
  /** The query timeout expired before the wait could start. */
  static final long EXPIRED = 0;

  private WaitBudget() {}

  /**
   * The wait's budget in milliseconds: {@code boundMillis}, or what is left until {@code deadlineNanos}
   * when that is shorter; {@link #EXPIRED} when the deadline has passed.
   *
   * @param boundMillis the replica's wait bound (at least 1)
   * @param deadlineNanos when the statement's query timeout expires ({@link System#nanoTime()}), 0 for none
   * @param nowNanos {@link System#nanoTime()} now
   */
  static long millis(long boundMillis, long deadlineNanos, long nowNanos) {
    if (deadlineNanos == 0) {
      return boundMillis;
    }
    long leftNanos = deadlineNanos - nowNanos;
    if (leftNanos <= 0) {
      return EXPIRED;
    }
    return Math.min(boundMillis, (leftNanos + 999_999) / 1_000_000);
  }

  /** Whether a budget of {@code budgetMillis} was cut by the query timeout, not by the bound. */
  static boolean cutByDeadline(long budgetMillis, long boundMillis) {
    return budgetMillis < boundMillis;
  }
}
