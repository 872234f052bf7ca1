package dev.ryow.jdbc.metrics;

/**
 * The counters of one cluster at one moment.
 *
 * @param replicaReads reads that ran on a replica
 * @param primaryReads reads that ran on the primary (routing or fallback)
 * @param primaryWrites other statements that ran on the primary
 * @param waits {@code WAIT_FOR_EXECUTED_GTID_SET} round trips
 * @param waitNanos total time spent in them
 * @param waitsSkipped replica reads that needed no wait
 * @param waitsTimedOut waits that returned 1
 * @param waitsFailed waits that returned NULL or failed
 * @param fallbacksToPrimary reads sent to the primary after a failed wait
 * @param fallbacksRejected reads refused after a failed wait
 * @param staleReads reads served by a replica not known to have the watermark (a fallback)
 * @param staleAllowedReads reads in a scope that accepts stale reads ({@code ConsistencyScope.allowStale},
 *     {@code @AllowStale}) served without a wait by a replica within the scope's lag bound
 * @param gtidQueries {@code SELECT @@global.gtid_executed} round trips (query capture, latest mode)
 * @param gtidSubsetChecks {@code GTID_SUBSET} checks of sets from outside against the primary
 * @param unknownGtidReads reads sent to the primary because their watermark named unknown GTIDs
 * @param waitsCapped reads that did not wait on a replica because its waiter cap was reached
 * @param outOfRotationSkips times a read needing a wait passed over a replica out of rotation
 * @param stalledSkips reads needing a wait that passed over a replica in rotation predicted stalled (it had not
 *     advanced while the primary had): skipped at once, with no {@code ryow.waitTimeout} wait; a read counts once,
 *     however many stalled replicas it passed over
 * @param fallbacksThrottled reads that should have gone to the primary when the fallback budget was spent
 * @param positionPolls background polls of a server's position and health
 * @param positionResets replica positions discarded (server_uuid changed or GTIDs went backwards)
 * @param replicaFailures replicas leaving rotation
 * @param replicaRecoveries replicas coming back into rotation
 * @param readsRetried reads run again elsewhere after their server connection failed
 * @param primaryReconnects new physical primary connections after one was lost
 * @param primaryFailovers times the cluster moved to a different writable server
 * @param loginsWithoutPrimary logical connections opened on a replica because no writable primary was found:
 *     they served reads there, and their first statement that needed the primary looked for it
 * @param lostGtidsForgotten watermarks that named GTIDs the primary lacks (dropped, logged)
 * @param hiddenWrites statements classified as reads that a replica refused because they write (a stored
 *     function that inserts): each ran again on the primary, and its shape goes there from then on
 * @param transactionsReplayed transactions replayed on a new primary connection after the old one was lost
 *     ({@code ryow.transactionReplay}), every result they read identical
 * @param transactionReplaysRefused transaction replays refused (a result differed, or the replay failed): the
 *     application got the original error
 * @param positionReads positions ({@code gtid_owned}, {@code gtid_executed}) read on demand so that a
 *     monotonic read could leave the server its scope's earlier reads ran on (one round trip each)
 * @param waitsShared replica reads that rode on another read's wait for the same set on the same replica
 *     instead of sending one of their own, and ran there once it reached the set (not in {@code waits})
 * @param waitP50Millis median time of a wait on a replica (its {@code WAIT_FOR_EXECUTED_GTID_SET} round trip,
 *     alone or sent with the read), since the cluster started, in ms, to within 25 % (0: no waits yet)
 * @param waitP99Millis the 99th percentile of the same
 * @param replicasInRotation replicas in rotation at the last poll
 * @param replicasOutOfRotation replicas out of rotation at the last poll
 * @param maxApplierLagMillis largest applier lag at the last poll (performance_schema timestamps)
 * @param replicaStates per replica at the last poll: {@code host:port=STATE lag=Nms waiters=N}, {@code ;}-separated
 */
public record MetricsSnapshot(
    long replicaReads,
    long primaryReads,
    long primaryWrites,
    long waits,
    long waitNanos,
    long waitsSkipped,
    long waitsTimedOut,
    long waitsFailed,
    long fallbacksToPrimary,
    long fallbacksRejected,
    long staleReads,
    long staleAllowedReads,
    long gtidQueries,
    long gtidSubsetChecks,
    long unknownGtidReads,
    long waitsCapped,
    long outOfRotationSkips,
    long stalledSkips,
    long fallbacksThrottled,
    long positionPolls,
    long positionResets,
    long replicaFailures,
    long replicaRecoveries,
    long readsRetried,
    long primaryReconnects,
    long primaryFailovers,
    long loginsWithoutPrimary,
    long lostGtidsForgotten,
    long hiddenWrites,
    long transactionsReplayed,
    long transactionReplaysRefused,
    long positionReads,
    long waitsShared,
    double waitP50Millis,
    double waitP99Millis,
    long replicasInRotation,
    long replicasOutOfRotation,
    long maxApplierLagMillis,
    String replicaStates) {

  /** All counters zero, no replica known: a cluster before its first connection. */
  public static final MetricsSnapshot EMPTY = new ClusterMetrics().snapshot();

  /** Share of reads served by replicas, 0..1 (0 when there were no reads). */
  public double replicaShare() {
    long reads = replicaReads + primaryReads;
    return reads == 0 ? 0 : (double) replicaReads / reads;
  }

  /**
   * Share of reads that passed over a replica predicted stalled, 0..1 (0 when there were no reads; a read that
   * skipped two counts once).
   */
  public double stalledSkipShare() {
    long reads = replicaReads + primaryReads;
    return reads == 0 ? 0 : (double) stalledSkips / reads;
  }

  /**
   * Share of replica reads that needed no wait, 0..1 (0 when there were none): neither a wait round trip of their
   * own nor a ride on another read's ({@link #waitsShared}).
   */
  public double noWaitShare() {
    long replicaEligible = waitsSkipped + waits + waitsShared;
    return replicaEligible == 0 ? 0 : (double) waitsSkipped / replicaEligible;
  }
}
