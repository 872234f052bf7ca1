package dev.ryow.bench;

/**
 * An open-loop schedule: page {@code k} is due {@code k / rate} seconds after the start, whether or not the
 * pages before it are done, as requests arriving at a site are. A page's latency is counted from when it was due,
 * not from when a client got to it, so that a slow page delays the pages behind it in the figures too (no
 * coordinated omission).
 */
final class OpenLoop {
  private final long startNanos;
  private final double nanosPerPage;

  /** Pages due at {@code ratePerSecond} from {@code startNanos} ({@link System#nanoTime}). */
  OpenLoop(long startNanos, double ratePerSecond) {
    if (!(ratePerSecond > 0)) {
      throw new IllegalArgumentException("an open loop needs a positive rate, not " + ratePerSecond);
    }
    this.startNanos = startNanos;
    this.nanosPerPage = 1e9 / ratePerSecond;
  }

  /** When page {@code k} (from 0) is due. */
  long dueNanos(long k) {
    return startNanos + Math.round(k * nanosPerPage);
  }

  /** A page's latency: from when it was due to when it ended (never from when it started, if it started late). */
  static long latencyNanos(long dueNanos, long startedNanos, long endNanos) {
    return endNanos - Math.min(dueNanos, startedNanos);
  }
}
