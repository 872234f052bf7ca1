package dev.ryow.jdbc.cluster;

/**
 * What the cluster knows of one server's health at one moment: immutable, held by its
 * {@link ReplicaEndpoint} in one reference and replaced as a whole by one compare-and-set, so a reader
 * never sees the health of one change with the problem or probe time of another. Every transition is a
 * method here that computes the next state from this one, or returns this very state when the transition
 * does not apply to it; {@link ReplicaEndpoint} installs the result (the thread whose compare-and-set
 * installs it is the one that made the transition).
 *
 * @param health the health
 * @param lagMillis the applier lag at the last poll, in milliseconds
 * @param problem why it is out of rotation (or {@link Health#PAUSED}); empty when {@link Health#UP},
 *     {@link Health#PRIMARY} or {@link Health#VACANT}
 * @param probeAtNanos when an {@link Health#UNREACHABLE} server is due to be probed again ({@link System#nanoTime()})
 * @param backoffNanos the wait before the probe after the next failure: 250 ms after a recovery, doubling up to 5 s
 * @param stoppedSinceNanos when the poller first saw its replication stopped without an error
 *     ({@link System#nanoTime()}, never 0); 0 while it runs
 */
public record HealthState(
    Health health, long lagMillis, String problem, long probeAtNanos, long backoffNanos, long stoppedSinceNanos) {
  static final long FIRST_BACKOFF_NANOS = 250_000_000L;
  static final long MAX_BACKOFF_NANOS = 5_000_000_000L;

  /** A server named in the URL, before its first poll: in rotation (optimistic). */
  static final HealthState INITIAL = new HealthState(Health.UP, 0, "", 0, FIRST_BACKOFF_NANOS, 0);
  /** A place kept for a group member not found yet. */
  static final HealthState VACANT = new HealthState(Health.VACANT, 0, "", 0, FIRST_BACKOFF_NANOS, 0);

  /**
   * A poll's verdict; reaching {@link Health#UP} resets the probe backoff. No change of the primary's or
   * a vacant place's state (a verdict on a server that became the primary meanwhile), nor when it says
   * what this state says already.
   */
  HealthState polled(Health next, long lag, String why) {
    if (health == Health.PRIMARY || health == Health.VACANT) {
      return this;
    }
    long backoff = next == Health.UP ? FIRST_BACKOFF_NANOS : backoffNanos;
    HealthState polled = new HealthState(next, lag, why, probeAtNanos, backoff, stoppedSinceNanos);
    return polled.equals(this) ? this : polled;
  }

  /**
   * Connecting to it or a connection failed at {@code nowNanos}: out of rotation, probed again after the
   * backoff, which doubles. No change of the primary or a vacant place, nor of an unreachable server whose
   * probe is not due (a failure of a connection opened before it was found unreachable says nothing new);
   * so a failed probe doubles the backoff once, however many threads report failures.
   */
  HealthState unreachable(String why, long nowNanos) {
    if (health == Health.PRIMARY || health == Health.VACANT || !probeDue(nowNanos)) {
      return this;
    }
    return new HealthState(Health.UNREACHABLE, lagMillis, why, nowNanos + backoffNanos,
        Math.min(MAX_BACKOFF_NANOS, backoffNanos * 2), stoppedSinceNanos);
  }

  /** It became the cluster's primary (no change of a vacant place, or of the primary). */
  HealthState primary() {
    if (health == Health.PRIMARY || health == Health.VACANT) {
      return this;
    }
    return new HealthState(Health.PRIMARY, 0, "", probeAtNanos, FIRST_BACKOFF_NANOS, 0);
  }

  /** It stopped being the primary: out of rotation until its next poll (no change unless it is the primary). */
  HealthState formerPrimary(String why) {
    return health != Health.PRIMARY ? this : new HealthState(Health.UNKNOWN, 0, why, probeAtNanos, backoffNanos, 0);
  }

  /** A discovered group member took this vacant place: out of rotation until its first poll (no change unless vacant). */
  HealthState occupied() {
    return health != Health.VACANT ? this : new HealthState(Health.UNKNOWN, 0, "not polled yet", 0, FIRST_BACKOFF_NANOS, 0);
  }

  /**
   * The poller starts again after an idle period: an unreachable server is probed at the first poll;
   * any other replica is back to the optimistic state of a new cluster. No change of the primary or a
   * vacant place.
   */
  HealthState forgotten(long nowNanos) {
    return switch (health) {
      case PRIMARY, VACANT -> this;
      case UNREACHABLE -> new HealthState(health, lagMillis, problem, nowNanos, backoffNanos, stoppedSinceNanos);
      default -> new HealthState(Health.UP, 0, "", probeAtNanos, backoffNanos, stoppedSinceNanos);
    };
  }

  /** The stop clock started at {@code nowNanos} (no change if it runs already). */
  HealthState stoppedAt(long nowNanos) {
    return stoppedSinceNanos != 0 ? this
        : new HealthState(health, lagMillis, problem, probeAtNanos, backoffNanos, nowNanos | 1);
  }

  /** The stop clock reset: replication runs (or failed with an error). */
  HealthState running() {
    return stoppedSinceNanos == 0 ? this
        : new HealthState(health, lagMillis, problem, probeAtNanos, backoffNanos, 0);
  }

  /** Whether the poll should try it now (an unreachable server only once its backoff elapsed). */
  boolean probeDue(long nowNanos) {
    return health != Health.UNREACHABLE || nowNanos - probeAtNanos >= 0;
  }
}
