package dev.ryow.jdbc.route;

import dev.ryow.jdbc.cluster.FallbackBudget;
import dev.ryow.jdbc.cluster.PrimaryState;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.cluster.StallRule;
import dev.ryow.jdbc.config.DegradeMode;
import dev.ryow.jdbc.config.FallbackMode;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.metrics.ClusterMetrics;
import java.sql.SQLTransientException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * "What on failure?" Decides where a replica read goes when no replica could serve it in time:
 * {@code ryow.fallback=primary} sends it to the primary (by default without a cap, as the application
 * read before it adopted the driver; with {@code ryow.fallbackRate > 0}, within the cluster's token bucket,
 * applying {@code ryow.fallbackDegrade} when the bucket is empty), except while the primary is lost
 * (no writable server found since it went away): then the read waits longer on the replicas, for a
 * replica that received the writes will apply them; {@code error} and {@code stale} never send it to
 * the primary.
 */
public final class FallbackPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(FallbackPolicy.class);

  /** Where a read that no replica could serve in time runs. */
  public enum Decision {
    /** On the primary (a fallback token was taken). */
    PRIMARY,
    /** On a reachable replica, knowingly possibly stale. */
    STALE_REPLICA,
    /**
     * The primary is lost: wait longer on the replicas (up to {@code ryow.failoverTimeout}), and read on
     * the primary only once it answers again.
     */
    AWAIT_REPLICA
  }

  /** Why no replica could serve the read. */
  public enum Reason {
    /** The wait returned 1: the replica did not reach the watermark within {@code ryow.waitTimeout}. */
    TIMED_OUT,
    /** The wait returned NULL or an error. */
    WAIT_FAILED,
    /** Every replica that could have waited already had {@code ryow.maxWaitersPerReplica} waiting reads. */
    CAPPED,
    /**
     * Every replica that could have waited was predicted {@linkplain StallRule stalled} (not advancing while
     * the primary did): not waited on.
     */
    STALLED,
    /** No replica is reachable and in rotation. */
    NO_REPLICA
  }

  private final String clusterName;
  private final FallbackMode mode;
  private final DegradeMode degrade;
  private final FallbackBudget budget;
  private final int rate;
  private final int burst;
  private final int waitTimeoutMillis;
  private final int maxWaiters;

  /** The policy of a cluster's config, drawing on the cluster's shared {@code budget}. */
  public FallbackPolicy(RyowConfig config, FallbackBudget budget) {
    this.clusterName = config.clusterName();
    this.mode = config.get(RyowProperties.FALLBACK);
    this.degrade = config.get(RyowProperties.FALLBACK_DEGRADE);
    this.rate = config.get(RyowProperties.FALLBACK_RATE);
    this.burst = config.get(RyowProperties.FALLBACK_BURST);
    this.waitTimeoutMillis = config.get(RyowProperties.WAIT_TIMEOUT_MILLIS);
    this.maxWaiters = config.get(RyowProperties.MAX_WAITERS_PER_REPLICA);
    this.budget = budget;
  }

  /**
   * Decides for one read.
   *
   * @param replica the replica the read waited on or would have used, null when none was usable
   * @param reason why it cannot run there
   * @param staleReplicaAvailable a reachable replica could serve the read stale
   * @param primaryLost the cluster's primary is lost ({@link PrimaryState#lost}): it cannot take the read
   * @param metrics counts throttling
   * @throws SQLTransientException when the read must fail; the message names the replica, the wait and what to tune
   */
  public Decision decide(
      @Nullable ReplicaEndpoint replica, Reason reason, boolean staleReplicaAvailable, boolean primaryLost,
      ClusterMetrics metrics) throws SQLTransientException {
    switch (mode) {
      case PRIMARY -> {
        if (primaryLost) {
          return Decision.AWAIT_REPLICA;
        }
        if (budget.tryAcquire()) {
          return Decision.PRIMARY;
        }
        metrics.fallbackThrottled();
        if (degrade == DegradeMode.STALE && staleReplicaAvailable) {
          return Decision.STALE_REPLICA;
        }
        throw new SQLTransientException(
            what(replica, reason) + ", and the primary's fallback budget is spent (" + RyowProperties.FALLBACK_RATE.name()
                + "=" + rate + "/s, " + RyowProperties.FALLBACK_BURST.name() + "=" + burst + ", "
                + RyowProperties.FALLBACK_DEGRADE.name() + "=" + name(degrade) + (degrade == DegradeMode.STALE
                    ? " but no replica is reachable" : "")
                + "): retry the read later, raise " + RyowProperties.FALLBACK_RATE.name() + " or "
                + RyowProperties.WAIT_TIMEOUT_MILLIS.name() + ", or set " + RyowProperties.FALLBACK_DEGRADE.name()
                + "=stale.",
            "HYT00");
      }
      case STALE -> {
        if (staleReplicaAvailable) {
          return Decision.STALE_REPLICA;
        }
        throw new SQLTransientException(
            what(replica, reason) + " and " + RyowProperties.FALLBACK.name()
                + "=stale, but no replica is reachable to read stale: retry the read, or set "
                + RyowProperties.FALLBACK.name() + "=primary.",
            "HYT00");
      }
      default -> throw new SQLTransientException(
          what(replica, reason) + " and " + RyowProperties.FALLBACK.name() + "=error: retry the read, raise "
              + RyowProperties.WAIT_TIMEOUT_MILLIS.name() + ", or set " + RyowProperties.FALLBACK.name() + "=primary.",
          "HYT00");
    }
  }

  /** Logs a stale read at most once per second per cluster, with what made it stale. */
  public void logStale(@Nullable ReplicaEndpoint replica, Reason reason) {
    if (budget.mayLogStale()) {
      LOG.warn("[{}] serving a read stale from {} (counted in staleReads; logged at most once a second): {}",
          clusterName, replica, what(replica, reason));
    }
  }

  private String what(@Nullable ReplicaEndpoint replica, Reason reason) {
    String wait = RyowProperties.WAIT_TIMEOUT_MILLIS.name() + "=" + waitTimeoutMillis + " ms";
    return switch (reason) {
      case TIMED_OUT -> "Replica " + replica + " did not reach this connection's writes within " + wait;
      case WAIT_FAILED -> "Replica " + replica + " could not wait for this connection's writes (" + wait + ")";
      case CAPPED -> "Replica " + replica + " already has " + RyowProperties.MAX_WAITERS_PER_REPLICA.name() + "="
          + maxWaiters + " reads waiting (" + wait + "), and no other replica could take the read";
      case STALLED -> "Replica " + replica + " has not advanced while the primary has (stalled), so it was not waited"
          + " on for this connection's writes (" + wait + "), and no other replica could take the read";
      case NO_REPLICA -> "No replica is reachable and in rotation" + (replica == null ? "" : " (last tried " + replica + ")")
          + " to wait for this connection's writes (" + wait + ")";
    };
  }

  private static String name(Enum<?> e) {
    return e.name().toLowerCase(java.util.Locale.ROOT);
  }
}
