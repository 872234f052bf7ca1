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

  /**
   * The bound when one replica at a time serves every replica read (the default's monotonic reads in one JVM: the
   * JVM's reads stay on one replica, its home, which changes once a poll round): that replica applies every write
   * and serves what all the replicas served, so it spends the replicas' CPU per page less what the others spent
   * on applying alone, {@code applyMsPerPage} each (a replica's CPU per page when it serves no read). The smallest
   * of that and each server's own bound ({@link #capacity}); NaN without replicas, budgets or an apply figure.
   * Servers: the primary first, then the replicas.
   */
  static double oneHomeCapacity(double[] msPerPage, double[] budgetCpus, double applyMsPerPage) {
    int n = Math.min(msPerPage.length, budgetCpus.length);
    if (n < 2 || Double.isNaN(applyMsPerPage)) {
      return Double.NaN;
    }
    double home = 0;
    double budget = Double.POSITIVE_INFINITY;
    for (int i = 1; i < n; i++) {
      if (Double.isNaN(msPerPage[i]) || Double.isNaN(budgetCpus[i]) || budgetCpus[i] <= 0) {
        return Double.NaN;
      }
      home += msPerPage[i];
      budget = Math.min(budget, budgetCpus[i]);
    }
    home -= (n - 2) * applyMsPerPage;
    double homeBound = home <= 0 ? Double.NaN : budget * 1000 / home;
    double each = capacity(msPerPage, budgetCpus);
    if (Double.isNaN(homeBound)) {
      return each;
    }
    return Double.isNaN(each) ? homeBound : Math.min(each, homeBound);
  }

  /** How a budget reads in a report: {@code 0.50 CPU}, or {@code host} without one. */
  static String budgetText(double cpus) {
    return Double.isNaN(cpus) ? "host" : String.format(Locale.ROOT, "%.2f CPU", cpus);
  }
}
