package dev.ryow.jdbc.it;

import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.util.Locale;

/**
 * The driver's own counts between two snapshots of one cluster: why reads went where they did, for a test's
 * printed line and its failure messages. Never asserted on: the assertions use the servers' answers.
 */
final class DriverCounts {
  private DriverCounts() {}

  static String between(MetricsSnapshot before, MetricsSnapshot after) {
    return String.format(Locale.ROOT,
        "driver: %d waits (%d timed out or cut, %d capped), %d fallbacks, %d stalled skips, %d out-of-rotation skips,"
            + " %d position reads, %d GTID_SUBSET, %d polls; cluster's wait p99 %.1f ms; replicas at the end: %s",
        after.waits() - before.waits(), after.waitsTimedOut() - before.waitsTimedOut(),
        after.waitsCapped() - before.waitsCapped(), after.fallbacksToPrimary() - before.fallbacksToPrimary(),
        after.stalledSkips() - before.stalledSkips(), after.outOfRotationSkips() - before.outOfRotationSkips(),
        after.positionReads() - before.positionReads(), after.gtidSubsetChecks() - before.gtidSubsetChecks(),
        after.positionPolls() - before.positionPolls(), after.waitP99Millis(), after.replicaStates());
  }
}
