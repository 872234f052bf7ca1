package dev.ryow.jdbc.cluster.wait;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A smoothed duration, its smoothed deviation and a back-off, packed in one {@code long} so that one
 * compare-and-set changes all three, without allocating: RFC 6298's estimator (deviation ← ¾ deviation +
 * ¼ |smoothed − sample|, smoothed ← ⅞ smoothed + ⅛ sample; the first sample sets smoothed to it and the
 * deviation to half of it) with Karn's back-off (§5.5: a timer that expired is doubled, and stays doubled
 * until a new sample is measured). 0 is "no sample yet".
 *
 * <p>Why the back-off: a duration cut by a timer derived from the estimate is never measured, so an estimate
 * learned when durations were short would stay short when they grow (a loaded machine applies more slowly),
 * and cut every one of them: the estimate could never learn the new durations. Doubling the timer after each
 * cut lets the next duration finish and be measured.
 *
 * <p>Layout: smoothed microseconds in the high 32 bits, the back-off exponent in the next 4, the deviation
 * in microseconds in the low 28 (up to 268 s).
 */
public final class Smoothed {
  /** Nothing measured. */
  public static final long NONE = 0;
  /** The largest back-off exponent: a timer is never doubled more than 15 times. */
  public static final int MAX_BACKOFF = 15;
  private static final long MAX_MICROS = 0xFFFF_FFFFL;
  private static final long MAX_DEVIATION_MICROS = (1L << 28) - 1;
  private static final int BACKOFF_SHIFT = 28;

  private Smoothed() {}

  /** Adds a sample of {@code nanos} to the estimate {@code target} holds: one compare-and-set, no allocation. */
  public static void add(AtomicLong target, long nanos) {
    long prev;
    do {
      prev = target.get();
    } while (!target.compareAndSet(prev, next(prev, nanos)));
  }

  /** Doubles the timer derived from the estimate {@code target} holds: one compare-and-set, no allocation. */
  public static void backOff(AtomicLong target) {
    long prev;
    do {
      prev = target.get();
    } while (!target.compareAndSet(prev, backedOff(prev)));
  }

  /** {@code packed} after one more sample of {@code nanos}: the back-off ends. */
  public static long next(long packed, long nanos) {
    long sample = Math.max(1, Math.min(MAX_MICROS, nanos / 1_000));
    if (packed == NONE) {
      return pack(sample, sample / 2, 0);
    }
    long smoothed = smoothedMicros(packed);
    long deviation = deviationMicros(packed);
    deviation = (3 * deviation + Math.abs(smoothed - sample)) / 4;
    smoothed = Math.max(1, (7 * smoothed + sample) / 8);
    return pack(smoothed, deviation, 0);
  }

  /** {@code packed} after a timer derived from it expired: backed off once more (nothing to back off before a sample). */
  public static long backedOff(long packed) {
    if (packed == NONE) {
      return NONE;
    }
    return pack(smoothedMicros(packed), deviationMicros(packed), Math.min(MAX_BACKOFF, backoff(packed) + 1));
  }

  /** The smoothed duration in microseconds; 0 when nothing was measured. */
  public static long smoothedMicros(long packed) {
    return packed >>> 32;
  }

  /** The smoothed deviation in microseconds. */
  public static long deviationMicros(long packed) {
    return packed & MAX_DEVIATION_MICROS;
  }

  /** How many times the timer was doubled since the last sample (0 to {@link #MAX_BACKOFF}). */
  public static int backoff(long packed) {
    return (int) ((packed >>> BACKOFF_SHIFT) & MAX_BACKOFF);
  }

  private static long pack(long smoothedMicros, long deviationMicros, int backoff) {
    return (Math.min(MAX_MICROS, smoothedMicros) << 32) | ((long) backoff << BACKOFF_SHIFT)
        | Math.min(MAX_DEVIATION_MICROS, deviationMicros);
  }
}
