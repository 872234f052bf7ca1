package dev.ryow.jdbc.config;

/** What a replica read does when the replica did not reach the watermark in time ({@code ryow.fallback}). */
public enum FallbackMode {
  /** Run the read on the primary, within the cluster's fallback budget ({@code ryow.fallbackRate}). */
  PRIMARY,
  /** Never the primary: fail the read with a {@link java.sql.SQLTransientException} that names the replica and the setting to tune. */
  ERROR,
  /** Never the primary: run the read on a reachable replica anyway; it may miss the connection's own writes (counted). */
  STALE
}
