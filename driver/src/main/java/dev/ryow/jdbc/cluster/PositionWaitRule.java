package dev.ryow.jdbc.cluster;

import java.util.List;

/**
 * "May a read wait on this replica for a binary-log position?" (servers without GTIDs). A position
 * ({@link dev.ryow.jdbc.gtid.BinlogPosition}) is a place in one primary's binary log, so only a replica that
 * replicates directly from that primary, over one channel, can be waited on with
 * {@code SOURCE_POS_WAIT}: a chained replica (its source is another replica, with its own binary log), a
 * multi-source replica (the default-channel wait would name the wrong log) and a replica whose source is
 * not known yet are never waited on with a position. GTID waits have no such limit.
 *
 * @param eligible whether the wait may be sent
 * @param why why not, empty when it may
 */
record PositionWaitRule(boolean eligible, String why) {
  static final PositionWaitRule ELIGIBLE = new PositionWaitRule(true, "");

  /**
   * @param primaryUuid the {@code server_uuid} of the primary the position was captured on
   * @param sourceUuids the replica's channels' {@code SOURCE_UUID}s, as last polled
   */
  static PositionWaitRule of(String primaryUuid, List<String> sourceUuids) {
    if (sourceUuids.isEmpty()) {
      return new PositionWaitRule(false, "its source is not known (no connected channel)");
    }
    if (sourceUuids.size() > 1) {
      return new PositionWaitRule(false, "it replicates over " + sourceUuids.size()
          + " channels: a binlog position names one source's log");
    }
    if (!sourceUuids.get(0).equals(primaryUuid)) {
      return new PositionWaitRule(false, "it replicates from " + sourceUuids.get(0)
          + ", not directly from the primary " + primaryUuid + ": a binlog position is valid only on direct replicas");
    }
    return ELIGIBLE;
  }
}
