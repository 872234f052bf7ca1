package dev.ryow.jdbc.config;

/** What a replica read does when the replica did not reach the watermark in time ({@code ryow.fallback}). */
public enum FallbackMode {
  /** Run the read on the primary. */
  PRIMARY,
  /** Fail the read with a {@link java.sql.SQLTransientException} that names the replica and the setting to tune. */
  ERROR,
  /** Run the read on the replica anyway; it may miss the connection's own writes (counted). */
  STALE
}
