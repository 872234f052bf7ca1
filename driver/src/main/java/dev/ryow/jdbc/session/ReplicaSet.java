package dev.ryow.jdbc.session;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.ServerPosition;
import dev.ryow.jdbc.server.Sql;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * The replica side of one logical connection: at most one physical connection per server (a {@link Slot}),
 * opened on first use, each with its own {@link SessionMirror}, and the slot a read-only transaction is bound
 * to. It keeps nothing of a read: which replica a read runs on, and after which wait, is the
 * {@link ReadAdmitter}'s decision, recorded in the session's {@link ReadPlan}.
 */
final class ReplicaSet {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReplicaSet.class);
  /** How long a replica that refused this connection's login is left alone before the next attempt. */
  private static final long REFUSED_RETRY_NANOS = 5_000_000_000L;
  private final Cluster cluster;
  private final RyowConfig config;
  private final ConnectorJ connector;
  private final SessionState session;
  /** Where this connection starts its round of the replicas. */
  private final int start;
  private final Slot[] slots;
  /** A read-only transaction runs on this slot until it ends. */
  private @Nullable Slot transactionSlot;

  /** One server's physical connection of this logical connection. */
  static final class Slot {
    final ReplicaEndpoint endpoint;
    @Nullable PhysicalConnection connection;
    @Nullable SessionMirror mirror;
    /** A watermark this physical connection was seen to have (successful wait). */
    @Nullable Position verified;
    /** Until when ({@link System#nanoTime()}) not to log in again after the server refused our credentials; 0: never refused. */
    long refusedUntilNanos;
    /** A statement ran on it outside autocommit since the last commit or rollback: it must end that transaction. */
    boolean inTransaction;

    Slot(ReplicaEndpoint endpoint) {
      this.endpoint = endpoint;
    }
  }

  ReplicaSet(Cluster cluster, RyowConfig config, ConnectorJ connector, SessionState session) {
    this.cluster = cluster;
    this.config = config;
    this.connector = connector;
    this.session = session;
    this.start = cluster.members().nextReplicaStart();
    List<ReplicaEndpoint> servers = cluster.servers();
    this.slots = new Slot[servers.size()];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = new Slot(servers.get(i));
    }
  }

  /** Where this connection starts its round of the replicas ({@code ReplicaSelector.order}). */
  int start() {
    return start;
  }

  /** How many slots there are (one per server of the cluster). */
  int size() {
    return slots.length;
  }

  /** The slot of the server at {@code index}. */
  Slot slot(int index) {
    return slots[index];
  }

  /** The slot a read-only transaction is bound to, or null. */
  @Nullable Slot transactionSlot() {
    return transactionSlot;
  }

  /** A transaction's first read, deferred to {@code slot}, did not run there: the transaction is not bound to it. */
  void unpin(Slot slot) {
    if (transactionSlot == slot) {
      transactionSlot = null;
    }
  }

  /** The read runs on {@code slot}; outside autocommit, the transaction is bound to it. */
  PhysicalConnection use(Slot slot, boolean wantAutoCommit) {
    if (!wantAutoCommit) {
      transactionSlot = slot;
    }
    PhysicalConnection c = slot.connection;
    if (c == null) {
      throw new IllegalStateException("slot without connection");
    }
    return c;
  }

  /** Closes the slot's connection without blaming its server (the next read opens another). */
  void drop(Slot slot) {
    PhysicalConnection c = slot.connection;
    slot.connection = null;
    slot.mirror = null;
    slot.verified = null;
    slot.inTransaction = false;
    if (transactionSlot == slot) {
      transactionSlot = null;
    }
    if (c != null) {
      c.close();
    }
  }

  /**
   * Reads the position of {@code server} on this logical connection's connection to it (opened if
   * needed): {@code gtid_owned}, then {@code gtid_executed}. Null when the server cannot be reached
   * (it leaves rotation).
   */
  @Nullable ServerPosition position(ReplicaEndpoint server) {
    Slot slot = slots[server.index()];
    PhysicalConnection c = open(slot);
    if (c == null) {
      return null;
    }
    try {
      ServerPosition p = c.readPosition();
      server.learn(p.executed(), c.identity().serverUuid()); // a fact read on the server itself
      return p;
    } catch (SQLException failure) {
      if (Sql.isConnectionFailure(failure)) {
        failed(slot, failure);
      }
      return null;
    }
  }

  /**
   * What every replica (the primary's place and vacant ones aside) executed and received complete from its
   * sources ({@link PhysicalConnection#readReceived}), on this logical connection's connections to them: one
   * round trip each. Every transaction the primary had sent is in it. Null when one cannot be reached or read,
   * or none has anything.
   */
  @Nullable Position receivedByEveryReplica() {
    Position all = Positions.EMPTY;
    ReplicaEndpoint primary = cluster.primaryEndpoint();
    for (Slot slot : slots) {
      if (slot.endpoint == primary || slot.endpoint.vacant()) {
        continue;
      }
      Position received = received(slot);
      cluster.metrics().positionRead();
      if (received == null) {
        return null;
      }
      all = all.union(received);
    }
    return all.isEmpty() ? null : all;
  }

  private @Nullable Position received(Slot slot) {
    PhysicalConnection c = open(slot);
    if (c == null) {
      return null;
    }
    try {
      return c.readReceived();
    } catch (SQLException failure) {
      if (Sql.isConnectionFailure(failure)) {
        failed(slot, failure);
      }
      return null;
    }
  }

  /** A slot other than {@code exclude}'s whose server is reachable, from this connection's start; or null. */
  @Nullable Slot anyReachable(@Nullable ReplicaEndpoint exclude) {
    for (int i = 0; i < slots.length; i++) {
      Slot slot = slots[Math.floorMod(start + i, slots.length)];
      if (slot.endpoint != exclude && slot.endpoint.health().reachable()) {
        return slot;
      }
    }
    return null;
  }

  /** {@code slot}'s connection, opened first if needed; null when it cannot be opened now. */
  @Nullable PhysicalConnection open(Slot slot) {
    PhysicalConnection c = slot.connection;
    if (c != null && !c.isClosed()) {
      return c;
    }
    if (c != null) {
      c.close();
      slot.connection = null;
    }
    if (slot.refusedUntilNanos != 0 && System.nanoTime() - slot.refusedUntilNanos < 0) {
      return null;
    }
    try {
      c = connector.openReplica(config, slot.endpoint.host());
    } catch (SQLException e) {
      if (Sql.isAuthenticationFailure(e)) {
        // This connection's credentials, not the server: it stays in rotation for the others.
        slot.refusedUntilNanos = (System.nanoTime() + REFUSED_RETRY_NANOS) | 1;
        LOG.warn("[{}] replica {} refused this connection's login ({}); its reads go elsewhere", cluster.name(),
            slot.endpoint, e.getMessage());
        return null;
      }
      cluster.unreachable(slot.endpoint, "connect failed: " + e.getMessage());
      return null;
    }
    slot.connection = c;
    slot.endpoint.identified(c.identity().serverUuid());
    slot.mirror = new SessionMirror(session);
    slot.verified = null;
    slot.inTransaction = false;
    return c;
  }

  /** The slot's connection failed: it is dropped and its server leaves rotation. */
  void failed(Slot slot, SQLException cause) {
    drop(slot);
    cluster.unreachable(slot.endpoint, "connection failed: " + cause.getMessage());
  }

  /**
   * A statement on {@code on} hit the caller's own socket timeout: drops that connection (Connector/J
   * closed it) without taking its server out of rotation.
   */
  void timedOut(PhysicalConnection on) {
    for (Slot slot : slots) {
      if (slot.connection == on) {
        drop(slot);
        return;
      }
    }
  }

  /**
   * A statement on {@code on} failed with a connection failure: drops that connection, takes its
   * server out of rotation, and returns the server (to exclude from the retry).
   */
  @Nullable ReplicaEndpoint failed(PhysicalConnection on, SQLException cause) {
    for (Slot slot : slots) {
      if (slot.connection == on) {
        failed(slot, cause);
        return slot.endpoint;
      }
    }
    return null;
  }

  /** The read-only transaction ended (commit, rollback, autocommit back on). */
  void transactionEnded() {
    transactionSlot = null;
  }

  /** A statement ran on {@code on}: outside autocommit, its connection now takes part in the transaction. */
  void ran(PhysicalConnection on) {
    for (Slot slot : slots) {
      if (slot.connection == on) {
        slot.endpoint.served();
        SessionMirror mirror = slot.mirror;
        slot.inTransaction |= mirror != null && !mirror.autoCommit();
        return;
      }
    }
  }

  /**
   * Ends the transaction on every replica connection that took part in it; the others (even those
   * left in manual-commit mode by an earlier transaction) are not sent anything.
   */
  void commitOrRollback(boolean commit) throws SQLException {
    for (Slot slot : slots) {
      PhysicalConnection c = slot.connection;
      if (c != null && slot.inTransaction && !c.isClosed()) {
        slot.inTransaction = false;
        if (commit) {
          c.jdbc().commit();
        } else {
          c.jdbc().rollback();
        }
      }
    }
  }

  void clearWarnings() throws SQLException {
    for (Slot slot : slots) {
      PhysicalConnection c = slot.connection;
      if (c != null && !c.isClosed()) {
        c.jdbc().clearWarnings();
      }
    }
  }

  /** The connection currently open to the server at {@code index}, if any (diagnostics). */
  @Nullable PhysicalConnection connectionTo(int index) {
    return slots[index].connection;
  }

  void closeAll() {
    for (Slot slot : slots) {
      PhysicalConnection c = slot.connection;
      slot.connection = null;
      if (c != null) {
        c.close();
      }
    }
  }

  void abortAll(Executor executor) throws SQLException {
    for (Slot slot : slots) {
      PhysicalConnection c = slot.connection;
      slot.connection = null;
      if (c != null) {
        c.abort(executor);
      }
    }
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Slot slot : slots) {
      if (slot.connection != null) {
        b.append(b.length() == 0 ? "" : ",").append(slot.endpoint);
      }
    }
    return b.toString();
  }
}
