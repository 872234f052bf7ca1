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
  private final LongAdder waitsSkipped = new LongAdder();
  private final LongAdder waitsTimedOut = new LongAdder();
  private final LongAdder waitsFailed = new LongAdder();
  private final LongAdder fallbacksToPrimary = new LongAdder();
  private final LongAdder fallbacksRejected = new LongAdder();
  private final LongAdder staleReads = new LongAdder();
  private final LongAdder gtidQueries = new LongAdder();
  private final LongAdder gtidSubsetChecks = new LongAdder();
  private final LongAdder unknownGtidReads = new LongAdder();

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
  }

  /** A replica read needed no wait: the replica was known to have the watermark. */
  public void waitSkipped() {
    waitsSkipped.increment();
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
        gtidQueries.sum(),
        gtidSubsetChecks.sum(),
        unknownGtidReads.sum());
  }
}
