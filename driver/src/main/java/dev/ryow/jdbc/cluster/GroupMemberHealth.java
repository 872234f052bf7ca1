package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.config.RyowProperties;

/**
 * The health of a Group Replication member, from its own {@code MEMBER_STATE} in
 * {@code performance_schema.replication_group_members} instead of the replication channel tables (a
 * secondary's idle {@code group_replication_recovery} channel is not stopped replication): only an
 * {@code ONLINE}, read-only member serves reads; {@code RECOVERING}, {@code OFFLINE}, {@code ERROR} and
 * {@code UNREACHABLE} members are out of rotation at once (no {@code ryow.applierStopGrace}: the group
 * itself has decided the member is not applying its transactions).
 *
 * @param health the health to record
 * @param why why it is out of rotation, empty when it is in
 */
record GroupMemberHealth(Health health, String why) {

  /**
   * @param state the member's own {@code MEMBER_STATE}
   * @param readOnly {@code read_only} or {@code super_read_only} is on (every secondary; a primary is writable)
   * @param lastError the newest applier error, empty when none
   * @param applierLagMillis lag of the oldest transaction being applied
   * @param maxLagMillis {@code ryow.maxReplicaLag}
   */
  static GroupMemberHealth of(String state, boolean readOnly, String lastError, long applierLagMillis, long maxLagMillis) {
    switch (state) {
      case "ONLINE":
        if (!readOnly) {
          return new GroupMemberHealth(Health.REPLICATION_STOPPED, "writable ONLINE group member (a primary)");
        }
        if (applierLagMillis > maxLagMillis) {
          return new GroupMemberHealth(Health.LAGGING, "applier lag " + applierLagMillis + " ms > "
              + RyowProperties.MAX_REPLICA_LAG_MILLIS.name() + "=" + maxLagMillis);
        }
        return new GroupMemberHealth(Health.UP, "");
      case "ERROR":
        return new GroupMemberHealth(Health.REPLICATION_ERROR,
            "group member state ERROR" + (lastError.isEmpty() ? "" : ": " + lastError));
      default:
        return new GroupMemberHealth(Health.REPLICATION_STOPPED, "group member state " + state);
    }
  }
}
