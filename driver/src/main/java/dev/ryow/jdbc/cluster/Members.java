package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.metrics.ClusterMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's servers and their health: every server of the URL, the group members and listed replicas
 * the poller takes in, the vacant places left, whether they are different servers ({@link DistinctServers}),
 * and the moves in and out of rotation (each counted and logged by the thread whose compare-and-set made it).
 */
public final class Members {
  private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);
  /**
   * Group Replication's largest group: the URL's hosts plus vacant places up to this many, for members the
   * poller finds in {@code replication_group_members} that the URL does not name.
   */
  static final int MAX_GROUP_MEMBERS = 9;

  private final String name;
  private final List<ReplicaEndpoint> servers;
  private final DistinctServers distinct;
  private final RotationLog rotationLog;
  private final ClusterMetrics metrics;
  private final StateVersion stateVersion;
  private final AtomicInteger nextReplica = new AtomicInteger();
  /** Serialises {@link #memberFound}: the poller and a discovery round may take in members at once. */
  private final ReentrantLock members = new ReentrantLock();

  Members(RyowConfig config, ClusterSettings settings, ClusterMetrics metrics, StateVersion stateVersion) {
    this.name = settings.name();
    this.metrics = metrics;
    this.stateVersion = stateVersion;
    int maxWaiters = settings.maxWaitersPerReplica();
    List<ReplicaEndpoint> all = new ArrayList<>();
    all.add(new ReplicaEndpoint(config.primary(), 0, maxWaiters, stateVersion));
    for (HostSpec replica : config.replicas()) {
      all.add(new ReplicaEndpoint(replica, all.size(), maxWaiters, stateVersion));
    }
    while (all.size() < MAX_GROUP_MEMBERS) {
      all.add(ReplicaEndpoint.vacant(config.primary(), all.size(), maxWaiters, stateVersion));
    }
    this.servers = List.copyOf(all);
    this.distinct = new DistinctServers(name, servers);
    this.rotationLog = new RotationLog(name, servers.size());
  }

  /**
   * Every server of the URL, in URL order, then the group members found by the poller, then vacant places
   * ({@link Health#VACANT}, skipped by everything); {@link ReplicaEndpoint#index()} is the position here.
   */
  public List<ReplicaEndpoint> servers() {
    return servers;
  }

  /** Whether the URL's hosts are different servers (checked by {@code server_uuid}). */
  public DistinctServers distinctServers() {
    return distinct;
  }

  /** The server whose {@code server_uuid} is {@code uuid} as of its last poll, or null. */
  public @Nullable ReplicaEndpoint serverByUuid(String uuid) {
    for (ReplicaEndpoint e : servers) {
      if (uuid.equals(e.serverUuid())) {
        return e;
      }
    }
    return null;
  }

  /** Where the next logical connection starts its round-robin walk over the servers. */
  public int nextReplicaStart() {
    return nextReplica.getAndIncrement();
  }

  /** {@link Cluster#unreachable(ReplicaEndpoint, String)} for a failure seen at {@code nowNanos} ({@link System#nanoTime()}). */
  void unreachable(ReplicaEndpoint server, String why, long nowNanos) {
    HealthState previous = server.unreachable(why, nowNanos);
    if (previous != null && previous.health() != Health.UNREACHABLE) {
      metrics.replicaFailed();
      rotationLog.out(server, Health.UNREACHABLE, why, nowNanos);
    }
  }

  /** A poll's verdict on {@code server}, a replica (poller only). */
  void health(ReplicaEndpoint server, Health next, long lagMillis, String why) {
    HealthState previous = server.health(next, lagMillis, why);
    if (previous == null) {
      return;
    }
    if (previous.health().inRotation() && !next.inRotation()) {
      metrics.replicaFailed();
      rotationLog.out(server, next, why, System.nanoTime());
    } else if (!previous.health().inRotation() && next.inRotation()) {
      metrics.replicaRecovered();
      rotationLog.back(server, previous.health());
    }
  }

  /** The servers' addresses, vacant places left out, for messages. */
  String hosts() {
    StringBuilder b = new StringBuilder("[");
    for (ReplicaEndpoint e : servers) {
      if (e.vacant()) {
        continue;
      }
      if (b.length() > 1) {
        b.append(", ");
      }
      b.append(e);
    }
    return b.append(']').toString();
  }

  /**
   * The poller found a Group Replication member ({@code replication_group_members}, ONLINE or RECOVERING):
   * unless it is one of the servers already (by {@code server_uuid}, or by address while a server's uuid is
   * not known yet), it takes the first vacant place, is polled from the next round on and serves reads once
   * it is ONLINE. The poller and primary discovery call it; one at a time ({@link #members}).
   */
  void memberFound(String uuid, HostSpec host) {
    members.lock();
    try {
      takeIn(uuid, host);
    } finally {
      members.unlock();
    }
  }

  private void takeIn(String uuid, HostSpec host) {
    ReplicaEndpoint free = null;
    for (ReplicaEndpoint e : servers) {
      if (e.vacant()) {
        if (free == null) {
          free = e;
        }
      } else if (uuid.equals(e.serverUuid()) || (e.serverUuid() == null && e.host().equals(host))) {
        return;
      }
    }
    if (free == null) {
      LOG.debug("[{}] group member {} ({}) found, but every place is taken", name, host, uuid);
      return;
    }
    free.occupy(host);
    free.identified(uuid);
    distinct.learned(free, uuid);
    LOG.info("[{}] group member {} (server_uuid {}) is not in the URL: polled and used from now on", name, host, uuid);
  }

  /** Whether {@code uuid} is one of the servers already (the URL's, or a place taken since), under any name. */
  boolean knowsServer(String uuid, HostSpec host) {
    for (ReplicaEndpoint e : servers) {
      if (!e.vacant() && (uuid.equals(e.serverUuid()) || (e.serverUuid() == null && e.host().equals(host)))) {
        return true;
      }
    }
    return distinct.knows(uuid);
  }

  /**
   * A replica the primary's {@code SHOW REPLICAS} lists, not one of the servers yet, was admitted
   * ({@link DiscoveryAdmission}): it takes the first vacant place, out of rotation until its first poll.
   * Returns the place, or null when every place is taken. Poller only.
   */
  @Nullable ReplicaEndpoint replicaFound(String uuid, HostSpec host) {
    for (ReplicaEndpoint e : servers) {
      if (e.vacant()) {
        e.occupy(host);
        e.identified(uuid);
        e.discoveredReplica();
        distinct.learned(e, uuid);
        stateVersion.bump();
        LOG.info("[{}] replica {} (server_uuid {}) is not in the URL but the primary lists it: polled and used from"
            + " now on", name, host, uuid);
        return e;
      }
    }
    LOG.debug("[{}] replica {} ({}) listed by the primary, but every place is taken", name, host, uuid);
    return null;
  }
}
