package dev.ryow.jdbc.cluster.wait;

/**
 * "How long may a read wait on this replica before going to the primary is cheaper?" A wait longer than
 * the replica's normal wait plus what a read on the primary costs is never worth it: past that, the
 * primary would already have answered. The normal wait is a smoothed wait time and its deviation, as a
 * TCP sender keeps its round-trip time (RFC 6298: smoothed + 4 × deviation covers the normal spread);
 * the primary's cost is its smoothed poll round trip, a round trip with a small read.
 *
 * <p>Until both are known the bound is the configured {@code ryow.waitTimeout}, and so it stays when the
 * primary does not take every read the replicas leave ({@code ryow.fallback} other than {@code primary},
 * or a {@code ryow.fallbackRate} cap that protects it): cutting a wait then only fails or degrades the
 * read. It is never longer than the timeout, nor shorter than {@link #FLOOR_MICROS}. A wait cut by the
 * bound ends as any timed-out wait: the read goes to the primary (or another replica), and the replica is
 * predicted stalled until it advances ({@link StallRule}). It also doubles the replica's next bound, until a
 * wait succeeds and is measured (Karn's back-off, {@link Smoothed#backedOff}): a cut wait is never
 * measured, so without it a bound learned while waits were short would cut every wait once they grow (a
 * loaded machine applies more slowly), and the replica would serve no read after a write again.
 */
public final class WaitBound {
  /** The shortest bound: a timeout below a millisecond is as fast as asking the primary, and as noisy. */
  public static final long FLOOR_MICROS = 1_000;

  private WaitBound() {}

  /**
   * The wait bound, in microseconds.
   *
   * @param primaryUncapped a read the replicas leave goes to the primary, without a cap
   * @param timeoutMicros {@code ryow.waitTimeout}
   * @param smoothedWaitMicros the replica's smoothed successful wait; 0: not known yet
   * @param waitDeviationMicros its smoothed deviation
   * @param primaryMicros the primary's smoothed poll round trip; 0: not known yet
   * @param backoff how many waits on it the bound cut since its last successful one (0 to {@link Smoothed#MAX_BACKOFF})
   */
  public static long micros(boolean primaryUncapped, long timeoutMicros, long smoothedWaitMicros,
      long waitDeviationMicros, long primaryMicros, int backoff) {
    if (!primaryUncapped || smoothedWaitMicros <= 0 || primaryMicros <= 0) {
      return timeoutMicros;
    }
    long bound = Math.max(FLOOR_MICROS, smoothedWaitMicros + 4 * waitDeviationMicros + primaryMicros);
    return bound >= timeoutMicros >> backoff ? timeoutMicros : bound << backoff;
  }
}
