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
 * @param staleReads reads served by a replica not known to have the watermark
 * @param gtidQueries {@code SELECT @@global.gtid_executed} round trips (query capture, latest mode)
 * @param gtidSubsetChecks {@code GTID_SUBSET} checks of sets from outside against the primary
 * @param unknownGtidReads reads sent to the primary because their watermark named unknown GTIDs
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
    long gtidQueries,
    long gtidSubsetChecks,
    long unknownGtidReads) {

  /** Share of reads served by replicas, 0..1 (0 when there were no reads). */
  public double replicaShare() {
    long reads = replicaReads + primaryReads;
    return reads == 0 ? 0 : (double) replicaReads / reads;
  }
}
