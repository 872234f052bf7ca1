package dev.ryow.jdbc.session;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.StatementTimeouts;
import dev.ryow.jdbc.server.WaitOutcome;
import java.math.BigDecimal;
import java.sql.SQLException;

/**
 * One read's wait on one replica, bounded by what the caller allows: the replica's wait bound (learned,
 * at most {@code ryow.waitTimeout}), but never beyond the statement's query timeout ({@link WaitBudget}:
 * the server is given the smaller of the two; when the
 * query timeout runs out during the wait, the statement fails as Connector/J's timed-out statements do).
 * A wait longer than {@value #SLICE_MILLIS} ms is sent in slices of at most that, so that a thread
 * interrupt ends it promptly (the wait then counts as unfinished and the fallback applies; the interrupt
 * flag stays set), as do a cancel, close or abort that arrived between two slices ({@link WaitGuard}).
 */
final class ReplicaWait {
  /** Longest single {@code WAIT_FOR_EXECUTED_GTID_SET} of a long wait. */
  static final long SLICE_MILLIS = 1000;

  private final Cluster cluster;
  private final WaitGuard guard;
  /** Round trips of the current {@link #run}. */
  private int slices;

  ReplicaWait(Cluster cluster, WaitGuard guard) {
    this.cluster = cluster;
    this.guard = guard;
  }

  /**
   * Waits on {@code c} until it has executed {@code watermark}.
   *
   * @param boundMillis the replica's wait bound ({@link dev.ryow.jdbc.cluster.WaitBounds#waitBoundMillis}: learned, at most
   *     {@code ryow.waitTimeout})
   * @param deadlineNanos when the statement's query timeout expires ({@link System#nanoTime()}), 0 for none
   * @return {@link WaitOutcome#REACHED}, {@link WaitOutcome#TIMED_OUT}, {@link WaitOutcome#FAILED} or
   *     {@link WaitOutcome#INTERRUPTED}
   * @throws SQLException the statement's own end: cancelled, closed, or its query timeout expired; or a
   *     connection failure
   */
  WaitOutcome run(PhysicalConnection c, Position watermark, long boundMillis, long deadlineNanos) throws SQLException {
    slices = 0;
    long start = System.nanoTime();
    long budgetMillis = WaitBudget.millis(boundMillis, deadlineNanos, start);
    if (budgetMillis == WaitBudget.EXPIRED) {
      throw StatementTimeouts.timedOut();
    }
    boolean cappedByQueryTimeout = WaitBudget.cutByDeadline(budgetMillis, boundMillis);
    WaitOutcome outcome;
    if (!cappedByQueryTimeout && budgetMillis <= SLICE_MILLIS) {
      outcome = once(c, watermark, cluster.waits().waitSeconds(budgetMillis));
    } else {
      long end = start + budgetMillis * 1_000_000L;
      while (true) {
        long left = millisUntil(end, System.nanoTime());
        if (left <= 0) {
          outcome = WaitOutcome.TIMED_OUT;
          break;
        }
        outcome = once(c, watermark, BigDecimal.valueOf(Math.min(left, SLICE_MILLIS), 3));
        if (outcome != WaitOutcome.TIMED_OUT) {
          break;
        }
      }
    }
    if (outcome == WaitOutcome.CANCELLED) {
      throw guard.stopped();
    }
    if (outcome == WaitOutcome.TIMED_OUT && cappedByQueryTimeout) {
      throw StatementTimeouts.timedOut();
    }
    return outcome;
  }

  private WaitOutcome once(PhysicalConnection c, Position watermark, BigDecimal seconds) throws SQLException {
    if (guard.stopRequested()) {
      return WaitOutcome.CANCELLED;
    }
    if (Thread.currentThread().isInterrupted()) {
      return WaitOutcome.INTERRUPTED;
    }
    if (slices++ > 0) {
      cluster.metrics().waitRoundTrip(); // every WAIT_FOR_EXECUTED_GTID_SET sent counts, as the server counts it
    }
    guard.waitingOn(c);
    try {
      WaitOutcome outcome = c.waitFor(watermark, seconds);
      return outcome == WaitOutcome.TIMED_OUT && guard.stopRequested() ? WaitOutcome.CANCELLED : outcome;
    } finally {
      guard.waitingOn(null);
    }
  }

  /** Whole milliseconds from {@code now} until {@code deadline}, rounded up. */
  private static long millisUntil(long deadline, long now) {
    long nanos = deadline - now;
    return nanos <= 0 ? 0 : (nanos + 999_999) / 1_000_000;
  }
}
