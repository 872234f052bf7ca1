package dev.ryow.jdbc.config;

/** What a replica read does when the replica did not reach the watermark in time ({@code ryow.fallback}). */
public enum FallbackMode {
  /**
   * Run the read on the primary, as before the driver: uncapped by default; within the cluster's fallback
   * budget only if {@code ryow.fallbackRate} is set.
   */
  PRIMARY,
  /**
   * Never the primary: fail the read with a {@link java.sql.SQLTransientException} that names the replica and
   * the setting to tune.
   */
  ERROR,
  /** Never the primary: run the read on a reachable replica anyway; it may miss writes it should see (counted). */
  STALE
}
