package dev.ryow.jdbc.route;

import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.WaitOutcome;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * "Wait or skip?" Decides, for one logical connection, whether a replica read may run on its replica
 * now, after waiting for the watermark, or must go elsewhere.
 */
public final class ConsistencyGate {
  private static final Logger LOG = LoggerFactory.getLogger(ConsistencyGate.class);

  private final Cluster cluster;
  private @Nullable GtidSet verifiedOnReplica;
  private long lastWaitNanos;

  /** A gate for one logical connection of {@code cluster}. */
  public ConsistencyGate(Cluster cluster) {
    this.cluster = cluster;
  }

  /**
   * Admits a read on {@code replica} for {@code watermark}.
   *
   * @throws SQLException when the fallback policy refuses the read, or the replica connection failed
   */
  public ReadPlacement admit(PhysicalConnection replica, ReplicaEndpoint endpoint, GtidSet watermark)
      throws SQLException {
    lastWaitNanos = 0;
    GtidSet verified = verifiedOnReplica;
    if (watermark.isEmpty()
        || (verified != null && verified.contains(watermark))
        || endpoint.knownExecuted().contains(watermark)) {
      cluster.metrics().waitSkipped();
      return ReadPlacement.REPLICA_NO_WAIT;
    }
    long start = System.nanoTime();
    WaitOutcome outcome = replica.waitFor(watermark, cluster.waitTimeoutSeconds());
    lastWaitNanos = Math.max(1, System.nanoTime() - start);
    cluster.metrics().waited(lastWaitNanos);
    if (LOG.isDebugEnabled()) {
      LOG.debug("[{}] waited {} us on replica {} for {}: {}", cluster.name(), lastWaitNanos / 1000, endpoint, watermark, outcome);
    }
    if (outcome == WaitOutcome.REACHED) {
      verifiedOnReplica = watermark;
      endpoint.learn(watermark);
      return ReadPlacement.REPLICA_AFTER_WAIT;
    }
    if (outcome == WaitOutcome.TIMED_OUT) {
      cluster.metrics().waitTimedOut();
    } else {
      cluster.metrics().waitFailed();
    }
    FallbackPolicy.Decision decision;
    try {
      decision = cluster.fallback().onWaitFailed(endpoint, outcome, cluster.waitTimeoutMillis());
    } catch (SQLException rejected) {
      cluster.metrics().fallbackRejected();
      LOG.debug("[{}] replica {} {}: read refused (ryow.fallback=error)", cluster.name(), endpoint, outcome);
      throw rejected;
    }
    if (decision == FallbackPolicy.Decision.STALE_REPLICA) {
      cluster.metrics().staleRead();
      LOG.debug("[{}] replica {} {}: read runs there anyway, possibly stale (ryow.fallback=stale)", cluster.name(), endpoint, outcome);
      return ReadPlacement.REPLICA_STALE;
    }
    cluster.metrics().fellBackToPrimary();
    LOG.debug("[{}] replica {} {}: read falls back to the primary", cluster.name(), endpoint, outcome);
    return ReadPlacement.PRIMARY_FALLBACK;
  }

  /** How long the last {@link #admit} waited, in nanoseconds; 0 if it did not wait. */
  public long lastWaitNanos() {
    return lastWaitNanos;
  }

  /** Forgets what the previous replica connection was known to have. */
  public void replicaChanged() {
    verifiedOnReplica = null;
  }
}
