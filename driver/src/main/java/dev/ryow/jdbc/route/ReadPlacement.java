package dev.ryow.jdbc.route;

/** Where a replica-eligible read ended up, and why. */
public enum ReadPlacement {
  /** On the replica, which was already known to have the watermark (no round trip). */
  REPLICA_NO_WAIT,
  /** On the replica, after a successful {@code WAIT_FOR_EXECUTED_GTID_SET}. */
  REPLICA_AFTER_WAIT,
  /** On the primary, because the replica's wait failed. */
  PRIMARY_FALLBACK,
  /** On the replica although its wait failed ({@code ryow.fallback=stale}). */
  REPLICA_STALE
}
