package dev.ryow.bench;

import java.util.Locale;

/**
 * A fleet's capacity from what each server spent per page: the pages per second at which the busiest server
 * (the one that spends the largest share of its CPU budget per page) would use all of its budget. Servers
 * without a budget (NaN) or without a figure do not bound it; with none bounded, there is no bound (NaN).
 */
final class Fleet {
  private Fleet() {}

  /**
   * The bound in pages per second: the smallest {@code budget[i] × 1000 / msPerPage[i]} over the servers that have
   * both a budget (CPUs) and a positive CPU time per page (ms); NaN when none has.
   */
  static double capacity(double[] msPerPage, double[] budgetCpus) {
    int i = busiest(msPerPage, budgetCpus);
    return i < 0 ? Double.NaN : budgetCpus[i] * 1000 / msPerPage[i];
  }

  /** The index of the server that bounds {@link #capacity}; -1 when none does. */
  static int busiest(double[] msPerPage, double[] budgetCpus) {
    int best = -1;
    double bestShare = 0;
    for (int i = 0; i < Math.min(msPerPage.length, budgetCpus.length); i++) {
      double ms = msPerPage[i];
      double cpus = budgetCpus[i];
      if (Double.isNaN(ms) || Double.isNaN(cpus) || ms <= 0 || cpus <= 0) {
        continue;
      }
      double share = ms / cpus; // ms of a whole CPU per page: the larger, the sooner its budget runs out
      if (share > bestShare) {
        bestShare = share;
        best = i;
      }
    }
    return best;
  }

  /** How a budget reads in a report: {@code 0.50 CPU}, or {@code host} without one. */
  static String budgetText(double cpus) {
    return Double.isNaN(cpus) ? "host" : String.format(Locale.ROOT, "%.2f CPU", cpus);
  }
}
