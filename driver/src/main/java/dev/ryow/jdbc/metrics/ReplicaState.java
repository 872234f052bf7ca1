package dev.ryow.jdbc.metrics;

/**
 * What a cluster knows of one replica at one moment, as shown in the {@code Replicas} table of its
 * JMX MBean (one row per replica, one column per component, indexed by the first component).
 *
 * @param address {@code host:port} as written in the URL
 * @param knownExecuted a GTID set the replica is known to have executed (learned from waits; it lags the truth)
 * @param waitBoundMillis how long a read may wait on it now ({@code ryow.waitTimeout}, or less once its normal
 *     wait and the primary's cost are known: {@code cluster.wait.WaitBound})
 * @param health its health ({@code UP}, {@code LAGGING}, {@code UNREACHABLE}...), read together with {@code problem}
 * @param problem why it is out of rotation (or paused), empty when it is {@code UP}
 */
public record ReplicaState(String address, String knownExecuted, long waitBoundMillis, String health, String problem) {}
