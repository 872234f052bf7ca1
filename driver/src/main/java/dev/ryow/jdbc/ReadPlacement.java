package dev.ryow.jdbc;

/** Where a replica-eligible read ended up, and why. */
public enum ReadPlacement {
  /** On the replica, which was already known to have the watermark (no round trip). */
  REPLICA_NO_WAIT,
  /** On the replica, after a successful {@code WAIT_FOR_EXECUTED_GTID_SET}. */
  REPLICA_AFTER_WAIT,
  /** On the primary, because no replica could serve it in time (a fallback token was taken). */
  PRIMARY_FALLBACK,
  /** On a replica not known to have the watermark ({@code ryow.fallback=stale} or {@code ryow.fallbackDegrade=stale}). */
  REPLICA_STALE,
  /** On the replica without any wait, because the consistency mode is {@code none}. */
  REPLICA_UNCHECKED,
  /**
   * On a replica without any wait, in a scope that accepts stale reads
   * ({@link ConsistencyScope#allowStale(long)}, the starter's {@code @AllowStale}), whose applier lag at the
   * last poll was within the scope's bound.
   */
  REPLICA_STALE_ALLOWED,
  /**
   * On the primary without a wait: the watermark names GTIDs the primary has never executed
   * ({@code ryow.unknownGtids=primary}).
   */
  PRIMARY_UNKNOWN_GTIDS
}
