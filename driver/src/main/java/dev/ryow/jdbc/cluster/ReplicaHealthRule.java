package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.server.ServerStatus;
import java.util.concurrent.TimeUnit;

/**
 * "What is this asynchronous replica's health after this poll?" A pure rule over one {@link ServerStatus}, in this
 * order: health not readable ({@code performance_schema}), in rotation; no channel, stopped; a thread stopped with
 * an error, at once; stopped without one, {@link Health#PAUSED} within {@code ryow.applierStopGrace}, then
 * stopped; without GTIDs, a replica that is not a direct single-channel one ({@link PositionWaitRule}) or whose
 * multithreaded applier checkpoints no sooner than {@code ryow.waitTimeout}; a delayed channel; lag beyond
 * {@code ryow.maxReplicaLag}; else in rotation. The table is in {@code ReplicaHealthRuleTest}; Group Replication
 * members have their own ({@link GroupMemberHealth}).
 *
 * @param health the health to record
 * @param why why it is out of rotation (or paused), empty when it is up
 */
record ReplicaHealthRule(Health health, String why) {
  static final ReplicaHealthRule UP = new ReplicaHealthRule(Health.UP, "");

  /** The settings the rule reads. */
  record Limits(long stopGraceNanos, long maxLagMillis, long waitTimeoutMillis) {}

  /**
   * @param status the poll
   * @param stoppedForNanos how long its replication has been seen stopped (0 while it runs)
   * @param positions whether a position wait may run there (always eligible with GTIDs)
   * @param limits the cluster's settings
   */
  static ReplicaHealthRule of(ServerStatus status, long stoppedForNanos, PositionWaitRule positions, Limits limits) {
    if (!status.healthKnown()) {
      return UP;
    }
    if (status.replicaChannels() == 0) {
      return new ReplicaHealthRule(Health.REPLICATION_STOPPED,
          status.readOnly() ? "replicates from nobody" : "writable and replicates from nobody");
    }
    if (!status.receiverRunning() || !status.applierRunning()) {
      return stopped(status, stoppedForNanos, limits);
    }
    if (!positions.eligible()) {
      return new ReplicaHealthRule(Health.INDIRECT, "without GTIDs, " + positions.why());
    }
    if (status.checkpointMillis() >= limits.waitTimeoutMillis()) {
      return new ReplicaHealthRule(Health.CHECKPOINTED, "without GTIDs, its multithreaded applier reports positions"
          + " only every replica_checkpoint_period=" + status.checkpointMillis() + " ms, no sooner than "
          + RyowProperties.WAIT_TIMEOUT_MILLIS.name() + "=" + limits.waitTimeoutMillis() + " ms: never waited on (set"
          + " replica_checkpoint_period lower, or replica_parallel_workers=1)");
    }
    if (status.sourceDelaySeconds() > 0) {
      return new ReplicaHealthRule(Health.DELAYED,
          "SOURCE_DELAY=" + status.sourceDelaySeconds() + " s: a delayed replica is never waited on");
    }
    if (status.applierLagMillis() > limits.maxLagMillis()) {
      return new ReplicaHealthRule(Health.LAGGING, "applier lag " + status.applierLagMillis() + " ms > "
          + RyowProperties.MAX_REPLICA_LAG_MILLIS.name() + "=" + limits.maxLagMillis());
    }
    return UP;
  }

  private static ReplicaHealthRule stopped(ServerStatus status, long stoppedForNanos, Limits limits) {
    StringBuilder what = new StringBuilder();
    if (!status.receiverRunning()) {
      what.append("receiver (IO thread) not running");
    }
    if (!status.applierRunning()) {
      what.append(what.length() == 0 ? "" : ", ").append("applier (SQL thread) not running");
    }
    if (!status.lastError().isEmpty()) {
      return new ReplicaHealthRule(Health.REPLICATION_ERROR, what.append(": ").append(status.lastError()).toString());
    }
    if (stoppedForNanos <= limits.stopGraceNanos()) {
      return new ReplicaHealthRule(Health.PAUSED, what.toString());
    }
    what.append(" for more than ").append(RyowProperties.APPLIER_STOP_GRACE_MILLIS.name()).append('=')
        .append(TimeUnit.NANOSECONDS.toMillis(limits.stopGraceNanos())).append(" ms");
    return new ReplicaHealthRule(Health.REPLICATION_STOPPED, what.toString());
  }
}
