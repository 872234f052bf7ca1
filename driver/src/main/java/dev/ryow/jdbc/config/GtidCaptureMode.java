package dev.ryow.jdbc.config;

/** How the driver learns the GTID of a write it sent to the primary ({@code ryow.gtidCapture}). */
public enum GtidCaptureMode {
  /**
   * Exact and free: the primary session runs with {@code session_track_gtids=OWN_GTID} and the
   * server returns the transaction's GTID in the OK packet.
   */
  OWN_GTID,
  /**
   * Conservative: {@code SELECT @@global.gtid_executed} on the primary connection after writes, sent
   * lazily before the next replica read or token export. Costs one statement per write burst.
   */
  QUERY
}
