package dev.ryow.jdbc.cluster;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The JVM's clock for monotonic reads: when a read completed, compared with when a position was read
 * (a poll or a probe), at the cost of one shared read per replica read instead of a
 * {@link System#nanoTime()} call.
 *
 * <p>Every position read that may bound earlier reads takes its start from {@link #start()} before its
 * query is sent: a {@link System#nanoTime()} value, published, and greater than every start returned
 * before it. A read that completed takes {@link #completed()}: the latest start published so far. A
 * position whose start is greater was published after that load, so its query was sent after the read
 * completed, and the server's position then covers what the read saw (docs/architecture/monotonic-reads.md).
 * A start that is not greater is taken for one sent before the read: that only delays a bound, it
 * never makes one wrong. Reads between the same two starts record the same time, so a server's pending
 * read is not written again by each of them.
 */
public final class ReadClock {
  /** The latest start; odd, as every time a {@link ReadWatermark} records is (0 stands for none there). */
  private static final AtomicLong LATEST = new AtomicLong(System.nanoTime() | 1);

  private ReadClock() {}

  /**
   * Before a position read (a poll or a probe) is sent: its start, a {@link System#nanoTime()} value
   * greater than every start returned before (odd).
   */
  public static long start() {
    return LATEST.updateAndGet(ReadClock::after);
  }

  /** After a read completed: a time that every later {@link #start()} exceeds, and no earlier one does. */
  public static long completed() {
    return LATEST.get();
  }

  private static long after(long latest) {
    long now = System.nanoTime() | 1;
    return now - latest > 0 ? now : latest + 2;
  }
}
