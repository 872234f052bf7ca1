package dev.ryow.jdbc.metrics;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How long waits took, as counts per bucket, for percentiles without keeping every sample: lock-free, no
 * allocation per record. A wait is rounded up to whole microseconds, then counted in its quarter of a
 * power of two of microseconds (bucket 0 holds waits of no time, the last everything from about 16 s
 * up), so a percentile is known to within 25 % (it is reported as the upper edge of its bucket: never
 * below the truth). Counts are since the cluster started.
 */
final class WaitHistogram {
  /** Quarter-powers of two from 1 µs to 2^24 µs (about 16.8 s), and one bucket below. */
  static final int BUCKETS = 1 + 4 * 24;

  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

  /** One wait of {@code nanos}. */
  void record(long nanos) {
    counts.incrementAndGet(bucket(nanos));
  }

  /** The bucket of a wait of {@code nanos}. */
  static int bucket(long nanos) {
    long micros = nanos <= 0 ? 0 : (nanos - 1) / 1000 + 1; // rounded up: an edge is never below the wait
    if (micros < 1) {
      return 0;
    }
    int log = 63 - Long.numberOfLeadingZeros(micros);
    int quarter = log >= 2 ? (int) ((micros >>> (log - 2)) & 3) : (int) ((micros << (2 - log)) & 3);
    return Math.min(BUCKETS - 1, 1 + 4 * log + quarter);
  }

  /** The upper edge of bucket {@code b}, in milliseconds. */
  static double upperMillis(int b) {
    if (b == 0) {
      return 0;
    }
    int log = (b - 1) / 4;
    int quarter = (b - 1) % 4;
    return Math.scalb(1.0 + (quarter + 1) / 4.0, log) / 1000.0;
  }

  /**
   * The {@code percentile} (0..100) of the waits recorded, in milliseconds (the upper edge of its bucket); 0
   * when there were none.
   */
  double percentileMillis(double percentile) {
    long total = 0;
    long[] snapshot = new long[BUCKETS];
    for (int b = 0; b < BUCKETS; b++) {
      snapshot[b] = counts.get(b);
      total += snapshot[b];
    }
    if (total == 0) {
      return 0;
    }
    long rank = Math.max(1, (long) Math.ceil(percentile / 100.0 * total));
    long seen = 0;
    for (int b = 0; b < BUCKETS; b++) {
      seen += snapshot[b];
      if (seen >= rank) {
        return upperMillis(b);
      }
    }
    return upperMillis(BUCKETS - 1);
  }
}
