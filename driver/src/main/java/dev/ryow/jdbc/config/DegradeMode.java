package dev.ryow.jdbc.config;

/**
 * What a read does when it should fall back to the primary but the cluster's fallback budget
 * ({@code ryow.fallbackRate}, {@code ryow.fallbackBurst}) is spent ({@code ryow.fallbackDegrade}). Only
 * with the opt-in cap ({@code ryow.fallbackRate > 0}); by default nothing is capped.
 */
public enum DegradeMode {
  /** Fail the read with a {@link java.sql.SQLTransientException} naming the replica, the wait and the setting to tune. */
  ERROR,
  /** Read a reachable replica anyway, possibly missing writes it should see (counted and logged). */
  STALE
}
