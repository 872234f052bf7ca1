package dev.ryow.jdbc.route;

import dev.ryow.jdbc.config.FallbackMode;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.server.WaitOutcome;
import java.sql.SQLException;
import java.sql.SQLTransientException;

/**
 * "What on failure?" Decides where a replica read goes when its replica did not reach the watermark
 * in time. The seam where rate limits and other degrade modes plug in.
 */
public interface FallbackPolicy {

  /** Where the read runs instead: {@link Decision#PRIMARY} or {@link Decision#STALE_REPLICA}; or throws. */
  Decision onWaitFailed(ReplicaEndpoint replica, WaitOutcome outcome, int waitTimeoutMillis) throws SQLException;

  /** Where a read whose wait failed runs. */
  enum Decision {
    /** On the primary. */
    PRIMARY,
    /** On the replica, knowingly possibly stale. */
    STALE_REPLICA
  }

  /** The policy for a configured mode. */
  static FallbackPolicy of(FallbackMode mode) {
    return switch (mode) {
      case PRIMARY -> (replica, outcome, timeout) -> Decision.PRIMARY;
      case STALE -> (replica, outcome, timeout) -> Decision.STALE_REPLICA;
      case ERROR -> FallbackPolicy::reject;
    };
  }

  private static Decision reject(ReplicaEndpoint replica, WaitOutcome outcome, int waitTimeoutMillis)
      throws SQLException {
    String why = outcome == WaitOutcome.TIMED_OUT ? "did not reach" : "could not wait for";
    throw new SQLTransientException(
        "Replica " + replica + " " + why + " this connection's writes within " + RyowProperties.WAIT_TIMEOUT_MILLIS.name()
            + "=" + waitTimeoutMillis + " ms and " + RyowProperties.FALLBACK.name()
            + "=error: retry the read, raise " + RyowProperties.WAIT_TIMEOUT_MILLIS.name() + ", or set "
            + RyowProperties.FALLBACK.name() + "=primary.",
        "HYT00");
  }
}
