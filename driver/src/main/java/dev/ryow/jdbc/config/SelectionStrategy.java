package dev.ryow.jdbc.config;

/**
 * How a read picks among replicas that are equally suitable (same rotation state, same knowledge of
 * the watermark) ({@code ryow.replicaSelection}).
 */
public enum SelectionStrategy {
  /** Fewest reads currently waiting on the replica; ties go to the connection's own round-robin order. */
  LEAST_WAITS,
  /** The connection's own round-robin order: each new connection starts at the next replica. */
  ROUND_ROBIN,
  /** A random replica for each read. */
  RANDOM
}
