package dev.ryow.jdbc.route;

import dev.ryow.jdbc.cluster.Health;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.cluster.StallRule;
import dev.ryow.jdbc.gtid.Position;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * "Wait or skip?" for each candidate of one replica read, in the order {@link ReplicaSelector} gave,
 * and, when none served it, why the read falls back ({@link FallbackPolicy.Reason}), which replica is
 * blamed and which one could serve it stale. It decides; the session's replica slots do the I/O
 * (open, replay session state, the wait itself) and report back. One instance per logical connection,
 * {@link #start started} again for each read (no allocation per read).
 *
 * @param <S> what the caller knows a candidate by (its replica slot)
 */
public final class ReadAdmission<S> {
  /** What to do with one candidate. */
  public enum Step {
    /** It is known to have the set (or the read needs none): read there, no wait. */
    READ_NOW,
    /** Out of rotation and not known to have the set: never waited on; try the next. */
    SKIP,
    /**
     * In rotation but {@linkplain StallRule stalled}: a wait would time out; never waited on, try the next
     * ({@link #stalled} records it).
     */
    SKIP_STALLED,
    /** In rotation: wait there if its waiter cap has room ({@link #capped} when it has not). */
    WAIT
  }

  private FallbackPolicy.Reason reason = FallbackPolicy.Reason.NO_REPLICA;
  private @Nullable ReplicaEndpoint blamed;
  private @Nullable S staleCandidate;
  private boolean capped;
  private boolean stalled;

  /**
   * The step for a candidate for a read that must see {@code required}, on what is known of its server:
   * {@code verified} is a set this logical connection's own connection to it was seen to have (a
   * successful wait), or null; {@code knownExecuted}, {@code health} and {@code stalled} are the server's
   * ({@link ReplicaEndpoint}). While the primary is lost ({@code primaryLost}) a stalled replica is
   * still waited on: no cheaper server can serve the read.
   */
  public static Step judge(Position required, @Nullable Position verified, Position knownExecuted, Health health,
      boolean stalled, boolean primaryLost) {
    if (required.isEmpty() || (verified != null && verified.contains(required)) || knownExecuted.contains(required)) {
      return Step.READ_NOW;
    }
    if (!health.inRotation()) {
      return Step.SKIP;
    }
    return stalled && !primaryLost ? Step.SKIP_STALLED : Step.WAIT;
  }

  /** A new read: nothing tried yet. */
  public void start() {
    reason = FallbackPolicy.Reason.NO_REPLICA;
    blamed = null;
    staleCandidate = null;
    capped = false;
    stalled = false;
  }

  /**
   * {@code server} is stalled and lacks the read's set: not waited on, the next candidate is tried; it is
   * blamed unless another replica was, and may serve the read stale.
   */
  public void stalled(ReplicaEndpoint server, S candidate) {
    stalled = true;
    if (blamed == null) {
      blamed = server;
    }
    if (staleCandidate == null) {
      staleCandidate = candidate;
    }
  }

  /** Whether a stalled replica was passed over. */
  public boolean wasStalled() {
    return stalled;
  }

  /** {@code server}'s waiter cap was full: the next candidate is tried; it may still serve the read stale. */
  public void capped(ReplicaEndpoint server, S candidate) {
    capped = true;
    blamed = server;
    if (staleCandidate == null) {
      staleCandidate = candidate;
    }
  }

  /**
   * The wait on {@code server} did not reach the set ({@code timedOut}: it returned 1; else NULL or an
   * error). A read waits on one replica at most: the admission ends here, that replica blamed.
   */
  public void waitFailed(boolean timedOut, ReplicaEndpoint server, S candidate) {
    reason = timedOut ? FallbackPolicy.Reason.TIMED_OUT : FallbackPolicy.Reason.WAIT_FAILED;
    blamed = server;
    staleCandidate = candidate;
  }

  /** Whether a wait failed: the admission is over (a read waits on one replica at most). */
  public boolean waitFailed() {
    return reason != FallbackPolicy.Reason.NO_REPLICA;
  }

  /**
   * Why the read falls back: the failed wait's reason, else {@code CAPPED} if a cap turned it away, else
   * {@code STALLED} if a stalled replica was passed over, else no replica.
   */
  public FallbackPolicy.Reason reason() {
    if (reason != FallbackPolicy.Reason.NO_REPLICA) {
      return reason;
    }
    return capped ? FallbackPolicy.Reason.CAPPED : stalled ? FallbackPolicy.Reason.STALLED : reason;
  }

  /** The replica the fallback names (whose wait failed or whose cap was full), or null. */
  public @Nullable ReplicaEndpoint blamed() {
    return blamed;
  }

  /** A candidate that could serve the read stale, or null. */
  public @Nullable S staleCandidate() {
    return staleCandidate;
  }

  /** Whether a cap turned the read away from some replica. */
  public boolean wasCapped() {
    return capped;
  }

  /**
   * Whether a server other than {@code exclude} was passed over only because it is out of rotation
   * (reachable, not known to have {@code required}): counted, so that operators see reads the fallback
   * took because replicas left rotation.
   */
  public static boolean skippedOutOfRotation(
      List<ReplicaEndpoint> servers, Position required, @Nullable ReplicaEndpoint exclude) {
    for (ReplicaEndpoint e : servers) {
      if (e != exclude && e.health().reachable() && !e.health().inRotation() && !e.knownExecuted().contains(required)) {
        return true;
      }
    }
    return false;
  }
}
