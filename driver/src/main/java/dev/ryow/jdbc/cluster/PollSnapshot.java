package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.server.ServerPosition;

/**
 * One successful poll of one server, as the monotonic-read bookkeeping needs it.
 *
 * @param startedNanos {@link ReadClock#start()} just before the poll's query was sent: every read that
 *     completed before this instant saw no more than {@code position} (barring a reset)
 * @param serverUuid the server that answered
 * @param position its {@code gtid_owned} and {@code gtid_executed}
 * @param resetStartedNanos when the poll that last found this server's position reset was sent
 *     (valid only if {@code everReset})
 * @param everReset whether a reset was ever seen
 */
public record PollSnapshot(
    long startedNanos, String serverUuid, ServerPosition position, long resetStartedNanos, boolean everReset) {

  /**
   * Whether this poll bounds a read of {@code serverUuid} that completed at {@code completedNanos}: it
   * was sent after the read completed, by the same server, and no reset was found by a poll sent after
   * the read (a reset may have dropped what the read saw from {@code gtid_executed}).
   */
  public boolean bounds(String uuid, long completedNanos) {
    return startedNanos - completedNanos > 0
        && serverUuid.equals(uuid)
        && !(everReset && resetStartedNanos - completedNanos > 0);
  }
}
