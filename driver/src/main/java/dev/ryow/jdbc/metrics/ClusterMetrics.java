package dev.ryow.jdbc.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one cluster, shared by all its logical connections. Cheap to update from any thread;
 * read them through {@link #snapshot()}.
 */
public final class ClusterMetrics {
  private final LongAdder replicaReads = new LongAdder();
  private final LongAdder primaryReads = new LongAdder();
  private final LongAdder primaryWrites = new LongAdder();
  private final LongAdder waits = new LongAdder();
  private final LongAdder waitNanos = new LongAdder();
  private final WaitHistogram waitTimes = new WaitHistogram();
  private final LongAdder waitsSkipped = new LongAdder();
  private final LongAdder waitsShared = new LongAdder();
  private final LongAdder waitsTimedOut = new LongAdder();
  private final LongAdder waitsFailed = new LongAdder();
  private final LongAdder fallbacksToPrimary = new LongAdder();
  private final LongAdder fallbacksRejected = new LongAdder();
  private final LongAdder staleReads = new LongAdder();
  private final LongAdder staleAllowedReads = new LongAdder();
  private final LongAdder gtidQueries = new LongAdder();
  private final LongAdder gtidSubsetChecks = new LongAdder();
  private final LongAdder unknownGtidReads = new LongAdder();
  private final LongAdder waitsCapped = new LongAdder();
  private final LongAdder outOfRotationSkips = new LongAdder();
  private final LongAdder stalledSkips = new LongAdder();
  private final LongAdder fallbacksThrottled = new LongAdder();
  private final LongAdder positionPolls = new LongAdder();
  private final LongAdder positionResets = new LongAdder();
  private final LongAdder replicaFailures = new LongAdder();
  private final LongAdder replicaRecoveries = new LongAdder();
  private final LongAdder readsRetried = new LongAdder();
  private final LongAdder transactionsReplayed = new LongAdder();
  private final LongAdder transactionReplaysRefused = new LongAdder();
  private final LongAdder primaryReconnects = new LongAdder();
  private final LongAdder primaryFailovers = new LongAdder();
  private final LongAdder loginsWithoutPrimary = new LongAdder();
  private final LongAdder lostGtidsForgotten = new LongAdder();
  private final LongAdder hiddenWrites = new LongAdder();
  private final LongAdder positionReads = new LongAdder();
  private volatile long replicasInRotation;
  private volatile long replicasOutOfRotation;
  private volatile long maxApplierLagMillis;
  private volatile String replicaStates = "";

  /** Counters at zero; the driver makes one per cluster (applications read them, they do not create them). */
  public ClusterMetrics() {}

  /** A statement the router sent to a replica ran there. */
  public void replicaRead() {
    replicaReads.increment();
  }

  /** A read ran on the primary (by routing or fallback). */
  public void primaryRead() {
    primaryReads.increment();
  }

  /** A non-read statement ran on the primary. */
  public void primaryWrite() {
    primaryWrites.increment();
  }

  /** A {@code WAIT_FOR_EXECUTED_GTID_SET} round trip took {@code nanos}. */
  public void waited(long nanos) {
    waits.increment();
    waitNanos.add(nanos);
    waitTimes.record(nanos);
  }

  /** A replica read needed no wait: the replica was known to have the watermark. */
  public void waitSkipped() {
    waitsSkipped.increment();
  }

  /**
   * A replica read rode on another read's wait for the same set (or a larger one) on the same replica, and ran
   * there when that wait reached it: no wait of its own was sent.
   */
  public void waitShared() {
    waitsShared.increment();
  }

  /** A wait returned 1. */
  public void waitTimedOut() {
    waitsTimedOut.increment();
  }

  /** A wait returned NULL or an error. */
  public void waitFailed() {
    waitsFailed.increment();
  }

  /** A read went to the primary because its replica wait failed. */
  public void fellBackToPrimary() {
    fallbacksToPrimary.increment();
  }

  /** A read was refused because its wait failed and the policy said so. */
  public void fallbackRejected() {
    fallbacksRejected.increment();
  }

  /** A read ran on a replica that was not known to have the watermark. */
  public void staleRead() {
    staleReads.increment();
  }

  /** A {@code SELECT @@global.gtid_executed} was sent to capture a write's GTID. */
  public void staleAllowedRead() {
    staleAllowedReads.increment();
  }

  public void gtidQuery() {
    gtidQueries.increment();
  }

  /** A {@code GTID_SUBSET} check asked the primary whether it has a set from outside (a token). */
  public void gtidSubsetCheck() {
    gtidSubsetChecks.increment();
  }

  /** A read ran on the primary because its watermark named GTIDs the primary never executed. */
  public void unknownGtidRead() {
    unknownGtidReads.increment();
  }

  /** A read did not wait on a replica because {@code ryow.maxWaitersPerReplica} reads already waited there. */
  public void waitCapped() {
    waitsCapped.increment();
  }

  /** A read that needed a wait passed over a replica that is out of rotation. */
  public void outOfRotationSkipped() {
    outOfRotationSkips.increment();
  }

  /**
   * A read that needed a wait passed over a replica in rotation predicted stalled (not advancing while the
   * primary did), instead of waiting there.
   */
  public void stalledSkipped() {
    stalledSkips.increment();
  }

  /** A read should have fallen back to the primary but the fallback budget was spent. */
  public void fallbackThrottled() {
    fallbacksThrottled.increment();
  }

  /** The background poll read one server's position and health. */
  public void positionPolled() {
    positionPolls.increment();
  }

  /** A replica's known position was discarded (new {@code server_uuid}, or its GTIDs went backwards). */
  public void positionReset() {
    positionResets.increment();
  }

  /** A replica left rotation (unreachable, replication stopped or erroring, lag beyond the bound). */
  public void replicaFailed() {
    replicaFailures.increment();
  }

  /** A replica came back into rotation. */
  public void replicaRecovered() {
    replicaRecoveries.increment();
  }

  /** A read whose server connection failed ran again elsewhere. */
  public void readRetried() {
    readsRetried.increment();
  }

  /** A transaction interrupted by the loss of the primary was replayed on a new primary connection. */
  public void transactionReplayed() {
    transactionsReplayed.increment();
  }

  /** A transaction replay was refused (a result differed, or it failed): the application got the original error. */
  public void transactionReplayRefused() {
    transactionReplaysRefused.increment();
  }

  /** A logical connection opened a new physical connection to the primary after losing one. */
  public void primaryReconnected() {
    primaryReconnects.increment();
  }

  /** The cluster found a different writable server and made it the primary. */
  public void primaryFailedOver() {
    primaryFailovers.increment();
  }

  /** A logical connection opened on a replica: its login found no writable primary. */
  public void loginWithoutPrimary() {
    loginsWithoutPrimary.increment();
  }

  /** A watermark named GTIDs the current primary lacks; they were dropped from it (logged). */
  public void lostGtidsForgotten() {
    lostGtidsForgotten.increment();
  }

  /** A long wait sent one more {@code WAIT_FOR_EXECUTED_GTID_SET} slice (its time is in the read's {@link #waited}). */
  public void waitRoundTrip() {
    waits.increment();
  }

  /** A replica refused a statement classified as a read because it writes; it ran on the primary. */
  public void hiddenWrite() {
    hiddenWrites.increment();
  }

  /** A server's position was read on demand so that a monotonic read could leave it (one round trip). */
  public void positionRead() {
    positionReads.increment();
  }

  /**
   * The latest replica health, set by the background poll.
   *
   * @param inRotation replicas reads may wait on
   * @param outOfRotation replicas that are down, not replicating or too far behind
   * @param maxLagMillis the largest applier lag measured
   * @param states one {@code host:port=STATE lag=Nms known=GTIDS waiters=N} entry per replica, {@code ;}-separated
   */
  public void replicaHealth(long inRotation, long outOfRotation, long maxLagMillis, String states) {
    replicasInRotation = inRotation;
    replicasOutOfRotation = outOfRotation;
    maxApplierLagMillis = maxLagMillis;
    replicaStates = states;
  }

  /** The current values. */
  public MetricsSnapshot snapshot() {
    return new MetricsSnapshot(
        replicaReads.sum(),
        primaryReads.sum(),
        primaryWrites.sum(),
        waits.sum(),
        waitNanos.sum(),
        waitsSkipped.sum(),
        waitsTimedOut.sum(),
        waitsFailed.sum(),
        fallbacksToPrimary.sum(),
        fallbacksRejected.sum(),
        staleReads.sum(),
        staleAllowedReads.sum(),
        gtidQueries.sum(),
        gtidSubsetChecks.sum(),
        unknownGtidReads.sum(),
        waitsCapped.sum(),
        outOfRotationSkips.sum(),
        stalledSkips.sum(),
        fallbacksThrottled.sum(),
        positionPolls.sum(),
        positionResets.sum(),
        replicaFailures.sum(),
        replicaRecoveries.sum(),
        readsRetried.sum(),
        primaryReconnects.sum(),
        primaryFailovers.sum(),
        loginsWithoutPrimary.sum(),
        lostGtidsForgotten.sum(),
        hiddenWrites.sum(),
        transactionsReplayed.sum(),
        transactionReplaysRefused.sum(),
        positionReads.sum(),
        waitsShared.sum(),
        waitTimes.percentileMillis(50),
        waitTimes.percentileMillis(99),
        replicasInRotation,
        replicasOutOfRotation,
        maxApplierLagMillis,
        replicaStates);
  }
}
