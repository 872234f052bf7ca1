package dev.ryow.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * When a warm-up may stop: the client JVM's CPU per page, measured over successive windows, has settled (the JIT
 * is done) once the last two windows differ by at most {@link #TOLERANCE} of the larger. A warm-up that ran out of
 * windows before that is reported as not stable, never assumed to be.
 */
final class Warmup {
  /** Successive windows within 5 % of each other. */
  static final double TOLERANCE = 0.05;

  private final List<Double> windows = new ArrayList<>();

  /** Records one window's client CPU per page in ms (NaN when not measured). */
  void add(double clientMsPerPage) {
    windows.add(clientMsPerPage);
  }

  /** Whether the last two windows are both measured and within {@link #TOLERANCE} of each other. */
  boolean stable() {
    return stable(windows, TOLERANCE);
  }

  static boolean stable(List<Double> windows, double tolerance) {
    int n = windows.size();
    if (n < 2) {
      return false;
    }
    double a = windows.get(n - 2);
    double b = windows.get(n - 1);
    if (Double.isNaN(a) || Double.isNaN(b) || a <= 0 || b <= 0) {
      return false;
    }
    return Math.abs(a - b) <= tolerance * Math.max(a, b);
  }

  /** {@code ryow-pooled: 4 windows of 5 s, client CPU per page 1.80, 1.41, 1.29, 1.27 ms: stable (within 5 %)}. */
  String describe(String approach, int windowSeconds) {
    List<String> ms = new ArrayList<>();
    for (double w : windows) {
      ms.add(Double.isNaN(w) ? "–" : String.format(Locale.ROOT, "%.3f", w));
    }
    return String.format(Locale.ROOT, "%s: %d windows of %d s, client CPU per page %s ms: %s", approach,
        windows.size(), windowSeconds, String.join(", ", ms), stable()
            ? String.format(Locale.ROOT, "stable (last two within %.0f %%)", 100 * TOLERANCE)
            : "**not stable** (the limit of windows was reached first)");
  }
}
