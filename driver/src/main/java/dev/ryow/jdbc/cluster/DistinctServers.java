package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.ServerIdentity;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * "Is every host of the URL a different server?" Two names for one server ({@code 127.0.0.1:3306}
 * and {@code localhost:3306}, or the primary listed again as a replica) would make the driver use the
 * primary as a replica, or count one replica twice. Decided by {@code server_uuid}: at the cluster's
 * first connect every host is asked once (one short monitor connection each; a host that does not
 * answer then is checked when the poller first reaches it), and every later poll keeps the answer
 * current. While two hosts are the same server, every connect fails with a message naming both.
 */
public final class DistinctServers {
  private static final Logger LOG = LoggerFactory.getLogger(DistinctServers.class);

  private final String clusterName;
  private final List<ReplicaEndpoint> servers;
  private final AtomicReferenceArray<String> uuids;
  /**
   * Each host's kind of replication, once asked ({@link ServerIdentity#replicationLabel()}): a URL must not mix
   * MySQL and MariaDB servers, nor MySQL servers with and without GTIDs.
   */
  private final AtomicReferenceArray<String> flavors;
  private final ReentrantLock firstContact = new ReentrantLock();
  private volatile boolean probed;
  private volatile @Nullable String conflict;

  DistinctServers(String clusterName, List<ReplicaEndpoint> servers) {
    this.clusterName = clusterName;
    this.servers = servers;
    this.uuids = new AtomicReferenceArray<>(servers.size());
    this.flavors = new AtomicReferenceArray<>(servers.size());
  }

  /**
   * Before a new logical connection is handed out: fails if two hosts of the URL are known to be one
   * server. The first call of the cluster records {@code connectedUuid} for {@code connectedHost} and
   * asks every other host whose {@code server_uuid} is not known yet (concurrent first connects wait
   * for it); later calls cost one volatile read.
   *
   * @throws SQLNonTransientConnectionException naming both hosts (SQLState 08001)
   */
  public void verify(HostSpec connectedHost, ServerIdentity connected, ConnectorJ connector, RyowConfig config)
      throws SQLException {
    if (!probed) {
      firstContact.lock();
      try {
        if (!probed) {
          int at = indexOf(connectedHost);
          if (at >= 0) {
            flavors.set(at, connected.replicationLabel());
          }
          record(at, connected.serverUuid());
          for (ReplicaEndpoint e : servers) {
            if (uuids.get(e.index()) == null && !e.vacant()) {
              try (PhysicalConnection c = connector.openMonitor(config, e.host())) {
                flavors.set(e.index(), c.identity().replicationLabel());
                record(e.index(), c.identity().serverUuid());
              } catch (SQLException unreachable) {
                // Checked when the poller first reaches it (learned).
              }
            }
          }
          probed = true;
        }
      } finally {
        firstContact.unlock();
      }
    }
    String c = conflict;
    if (c != null) {
      throw new SQLNonTransientConnectionException(c, "08001");
    }
    String mixed = FlavorRule.mixed(servers, flavors);
    if (mixed != null) {
      throw new SQLNonTransientConnectionException(mixed, "08004");
    }
  }

  /**
   * "Are all servers of the URL of one kind of replication?" A replica of the other flavour has none of the
   * primary's GTIDs; a server without GTIDs cannot wait for a GTID set, nor one with GTIDs for a position
   * captured without them: a mixed fleet is refused, not half served.
   */
  static final class FlavorRule {
    private FlavorRule() {}

    /** The message for the first host whose known flavour differs from an earlier host's, or null. */
    static @Nullable String mixed(List<ReplicaEndpoint> servers, AtomicReferenceArray<String> flavors) {
      String first = null;
      ReplicaEndpoint firstAt = null;
      for (ReplicaEndpoint e : servers) {
        String f = flavors.get(e.index());
        if (f == null) {
          continue;
        }
        if (first == null) {
          first = f;
          firstAt = e;
        } else if (!f.equals(first)) {
          return "The URL mixes " + first + " and " + f + " servers: " + firstAt + " is " + first + ", " + e + " is "
              + f + ". ryow routes over the replication of one kind (MySQL GTID sets, MariaDB GTID positions, or"
              + " MySQL binary-log positions without GTIDs): list the servers of one replication topology only.";
        }
      }
      return null;
    }
  }

  /** A poll read {@code uuid} on {@code server}. */
  void learned(ReplicaEndpoint server, @Nullable String uuid) {
    if (uuid != null && !uuid.equals(uuids.get(server.index()))) {
      String before = conflict;
      record(server.index(), uuid);
      String now = conflict;
      if (now != null && !now.equals(before)) {
        LOG.error("[{}] {} New connections are refused until then.", clusterName, now);
      }
    }
  }

  /** Whether one of the hosts is known to be the server {@code uuid}. */
  boolean knows(String uuid) {
    for (int i = 0; i < uuids.length(); i++) {
      if (uuid.equals(uuids.get(i))) {
        return true;
      }
    }
    return false;
  }

  /** The configuration error, or null while every known host is a different server. */
  public @Nullable String conflict() {
    return conflict;
  }

  private int indexOf(HostSpec host) {
    for (ReplicaEndpoint e : servers) {
      if (e.host().equals(host)) {
        return e.index();
      }
    }
    return -1;
  }

  private void record(int index, @Nullable String uuid) {
    if (index < 0 || uuid == null) {
      return;
    }
    uuids.set(index, uuid);
    String found = null;
    for (int i = 0; i < servers.size() && found == null; i++) {
      String a = uuids.get(i);
      for (int j = i + 1; j < servers.size() && a != null; j++) {
        if (a.equals(uuids.get(j))) {
          found = "Hosts " + servers.get(i) + " and " + servers.get(j) + " of the URL are the same server (server_uuid "
              + a + "): list each server once (the first host is the primary, the others its replicas).";
          break;
        }
      }
    }
    conflict = found;
  }
}
