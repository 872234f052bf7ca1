package dev.ryow.jdbc.cluster;

/**
 * A smoothed duration and its smoothed deviation, packed in one {@code long} (microseconds, 32 bits
 * each) so that one compare-and-set changes both, without allocating: RFC 6298's estimator
 * (deviation ← ¾ deviation + ¼ |smoothed − sample|, smoothed ← ⅞ smoothed + ⅛ sample; the first sample
 * sets smoothed to it and the deviation to half of it). 0 is "no sample yet".
 */
public final class Smoothed {
  /** Nothing measured. */
  public static final long NONE = 0;
  private static final long MAX_MICROS = 0xFFFF_FFFFL;

  private Smoothed() {}

  /** Adds a sample of {@code nanos} to the estimate {@code target} holds: one compare-and-set, no allocation. */
  public static void add(java.util.concurrent.atomic.AtomicLong target, long nanos) {
    long prev;
    do {
      prev = target.get();
    } while (!target.compareAndSet(prev, next(prev, nanos)));
  }

  /** {@code packed} after one more sample of {@code nanos}. */
  public static long next(long packed, long nanos) {
    long sample = Math.max(1, Math.min(MAX_MICROS, nanos / 1_000));
    if (packed == NONE) {
      return pack(sample, sample / 2);
    }
    long smoothed = smoothedMicros(packed);
    long deviation = deviationMicros(packed);
    deviation = (3 * deviation + Math.abs(smoothed - sample)) / 4;
    smoothed = Math.max(1, (7 * smoothed + sample) / 8);
    return pack(smoothed, deviation);
  }

  /** The smoothed duration in microseconds; 0 when nothing was measured. */
  public static long smoothedMicros(long packed) {
    return packed >>> 32;
  }

  /** The smoothed deviation in microseconds. */
  public static long deviationMicros(long packed) {
    return packed & MAX_MICROS;
  }

  private static long pack(long smoothedMicros, long deviationMicros) {
    return (Math.min(MAX_MICROS, smoothedMicros) << 32) | Math.min(MAX_MICROS, deviationMicros);
  }
}
