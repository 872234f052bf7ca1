package dev.ryow.jdbc.route;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.UnknownGtidPolicy;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.metrics.ClusterMetrics;
import dev.ryow.jdbc.sql.ClassificationCache;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What all logical connections to one primary/replica set share: the replicas and what is known of
 * them, the fallback policy, the wait timeout and the metrics. One per distinct {@link RyowConfig#clusterKey()}.
 */
public final class Cluster {
  private final String name;
  private final List<ReplicaEndpoint> replicas;
  private final FallbackPolicy fallback;
  private final int waitTimeoutMillis;
  private final BigDecimal waitTimeoutSeconds;
  private final ClusterMetrics metrics = new ClusterMetrics();
  private final ClassificationCache classifications = new ClassificationCache();
  private final AtomicInteger nextReplica = new AtomicInteger();
  private final ConsistencyMode consistency;
  private final UnknownGtidPolicy unknownGtids;
  private final TokenCodec tokenCodec;
  /** Every GTID a connection of this cluster wrote, in this JVM ({@link ConsistencyMode#JVM}). */
  private final Watermark jvmWrites = new Watermark();
  /** GTIDs the primary is known to have executed: our writes, and sets verified with GTID_SUBSET. */
  private final Watermark primaryExecuted = new Watermark();

  /** Builds the shared state for a config. */
  public Cluster(RyowConfig config) {
    this.name = config.clusterName();
    this.replicas = config.replicas().stream().map(ReplicaEndpoint::new).toList();
    this.fallback = FallbackPolicy.of(config.get(RyowProperties.FALLBACK));
    this.waitTimeoutMillis = config.get(RyowProperties.WAIT_TIMEOUT_MILLIS);
    this.waitTimeoutSeconds = BigDecimal.valueOf(waitTimeoutMillis, 3);
    this.consistency = config.get(RyowProperties.CONSISTENCY);
    this.unknownGtids = config.get(RyowProperties.UNKNOWN_GTIDS);
    this.tokenCodec = TokenCodec.of(config);
  }

  /** {@code ryow.consistency}: the mode of connections that were given none and run outside a scope. */
  public ConsistencyMode consistency() {
    return consistency;
  }

  /** {@code ryow.unknownGtids}. */
  public UnknownGtidPolicy unknownGtids() {
    return unknownGtids;
  }

  /** How this cluster's connections encode and decode consistency tokens. */
  public TokenCodec tokenCodec() {
    return tokenCodec;
  }

  /** Records a write that a connection of this cluster made on the primary. */
  public void wrote(GtidSet gtids) {
    jvmWrites.advance(gtids);
    primaryExecuted.advance(gtids);
  }

  /** Every write through this cluster's connections in this JVM. */
  public GtidSet jvmWrites() {
    return jvmWrites.current();
  }

  /** A set the primary has certainly executed (it only lags behind the truth). */
  public GtidSet knownOnPrimary() {
    return primaryExecuted.current();
  }

  /** Records that the primary has executed {@code gtids} (verified, or read from it). */
  public void primaryHas(GtidSet gtids) {
    primaryExecuted.advance(gtids);
  }

  /** The name in messages and JMX: {@code ryow.clusterName}, or the primary's address. */
  public String name() {
    return name;
  }

  /** The replicas in URL order. */
  public List<ReplicaEndpoint> replicas() {
    return replicas;
  }

  /** The replica at {@code index} of a round-robin walk that starts at a different replica each call. */
  public ReplicaEndpoint replicaForAttempt(int start, int attempt) {
    return replicas.get(Math.floorMod(start + attempt, replicas.size()));
  }

  /** Where the next logical connection starts its round-robin walk over the replicas. */
  public int nextReplicaStart() {
    return nextReplica.getAndIncrement();
  }

  /** The replica whose address is {@code host}, if any. */
  public ReplicaEndpoint endpoint(HostSpec host) {
    for (ReplicaEndpoint r : replicas) {
      if (r.host().equals(host)) {
        return r;
      }
    }
    throw new IllegalArgumentException("not a replica of " + name + ": " + host);
  }

  /** What a read does when its wait failed. */
  public FallbackPolicy fallback() {
    return fallback;
  }

  /** {@code ryow.waitTimeout} in milliseconds. */
  public int waitTimeoutMillis() {
    return waitTimeoutMillis;
  }

  /** {@code ryow.waitTimeout} in seconds, as bound to {@code WAIT_FOR_EXECUTED_GTID_SET}. */
  public BigDecimal waitTimeoutSeconds() {
    return waitTimeoutSeconds;
  }

  /** Classifies SQL sent through plain statements, remembering recent texts. */
  public ClassificationCache classifications() {
    return classifications;
  }

  /** The cluster's counters. */
  public ClusterMetrics metrics() {
    return metrics;
  }
}
