package dev.ryow.jdbc.route;

/**
 * "A statement needs the primary and it is not writable: how much longer does it wait for one?" Pure
 * decision from what the last attempt on the primary saw, when the statement began to wait, and since when
 * the cluster knows the primary is lost. The table is in {@code PrimaryWaitRuleTest}:
 *
 * <ul>
 *   <li>The primary answered, read-only, and the last round of discovery reached every host: a switchover
 *       is under way (the old primary was demoted and the
 *       new one is being promoted) and the writable server comes soon. The statement waits up to
 *       {@code ryow.failoverTimeout} from the moment it began to wait ({@link Why#SWITCHOVER}).
 *   <li>The primary could not be reached: it died (killed, crashed, restarting, cut off). A new primary
 *       may be elected or promoted, but nothing says when: the statement waits at most
 *       {@link #DEATH_BOUND_MILLIS} (never more than {@code ryow.failoverTimeout}) from the moment the outage
 *       began, the earlier of when this statement began to wait and when a round of discovery first found
 *       no writable server ({@link Why#DEATH}). Once the outage is older than that, a statement that needs
 *       the primary fails after one attempt on it, so it never holds a pooled connection through the outage.
 * </ul>
 */
public final class PrimaryWaitRule {
  /** How long a statement waits for a new primary after the primary's death, from the outage's start. */
  public static final long DEATH_BOUND_MILLIS = 2_000;

  private PrimaryWaitRule() {}

  /** What the last attempt on the primary saw, for {@link #leftMillis}. */
  public enum Trouble {
    /** It answered, and it is read-only. */
    READ_ONLY,
    /** It could not be reached, or the connection to it broke. */
    UNREACHABLE
  }

  /** Which bound applies. */
  public enum Why {
    /** A switchover: up to {@code ryow.failoverTimeout}. */
    SWITCHOVER,
    /** A death: up to {@link #DEATH_BOUND_MILLIS} from the outage's start. */
    DEATH
  }

  /**
   * What the attempt on the primary saw, for the wait: the primary answered read-only only counts as a
   * switchover while the cluster's last round of discovery reached every host; when it found one
   * unreachable ({@code roundMissedAHost}), a server died (the known primary may be a demoted one, and the
   * real primary the dead host).
   */
  public static Trouble trouble(boolean primaryAnsweredReadOnly, boolean roundMissedAHost) {
    return primaryAnsweredReadOnly && !roundMissedAHost ? Trouble.READ_ONLY : Trouble.UNREACHABLE;
  }

  /** Which bound applies to {@code trouble}. */
  public static Why why(Trouble trouble) {
    return trouble == Trouble.READ_ONLY ? Why.SWITCHOVER : Why.DEATH;
  }

  /**
   * How many more milliseconds the statement waits (0 or less: it fails now).
   *
   * @param trouble what the last attempt on the primary saw
   * @param waitingSinceNanos when this statement began to wait ({@link System#nanoTime()})
   * @param lostSinceNanos when a round of discovery found no writable server, 0 while none did
   * @param nowNanos now
   * @param failoverTimeoutMillis {@code ryow.failoverTimeout}
   */
  public static long leftMillis(Trouble trouble, long waitingSinceNanos, long lostSinceNanos, long nowNanos,
      long failoverTimeoutMillis) {
    long end = waitingSinceNanos + failoverTimeoutMillis * 1_000_000L;
    if (why(trouble) == Why.DEATH) {
      long since = lostSinceNanos != 0 && lostSinceNanos - waitingSinceNanos < 0 ? lostSinceNanos : waitingSinceNanos;
      long deathEnd = since + Math.min(DEATH_BOUND_MILLIS, failoverTimeoutMillis) * 1_000_000L;
      if (deathEnd - end < 0) {
        end = deathEnd;
      }
    }
    return Math.floorDiv(end - nowNanos, 1_000_000L);
  }
}
