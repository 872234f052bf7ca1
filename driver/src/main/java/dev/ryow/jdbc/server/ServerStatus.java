package dev.ryow.jdbc.server;

import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One poll of one server: who it is, what it has executed, whether it accepts writes and how its
 * replication is doing. Read in one round trip by {@link PhysicalConnection#readStatus()}.
 *
 * @param serverUuid {@code @@server_uuid}
 * @param gtidExecuted {@code @@global.gtid_executed}
 * @param gtidOwned {@code @@global.gtid_owned} without thread ids, read just before {@code gtid_executed}
 *     (see {@link ServerPosition})
 * @param readOnly {@code read_only} or {@code super_read_only} is on
 * @param replicaChannels asynchronous replication channels configured (0 on a server that replicates from nobody;
 *     Group Replication's own channels are not counted)
 * @param receiverRunning every channel's receiver (IO thread) is {@code ON}
 * @param applierRunning every channel's applier (SQL thread) is {@code ON}
 * @param applierLagMillis now minus the original commit time of the oldest transaction being applied
 *     ({@code performance_schema.replication_applier_status_by_worker}); 0 when the applier is idle
 * @param lastError the newest replication error message, empty when none
 * @param healthKnown false when {@code performance_schema} could not be read (only positions are known)
 * @param groupMemberState this server's {@code MEMBER_STATE} in {@code performance_schema.replication_group_members}
 *     ({@code ONLINE}, {@code RECOVERING}, {@code OFFLINE}, {@code ERROR}, {@code UNREACHABLE}); empty when it is
 *     not a Group Replication member
 * @param sourceUuids the {@code SOURCE_UUID} of each asynchronous channel that has connected to its source
 *     ({@code performance_schema.replication_connection_status}): which servers it replicates from directly
 * @param sourceDelaySeconds the largest {@code SOURCE_DELAY} of its asynchronous channels
 *     ({@code performance_schema.replication_applier_configuration.DESIRED_DELAY}); 0 when none is delayed
 * @param channels with several asynchronous channels, each one's own state ({@link Channel}), so that health can be
 *     judged on the channels from the cluster's primary ({@link #forSource}); empty with one channel or none
 * @param checkpointMillis without GTIDs, on a multithreaded applier ({@code replica_parallel_workers} > 1): its
 *     {@code replica_checkpoint_period}, the interval at which its executed position advances (a
 *     {@code SOURCE_POS_WAIT} returns only at a checkpoint); 0 otherwise
 */
public record ServerStatus(
    String serverUuid,
    Position gtidExecuted,
    Position gtidOwned,
    boolean readOnly,
    int replicaChannels,
    boolean receiverRunning,
    boolean applierRunning,
    long applierLagMillis,
    String lastError,
    boolean healthKnown,
    String groupMemberState,
    List<String> sourceUuids,
    long sourceDelaySeconds,
    List<Channel> channels,
    long checkpointMillis) {

  public ServerStatus {
    sourceUuids = List.copyOf(sourceUuids);
    channels = List.copyOf(channels);
  }

  /**
   * One asynchronous channel of a multi-source replica.
   *
   * @param sourceUuid its {@code SOURCE_UUID}, empty when it has not connected yet
   * @param receiverRunning its receiver is {@code ON}
   * @param applierRunning its applier is {@code ON}
   * @param applierLagMillis its applier lag (as {@link ServerStatus#applierLagMillis()})
   * @param lastError its newest applier error, empty when none
   * @param delaySeconds its {@code SOURCE_DELAY}
   */
  public record Channel(String sourceUuid, boolean receiverRunning, boolean applierRunning, long applierLagMillis,
      String lastError, long delaySeconds) {}

  /** A status with every field but the channels'. */
  public ServerStatus(String serverUuid, Position gtidExecuted, Position gtidOwned, boolean readOnly, int replicaChannels,
      boolean receiverRunning, boolean applierRunning, long applierLagMillis, String lastError, boolean healthKnown,
      String groupMemberState, List<String> sourceUuids, long sourceDelaySeconds, long checkpointMillis) {
    this(serverUuid, gtidExecuted, gtidOwned, readOnly, replicaChannels, receiverRunning, applierRunning,
        applierLagMillis, lastError, healthKnown, groupMemberState, sourceUuids, sourceDelaySeconds, List.of(),
        checkpointMillis);
  }

  /** This status with each channel's own state ({@link #channels}). */
  public ServerStatus withChannels(List<Channel> perChannel) {
    return new ServerStatus(serverUuid, gtidExecuted, gtidOwned, readOnly, replicaChannels, receiverRunning,
        applierRunning, applierLagMillis, lastError, healthKnown, groupMemberState, sourceUuids, sourceDelaySeconds,
        perChannel, checkpointMillis);
  }

  /**
   * One channel's errors folded into those of the channels read before it ({@code SHOW REPLICA STATUS} or
   * {@code SHOW ALL SLAVES STATUS} rows): an applier error wins, a receiver error only fills an empty one.
   */
  static String newestError(String sofar, @Nullable String sqlError, @Nullable String ioError) {
    if (sqlError != null && !sqlError.isEmpty()) {
      return sqlError;
    }
    return sofar.isEmpty() && ioError != null && !ioError.isEmpty() ? ioError : sofar;
  }

  /**
   * This status as the cluster whose primary is {@code primaryUuid} sees it: on a multi-source replica with a
   * channel from that primary, the replication fields (channels, threads, lag, error, delay) of those channels
   * only, so that a stopped, failing, lagging or delayed channel from another source does not take the replica
   * out of rotation for reads it does not concern; else this status.
   */
  public ServerStatus forSource(String primaryUuid) {
    int n = 0;
    boolean io = true;
    boolean sql = true;
    long lag = 0;
    long delay = 0;
    String error = "";
    for (Channel c : channels) {
      if (c.sourceUuid().equals(primaryUuid)) {
        n++;
        io &= c.receiverRunning();
        sql &= c.applierRunning();
        lag = Math.max(lag, c.applierLagMillis());
        delay = Math.max(delay, c.delaySeconds());
        error = error.isEmpty() ? c.lastError() : error;
      }
    }
    if (n == 0 || n == replicaChannels) {
      return this;
    }
    return new ServerStatus(serverUuid, gtidExecuted, gtidOwned, readOnly, n, io, sql, lag, error, healthKnown,
        groupMemberState, sourceUuids, delay, channels, checkpointMillis);
  }

  /** A status of a server whose positions advance with each transaction (GTIDs, or a single-threaded applier). */
  public ServerStatus(String serverUuid, Position gtidExecuted, Position gtidOwned, boolean readOnly, int replicaChannels,
      boolean receiverRunning, boolean applierRunning, long applierLagMillis, String lastError, boolean healthKnown,
      String groupMemberState, List<String> sourceUuids, long sourceDelaySeconds) {
    this(serverUuid, gtidExecuted, gtidOwned, readOnly, replicaChannels, receiverRunning, applierRunning,
        applierLagMillis, lastError, healthKnown, groupMemberState, sourceUuids, sourceDelaySeconds, 0);
  }

  /** A status of a server whose channels are not delayed and whose sources are not known. */
  public ServerStatus(String serverUuid, Position gtidExecuted, Position gtidOwned, boolean readOnly, int replicaChannels,
      boolean receiverRunning, boolean applierRunning, long applierLagMillis, String lastError, boolean healthKnown,
      String groupMemberState) {
    this(serverUuid, gtidExecuted, gtidOwned, readOnly, replicaChannels, receiverRunning, applierRunning,
        applierLagMillis, lastError, healthKnown, groupMemberState, List.of(), 0);
  }

  /** A status whose owned set is empty (nothing being committed). */
  public ServerStatus(String serverUuid, Position gtidExecuted, boolean readOnly, int replicaChannels,
      boolean receiverRunning, boolean applierRunning, long applierLagMillis, String lastError, boolean healthKnown) {
    this(serverUuid, gtidExecuted, Positions.EMPTY, readOnly, replicaChannels, receiverRunning, applierRunning,
        applierLagMillis, lastError, healthKnown, "");
  }

  /** Whether the server is (or was, and has not been reconfigured) a Group Replication member. */
  public boolean groupMember() {
    return !groupMemberState.isEmpty();
  }

  /** Its {@code gtid_executed} and {@code gtid_owned}. */
  public ServerPosition position() {
    return new ServerPosition(gtidExecuted, gtidOwned);
  }
}
