package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.server.ConnectorJ;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clusters of this class loader, by {@code RyowConfig.clusterKey()}. One instance serves every
 * {@code RyowDriver} (a pool may instantiate the driver class itself), so that connections to the same
 * servers share one cluster, one poller and one MBean. A cluster that has had no connection for its
 * {@code ryow.clusterIdleTimeout}, and whose poller has stopped, is released: removed, its MBean
 * unregistered; the next connection creates it again, counters from zero. One daemon thread
 * ({@code ryow-cluster-release}) checks once a second while clusters exist.
 *
 * <p>Clusters of the same servers (the same primary, by {@code server_uuid}) share what this JVM wrote
 * there and what its reads saw ({@link JvmHistories}): two pools whose URLs differ in the replicas'
 * order or in a setting keep one guarantee.
 *
 * <p>What must outlive a release does: the JVM's writes through the released cluster
 * ({@code ryow.consistency=jvm}, the default), and what its reads saw (monotonic reads), are handed to
 * the cluster created next for the same key,
 * unless every replica was known to have them (at most {@value #MAX_RETIRED} such sets are kept, the
 * oldest dropped first). Learned statement kinds (writes hidden in reads) are learned again.
 */
public final class ClusterRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterRegistry.class);
  private static final long SWEEP_MILLIS = 1000;
  static final int MAX_RETIRED = 1024;

  private final ConcurrentMap<String, Cluster> clusters = new ConcurrentHashMap<>();
  private final ReentrantLock lock = new ReentrantLock();
  /** Writes of released clusters that not every replica was known to have, oldest first. Guarded by {@link #lock}. */
  private final Map<String, Position> retired = new LinkedHashMap<>();
  private @Nullable PeriodicTask sweeper;
  /** What this JVM wrote to each set of servers, shared by every cluster of the same primary. */
  private final JvmHistories histories = new JvmHistories();

  /**
   * The cluster for {@code key}, created with {@code create} (given the JVM's writes a released
   * cluster of the same key left, or the empty set) if there is none, reserved for one more connection:
   * it cannot be released until {@link Cluster#connectionClosed()} or {@link Cluster#cancelReservation()}.
   */
  public Cluster reserve(String key, Function<Position, Cluster> create) {
    Cluster cluster = clusters.compute(key, (k, existing) -> {
      Cluster c = existing != null ? existing : create.apply(takeRetired(k));
      c.lease().reserve();
      return c;
    });
    startSweeper();
    return cluster;
  }

  /**
   * The cluster for {@code config}'s servers, created (logged, its MBean registered) if there is none,
   * reserved for one more connection as {@link #reserve(String, Function)} does.
   */
  public Cluster reserve(RyowConfig config, ConnectorJ connector, String driverVersion) {
    return reserve(config.clusterKey(), jvmWrites -> {
      Cluster cluster = new Cluster(config, connector, jvmWrites, histories);
      LOG.info("[{}] new cluster, ryow-jdbc {}: {}", cluster.name(), driverVersion, config);
      return ClusterMBeans.register(cluster);
    });
  }

  /** The live cluster for {@code key}, if one exists (nothing is created or reserved). */
  public Optional<Cluster> find(String key) {
    return Optional.ofNullable(clusters.get(key));
  }

  /** How many clusters are live now. */
  public int size() {
    return clusters.size();
  }

  /** Releases every cluster that has been idle long enough; stops the sweeper once none is left. */
  void sweep() {
    long now = System.nanoTime();
    for (String key : clusters.keySet()) {
      clusters.computeIfPresent(key, (k, c) -> {
        if (!c.releasable(now)) {
          return c;
        }
        Position unapplied = writesNotKnownOnEveryReplica(c);
        if (!unapplied.isEmpty()) {
          retire(k, unapplied);
        }
        c.release(() -> clusters.get(k));
        LOG.debug("[{}] released after {} ms without connections", c.name(), c.settings().idleTimeoutMillis());
        return null;
      });
    }
    lock.lock();
    try {
      if (clusters.isEmpty() && sweeper != null) {
        sweeper.stop();
        sweeper = null;
      }
    } finally {
      lock.unlock();
    }
  }

  private void startSweeper() {
    lock.lock();
    try {
      if (sweeper != null && !sweeper.running()) {
        sweeper.stop(); // ended by an Error (logged): a new one starts
        sweeper = null;
      }
      if (sweeper == null) {
        sweeper = new PeriodicTask("ryow-cluster-release", this::sweepQuietly, SWEEP_MILLIS, SWEEP_MILLIS,
            failure -> LOG.warn("the cluster release check stopped: {}", failure.toString()));
      }
    } finally {
      lock.unlock();
    }
  }

  private void sweepQuietly() {
    try {
      sweep();
    } catch (RuntimeException e) {
      // Never let the task die: clusters would then never be released.
      LOG.warn("cluster release check failed: {}", e.toString());
    }
  }

  private void retire(String key, Position writes) {
    lock.lock();
    try {
      retired.remove(key);
      retired.put(key, writes);
      if (retired.size() > MAX_RETIRED) {
        String oldest = retired.keySet().iterator().next();
        retired.remove(oldest);
      }
    } finally {
      lock.unlock();
    }
  }

  private Position takeRetired(String key) {
    lock.lock();
    try {
      Position writes = retired.remove(key);
      return writes == null ? Positions.EMPTY : writes;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The JVM's writes through this cluster and, with monotonic reads, what its reads saw (resolved by the
   * polls, which ran after the last read: the poller outlives the last connection), unless every replica
   * is known to have executed them (then empty). The successor waits for them as for its own writes.
   */
  private static Position writesNotKnownOnEveryReplica(Cluster cluster) {
    JvmHistory history = cluster.jvm().history();
    Position writes = history.writes().current();
    if (cluster.settings().monotonicReads()) {
      history.reads().resolve(cluster);
      writes = writes.union(history.reads().bound().full());
    }
    for (ReplicaEndpoint e : cluster.servers()) {
      if (e != cluster.primaryEndpoint() && !e.vacant() && !e.knownExecuted().contains(writes)) {
        return writes;
      }
    }
    return Positions.EMPTY;
  }
}
