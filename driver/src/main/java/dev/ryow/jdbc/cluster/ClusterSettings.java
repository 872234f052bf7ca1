package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.config.FallbackMode;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.SelectionStrategy;
import dev.ryow.jdbc.config.UnknownGtidPolicy;

/**
 * The settings a cluster's parts and connections share, read once from the {@link RyowConfig} the cluster
 * was made for (a later login's config changes only the credentials, {@link Logins}).
 *
 * @param name {@code ryow.clusterName}, or the primary's address: the name in messages and JMX
 * @param waitTimeoutMillis {@code ryow.waitTimeout}
 * @param failoverTimeoutMillis {@code ryow.failoverTimeout}
 * @param pollIntervalMillis {@code ryow.pollInterval}: also the pace of primary discovery
 * @param idleTimeoutMillis {@code ryow.clusterIdleTimeout}
 * @param maxWaitersPerReplica {@code ryow.maxWaitersPerReplica}
 * @param strategy {@code ryow.replicaSelection}
 * @param consistency {@code ryow.consistency}: the mode of connections that were given none and run outside a scope
 * @param unknownGtids {@code ryow.unknownGtids}
 * @param monotonicReads {@code ryow.monotonicReads}
 * @param primaryUncapped a read the replicas leave goes to the primary without a cap ({@code ryow.fallback=primary}
 *     with no {@code ryow.fallbackRate}): waits may be bounded ({@link dev.ryow.jdbc.cluster.wait.WaitBounds#waitBoundMillis})
 * @param tokenCodec how this cluster's connections encode and decode consistency tokens
 */
public record ClusterSettings(String name, int waitTimeoutMillis, int failoverTimeoutMillis, long pollIntervalMillis,
    long idleTimeoutMillis, int maxWaitersPerReplica, SelectionStrategy strategy, ConsistencyMode consistency,
    UnknownGtidPolicy unknownGtids, boolean monotonicReads, boolean primaryUncapped, TokenCodec tokenCodec) {

  /** The settings of {@code config}. */
  public static ClusterSettings of(RyowConfig config) {
    return new ClusterSettings(config.clusterName(), config.get(RyowProperties.WAIT_TIMEOUT_MILLIS),
        config.get(RyowProperties.FAILOVER_TIMEOUT_MILLIS), config.get(RyowProperties.POLL_INTERVAL_MILLIS),
        config.get(RyowProperties.CLUSTER_IDLE_TIMEOUT_MILLIS), config.get(RyowProperties.MAX_WAITERS_PER_REPLICA),
        config.get(RyowProperties.REPLICA_SELECTION), config.get(RyowProperties.CONSISTENCY),
        config.get(RyowProperties.UNKNOWN_GTIDS), config.get(RyowProperties.MONOTONIC_READS),
        config.get(RyowProperties.FALLBACK) == FallbackMode.PRIMARY && config.get(RyowProperties.FALLBACK_RATE) == 0,
        TokenCodec.of(config));
  }
}
