package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.cluster.wait.WaitBounds;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.metrics.ClusterMetrics;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.sql.ClassificationCache;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What all logical connections to one set of servers share, one per distinct {@link RyowConfig#clusterKey()}:
 * a facade over parts with one job each, which callers reach through it:
 *
 * <ul>
 *   <li>{@link #settings()}: the settings, read once from the configuration;
 *   <li>{@link #members()}: the servers and their health;
 *   <li>{@link #tracker()}: which server is the primary and what it is known to have executed;
 *   <li>{@link #discovery()}: finding the writable server when the primary fails;
 *   <li>{@link #waits()}: how long a read may wait on a replica;
 *   <li>{@link #jvm()}: what this JVM wrote and what its reads saw;
 *   <li>{@link #foreign()}: which GTIDs a replica shows are not this cluster's;
 *   <li>{@link #rounds()}: the poller's rounds and the home of monotonic reads;
 *   <li>{@link #logins()}: the credentials the poller and discovery log in with;
 * </ul>
 *
 * <p>and the fallback budget, the classification cache, the metrics and the background poller. What takes
 * more than one part (a poll of the primary, a replica's health, the release) is done here.
 */
public final class Cluster {
  private final ClusterSettings settings;
  private final ClusterMetrics metrics = new ClusterMetrics();
  private final ClassificationCache classifications = new ClassificationCache();
  /** Bumped after each change of the servers' or the primary's state that read plans are made from. */
  private final StateVersion stateVersion = new StateVersion();
  private final FallbackBudget fallbackBudget;
  private final Members members;
  private final PrimaryTracker tracker;
  private final PrimaryDiscovery discovery;
  private final Logins logins;
  private final WaitBounds waits;
  private final JvmLedger jvm;
  private final ForeignGtids foreign;
  private final PollRounds rounds;
  private final Lease lease;
  private final ClusterMonitor monitor;

  /**
   * Builds the shared state for a config, with a JVM history of its own (shared with no other cluster);
   * the poller starts with the first logical connection.
   */
  public Cluster(RyowConfig config, ConnectorJ connector) {
    this(config, connector, Positions.EMPTY, null);
  }

  /**
   * A cluster that takes over from a released one: {@code jvmWrites} (writes of this JVM through the
   * released cluster that not every replica was known to have) join its JVM-wide watermark, so that the
   * default consistency holds across the release. At its first login it joins the history
   * {@code histories} holds for its primary (null: it keeps its own).
   */
  public Cluster(RyowConfig config, ConnectorJ connector, Position jvmWrites, @Nullable JvmHistories histories) {
    this.settings = ClusterSettings.of(config);
    this.members = new Members(config, settings, metrics, stateVersion);
    this.tracker = new PrimaryTracker(settings, members.servers().get(0), metrics, stateVersion);
    this.jvm = new JvmLedger(jvmWrites, histories, tracker.executed());
    this.logins = new Logins(config);
    this.discovery = new PrimaryDiscovery(settings, connector, logins, members, tracker);
    this.foreign = new ForeignGtids(tracker);
    this.rounds = new PollRounds(members, tracker, stateVersion);
    this.waits = new WaitBounds(settings.waitTimeoutMillis(), settings.primaryUncapped());
    this.fallbackBudget = new FallbackBudget(config);
    this.lease = new Lease(settings.idleTimeoutMillis());
    this.monitor = new ClusterMonitor(this, config, connector);
  }

  /** The settings read once from the configuration. */
  public ClusterSettings settings() {
    return settings;
  }

  /** The servers and their health. */
  public Members members() {
    return members;
  }

  /** Which server is the primary now, and what it is known to have executed. */
  public PrimaryTracker tracker() {
    return tracker;
  }

  /** Finding the writable server when the primary is unreachable or read-only. */
  public PrimaryDiscovery discovery() {
    return discovery;
  }

  /** The credentials the poller and primary discovery log in with. */
  public Logins logins() {
    return logins;
  }

  /** How long a read may wait on a replica. */
  public WaitBounds waits() {
    return waits;
  }

  /** What this JVM wrote to these servers and what its reads saw. */
  public JvmLedger jvm() {
    return jvm;
  }

  /** Which GTIDs a replica shows are not this cluster's. */
  public ForeignGtids foreign() {
    return foreign;
  }

  /** The poller's rounds and whose turn it is to be the home of monotonic reads. */
  public PollRounds rounds() {
    return rounds;
  }

  /** The fallback budget this cluster's connections share. */
  public FallbackBudget fallbackBudget() {
    return fallbackBudget;
  }

  /** Classifies SQL sent through plain statements, remembering recent texts. */
  public ClassificationCache classifications() {
    return classifications;
  }

  /** The cluster's counters. */
  public ClusterMetrics metrics() {
    return metrics;
  }

  /** The name in messages and JMX: {@code ryow.clusterName}, or the primary's address. */
  public String name() {
    return settings.name();
  }

  /** {@link Members#servers()}. */
  public List<ReplicaEndpoint> servers() {
    return members.servers();
  }

  /** {@link PrimaryTracker#primary()}. */
  public PrimaryState primary() {
    return tracker.primary();
  }

  /** The server that takes writes now ({@link #primary()}'s endpoint). */
  public ReplicaEndpoint primaryEndpoint() {
    return tracker.primary().endpoint();
  }

  /** {@link PrimaryTracker#knownOnPrimary()}. */
  public Position knownOnPrimary() {
    return tracker.knownOnPrimary();
  }

  /**
   * The version of the servers' and the primary's state ({@link StateVersion}): health, known positions,
   * polls, the current primary. Not bumped when {@link #knownOnPrimary()} only grows.
   */
  public long stateVersion() {
    return stateVersion.current();
  }

  /**
   * A poll of {@code polled}, sent with {@code pollTicket}, found it writable: its position becomes the
   * primary's, unless the cluster moved to another server meanwhile (then the poll says nothing of the
   * primary and is dropped), and it decides the sources positions read before it left undecided
   * ({@link ForeignGtids#ofCluster}). Poller only. Returns whether it was taken.
   */
  public boolean primaryPolled(ReplicaEndpoint polled, PollSnapshot poll, long pollTicket) {
    if (!tracker.polled(polled, poll, pollTicket)) {
      return false;
    }
    foreign.decideUndecided(poll.position().visibleBound(), poll.startedNanos());
    return true;
  }

  /**
   * A connection to {@code server} failed: out of rotation until a probe succeeds. Called by the poller
   * and by every application thread that sees a failure; of those reporting at once, the one whose
   * compare-and-set took the server out is the one that counts and logs it.
   */
  public void unreachable(ReplicaEndpoint server, String why) {
    members.unreachable(server, why, System.nanoTime());
  }

  /** A poll's verdict on {@code server} (poller only); the primary's own health is left alone. */
  public void health(ReplicaEndpoint server, Health next, long lagMillis, String why) {
    if (server != primaryEndpoint()) {
      members.health(server, next, lagMillis, why);
    }
  }

  /** A logical connection opened (starts the poller if it is not running). */
  public void connectionOpened() {
    monitor.connectionOpened();
  }

  /** A logical connection closed (the poller stops once none remain for a moment). */
  public void connectionClosed() {
    monitor.connectionClosed();
    lease.cancelReservation();
  }

  /** Whether the background poller runs now. */
  public boolean pollerRunning() {
    return monitor.running();
  }

  /** Its life in the registry: reservations, idleness, MBean, successor. */
  Lease lease() {
    return lease;
  }

  /** A connection that reserved this cluster failed to open, or closed. */
  public void cancelReservation() {
    lease.cancelReservation();
  }

  /** Whether the cluster may be released now: no connection, idle for its timeout, poller stopped. */
  boolean releasable(long nowNanos) {
    return lease.idle(nowNanos) && !monitor.running();
  }

  /** Released by its registry: its MBean goes; {@code successor} finds the cluster created after it. */
  void release(Supplier<@Nullable Cluster> successor) {
    lease.released(successor);
    ClusterMBeans.unregister(this);
  }

  /**
   * This cluster, or, once it was released, the one that replaced it (if a connection created one):
   * what a connection that outlived the release reports as its cluster's counters.
   */
  public Cluster live() {
    Supplier<@Nullable Cluster> s = lease.successor();
    if (s == null) {
      return this;
    }
    Cluster next = s.get();
    return next == null ? this : next;
  }
}
