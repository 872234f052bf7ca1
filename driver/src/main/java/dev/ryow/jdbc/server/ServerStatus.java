package dev.ryow.jdbc.server;

import dev.ryow.jdbc.gtid.GtidSet;

/**
 * One poll of one server: who it is, what it has executed, whether it accepts writes and how its
 * replication is doing. Read in one round trip by {@link PhysicalConnection#readStatus()}.
 *
 * @param serverUuid {@code @@server_uuid}
 * @param gtidExecuted {@code @@global.gtid_executed}
 * @param gtidOwned {@code @@global.gtid_owned} without thread ids, read just before {@code gtid_executed}
 *     (see {@link ServerPosition})
 * @param readOnly {@code read_only} or {@code super_read_only} is on
 * @param replicaChannels replication channels configured (0 on a server that replicates from nobody)
 * @param receiverRunning every channel's receiver (IO thread) is {@code ON}
 * @param applierRunning every channel's applier (SQL thread) is {@code ON}
 * @param applierLagMillis now minus the original commit time of the oldest transaction being applied
 *     ({@code performance_schema.replication_applier_status_by_worker}); 0 when the applier is idle
 * @param lastError the newest replication error message, empty when none
 * @param healthKnown false when {@code performance_schema} could not be read (only positions are known)
 */
public record ServerStatus(
    String serverUuid,
    GtidSet gtidExecuted,
    GtidSet gtidOwned,
    boolean readOnly,
    int replicaChannels,
    boolean receiverRunning,
    boolean applierRunning,
    long applierLagMillis,
    String lastError,
    boolean healthKnown) {

  /** A status whose owned set is empty (nothing being committed). */
  public ServerStatus(String serverUuid, GtidSet gtidExecuted, boolean readOnly, int replicaChannels,
      boolean receiverRunning, boolean applierRunning, long applierLagMillis, String lastError, boolean healthKnown) {
    this(serverUuid, gtidExecuted, GtidSet.EMPTY, readOnly, replicaChannels, receiverRunning, applierRunning,
        applierLagMillis, lastError, healthKnown);
  }

  /** Its {@code gtid_executed} and {@code gtid_owned}. */
  public ServerPosition position() {
    return new ServerPosition(gtidExecuted, gtidOwned);
  }
}
