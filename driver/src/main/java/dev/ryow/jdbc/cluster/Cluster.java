package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.SelectionStrategy;
import dev.ryow.jdbc.config.UnknownGtidPolicy;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.metrics.ClusterMetrics;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.GroupMember;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.ServerPosition;
import dev.ryow.jdbc.sql.ClassificationCache;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What all logical connections to one set of servers share: every server of the URL and what is
 * known of it ({@link ReplicaEndpoint}), which one is the primary now, the fallback budget,
 * the per-replica waiter caps, the background poller and the metrics. One per
 * distinct {@link RyowConfig#clusterKey()}.
 */
public final class Cluster {
  private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);
  /**
   * Group Replication's largest group: the URL's hosts plus vacant places up to this many, for members the
   * poller finds in {@code replication_group_members} that the URL does not name.
   */
  static final int MAX_GROUP_MEMBERS = 9;

  private final String name;
  private final ConnectorJ connector;
  private final List<ReplicaEndpoint> servers;
  private final DistinctServers distinct;
  private final FallbackBudget fallbackBudget;
  private final int waitTimeoutMillis;
  private final BigDecimal waitTimeoutSeconds;
  /** {@link #waitSeconds}: the values below a second, made on first use. */
  private final @Nullable BigDecimal[] secondsByMillis;
  /** A read the replicas leave goes to the primary, without a cap: waits may be bounded ({@link #waitBoundMillis}). */
  private final boolean primaryUncapped;
  /** {@link #primaryPollTook}, {@link Smoothed}. */
  private final AtomicLong primaryCost = new AtomicLong(Smoothed.NONE);
  private final int failoverTimeoutMillis;
  private final SelectionStrategy strategy;
  private final ClusterMetrics metrics = new ClusterMetrics();
  private final ClassificationCache classifications = new ClassificationCache();
  private final AtomicInteger nextReplica = new AtomicInteger();
  /** Poll rounds finished: whose turn it is to be the JVM's home for monotonic reads (monotonic reads, in {@code route}). */
  private volatile int pollRounds;
  /** Whose turn it is to be the home of the JVM's monotonic reads; moved by the poller. */
  private final HomeTurns turns;
  /** When the last poll round finished ({@link System#nanoTime()}); meaningless while {@link #pollRounds} is 0. */
  private volatile long lastRoundEndNanos;
  private final ConsistencyMode consistency;
  private final UnknownGtidPolicy unknownGtids;
  private final TokenCodec tokenCodec;
  /**
   * What this JVM wrote to these servers and what its reads saw ({@link ConsistencyMode#JVM}): private
   * until the first login to the primary, then the one every cluster of the same primary shares.
   */
  private volatile JvmHistory jvm = JvmHistory.empty(false);
  /** Where the shared histories are found; null: this cluster keeps its own. */
  private final @Nullable JvmHistories histories;
  /** GTIDs the primary is known to have executed: our writes, and sets verified with GTID_SUBSET. */
  private final Watermark primaryExecuted = new Watermark();
  /** GTIDs a replica showed that a later poll of the primary found foreign ({@link ClusterGtids}), one interval per source. */
  private final AtomicReference<Position> foreign = new AtomicReference<>(Positions.EMPTY);
  /**
   * GTIDs of UUIDs a position read on demand showed that no poll of the primary had decided yet: the next poll
   * of the primary sent after the latest of those reads rules them in or out ({@link #decideUndecided}).
   */
  private final AtomicReference<UndecidedSources> undecided = new AtomicReference<>(UndecidedSources.NONE);

  /**
   * The settings and credentials of the latest logical connection that logged in to the primary: the
   * poller and primary discovery log in with them, so that they follow a password rotation.
   */
  private volatile RyowConfig login;
  private final java.util.concurrent.atomic.AtomicLong refusalLoggedNanos = new java.util.concurrent.atomic.AtomicLong();

  /** Connections open or opening (reserved through {@link ClusterRegistry}); the cluster is kept while there are any. */
  private final java.util.concurrent.atomic.AtomicInteger users = new java.util.concurrent.atomic.AtomicInteger();
  private volatile long idleSinceNanos = System.nanoTime();
  private final long idleTimeoutNanos;
  /** Set when released: finds the cluster that replaced this one, if any. */
  private volatile java.util.function.@Nullable Supplier<@Nullable Cluster> successor;
  private volatile javax.management.@Nullable ObjectName mbean;

  /** One round of primary discovery at a time. */
  private final ReentrantLock discovery = new ReentrantLock();
  /** Serialises {@link #memberFound}: the poller and a discovery round may take in members at once. */
  private final ReentrantLock members = new ReentrantLock();
  /** When the next round of primary discovery may begin ({@link System#nanoTime()}): one per poll interval. */
  private final AtomicLong nextRoundNanos = new AtomicLong(System.nanoTime());
  private final long roundIntervalNanos;
  /** What the last round that found no writable server saw of each host (for messages only). */
  private volatile String lastRoundSeen = "";
  /** Whether the last round of discovery that found no writable server could not reach some host. */
  private volatile boolean lastRoundMissedAHost;
  private final ClusterMonitor monitor;
  private final RotationLog rotationLog;
  /**
   * The primary, its epoch, position and last poll: one state, replaced by one compare-and-set (a move by
   * the thread holding {@link #discovery}, a poll's result by the poller, only while it is still about
   * the server it polled).
   */
  private final AtomicReference<PrimaryState> primary;
  /** How many primary polls were sent ({@link #primaryPollTicket}); also taken by a move of the primary. */
  private final AtomicLong primaryPolls = new AtomicLong();
  private final boolean monotonicReads;
  /** Bumped after each change of the servers' or the primary's state that read plans are made from. */
  private final StateVersion stateVersion = new StateVersion();

  /**
   * What the poller read on the primary.
   *
   * @param executed its {@code gtid_executed}
   * @param pollTicket the poll's {@link #primaryPollTicket}: what a watermark held when its stamp
   *     ({@link #primaryPollsSent}) was below this number had committed before the query was sent
   * @param polledAtNanos {@link System#nanoTime()} just before the query was sent: everything
   *     committed on the primary before that instant is in {@code executed}
   */
  public record PrimaryPosition(Position executed, long polledAtNanos, long pollTicket) {}

  /**
   * Numbers a primary poll just before its query is sent. A poll whose number is above a watermark's
   * stamp ({@link #primaryPollsSent} when it last grew) was sent after that growth: cheaper on a
   * write than {@link System#nanoTime()}.
   */
  public long primaryPollTicket() {
    return primaryPolls.incrementAndGet();
  }

  /** The stamp of a watermark that grows now: polls numbered above it are sent after. */
  public long primaryPollsSent() {
    return primaryPolls.get();
  }

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
    this.histories = histories;
    this.jvm.writes().advance(jvmWrites);
    this.name = config.clusterName();
    this.login = config;
    this.connector = connector;
    int maxWaiters = config.get(RyowProperties.MAX_WAITERS_PER_REPLICA);
    List<ReplicaEndpoint> all = new ArrayList<>();
    all.add(new ReplicaEndpoint(config.primary(), 0, maxWaiters, stateVersion));
    for (HostSpec replica : config.replicas()) {
      all.add(new ReplicaEndpoint(replica, all.size(), maxWaiters, stateVersion));
    }
    while (all.size() < MAX_GROUP_MEMBERS) {
      all.add(ReplicaEndpoint.vacant(config.primary(), all.size(), maxWaiters, stateVersion));
    }
    this.servers = List.copyOf(all);
    this.turns = new HomeTurns(servers.size());
    this.distinct = new DistinctServers(name, servers);
    this.primary = new AtomicReference<>(PrimaryState.first(servers.get(0), System.nanoTime()));
    servers.get(0).promote();
    this.fallbackBudget = new FallbackBudget(config);
    this.waitTimeoutMillis = config.get(RyowProperties.WAIT_TIMEOUT_MILLIS);
    this.waitTimeoutSeconds = BigDecimal.valueOf(waitTimeoutMillis, 3);
    this.secondsByMillis = new BigDecimal[Math.min(waitTimeoutMillis, 1_000)];
    this.primaryUncapped = config.get(RyowProperties.FALLBACK) == dev.ryow.jdbc.config.FallbackMode.PRIMARY
        && config.get(RyowProperties.FALLBACK_RATE) == 0;
    this.failoverTimeoutMillis = config.get(RyowProperties.FAILOVER_TIMEOUT_MILLIS);
    this.roundIntervalNanos = TimeUnit.MILLISECONDS.toNanos(config.get(RyowProperties.POLL_INTERVAL_MILLIS));
    this.strategy = config.get(RyowProperties.REPLICA_SELECTION);
    this.monitor = new ClusterMonitor(this, config, connector);
    this.rotationLog = new RotationLog(name, servers.size());
    this.consistency = config.get(RyowProperties.CONSISTENCY);
    this.unknownGtids = config.get(RyowProperties.UNKNOWN_GTIDS);
    this.tokenCodec = TokenCodec.of(config);
    this.idleTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.get(RyowProperties.CLUSTER_IDLE_TIMEOUT_MILLIS));
    this.monotonicReads = config.get(RyowProperties.MONOTONIC_READS);
  }

  /**
   * A connection logged in to the primary, whose {@code server_uuid} is {@code primaryUuid}: at the first
   * login the cluster joins the JVM history of that server, shared with every other cluster of it
   * ({@link JvmHistories}); later logins (after a failover) register the history for the new primary.
   */
  public void primaryIdentified(String primaryUuid) {
    JvmHistories h = histories;
    if (h == null) {
      return;
    }
    JvmHistory current = jvm;
    if (current.shared()) {
      h.alias(primaryUuid, current);
      return;
    }
    JvmHistory shared = h.join(primaryUuid, current);
    jvm = shared; // concurrent first logins join the same one
    shared.writes().advance(current.writes().current()); // a write recorded meanwhile is kept
  }

  /** {@code ryow.monotonicReads}. */
  public boolean monotonicReads() {
    return monotonicReads;
  }

  /** What every read of this JVM through this cluster saw. */
  public ReadWatermark jvmReads() {
    return jvm.reads();
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

  /**
   * A poll that bounds a read of the server {@code uuid} completed at {@code completedNanos}: that
   * server's own poll sent after the read; or, when the server is unknown here, unreachable, or was
   * found reset by a poll sent after the read, a poll of the primary sent after the read (a replica
   * only shows transactions the primary has in its binary log, which the primary owns or has executed).
   * Null when no poll bounds it yet.
   */
  public @Nullable PollSnapshot pollBounding(String uuid, long completedNanos) {
    ReplicaEndpoint e = ReadWatermark.ANY_SERVER.equals(uuid) ? null : serverByUuid(uuid);
    if (e != null) {
      PollSnapshot own = e.lastPoll();
      if (own != null && own.bounds(uuid, completedNanos)) {
        return own;
      }
      boolean reset = own != null && own.everReset() && own.resetStartedNanos() - completedNanos > 0;
      if (!reset && e.health() != Health.UNREACHABLE) {
        return null;
      }
    }
    PollSnapshot p = primaryPoll();
    return p != null && p.startedNanos() - completedNanos > 0 ? p : null;
  }

  /** The last poll of the current primary, or null. */
  public @Nullable PollSnapshot primaryPoll() {
    return primary().poll();
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

  /**
   * Records a write that a connection of this cluster made on the primary, and returns what the
   * writer's watermarks should add: {@code gtids} with the gaps below them filled from what the
   * primary is known to have executed (see {@link GtidSet#filledFrom}). Waiting for those costs
   * nothing more (a replica applies in the primary's commit order) and keeps watermarks and tokens a
   * few intervals long, where one's own GTIDs alone would add an interval per write.
   */
  public Position wrote(Position gtids) {
    primaryExecuted.advance(gtids);
    Position covering = gtids.filledFrom(primaryExecuted.current());
    jvm.writes().advance(covering);
    return covering;
  }

  /**
   * {@link #wrote} for the one GTID a write's OK packet reported as {@code text}, without parsing it into
   * a set of its own, when it directly follows what the primary is known to have executed (one interval
   * of one source: the primary's consecutive writes). Then the known set plus that GTID is also what the
   * writer's watermarks add (the GTID with the gaps below it filled): it joins the JVM's writes and
   * {@code writer}, each by one compare-and-set while they still hold the known set. Null when it does
   * not follow: nothing was recorded, the caller parses {@code text} and calls {@link #wrote}.
   */
  public @Nullable Position wroteNext(String text, Watermark writer) {
    Position known = primaryExecuted.current();
    // MySQL's OK-packet text only (GtidTracker); any other kind is parsed by the caller.
    Position covering = known instanceof GtidSet g ? g.plusNext(text) : null;
    if (covering != null) {
      primaryExecuted.advanceFrom(known, covering);
      jvm.writes().advanceFrom(known, covering);
      writer.advanceFrom(known, covering);
    }
    return covering;
  }

  /** Every write through this cluster's connections in this JVM. */
  public Position jvmWrites() {
    return jvm.writes().current();
  }

  /** A set the primary has certainly executed (it only lags behind the truth). */
  public Position knownOnPrimary() {
    return primaryExecuted.current();
  }

  /**
   * The part of {@code seen}, a position read at {@code readStartedNanos} ({@code ofPrimary}: on the primary),
   * that may bound later reads: the GTIDs of this cluster's UUIDs ({@link ClusterGtids}); {@code seen} itself
   * when nothing in it is foreign. Null when that is not decided yet (a UUID that no poll of the primary sent
   * after the read has named or ruled out): the reads it would bound stay pending. While the primary is lost
   * nothing can decide it, and the whole position counts.
   */
  @SuppressWarnings("ReferenceEquality") // identity: the rule returns the position itself when it keeps all of it
  public @Nullable ServerPosition ofCluster(ServerPosition seen, long readStartedNanos, boolean ofPrimary) {
    Position known = knownOnPrimary();
    Position after = null;
    ServerPosition kept = ClusterGtids.ofCluster(seen, known, null, Positions.EMPTY);
    if (kept == seen) {
      return seen;
    }
    if (ofPrimary) {
      after = seen.visibleBound();
    } else {
      PollSnapshot p = primaryPoll();
      if (p != null && p.startedNanos() - readStartedNanos >= 0) {
        after = p.position().visibleBound();
      }
    }
    kept = ClusterGtids.ofCluster(seen, known, after, Objects.requireNonNull(foreign.get()));
    if (kept != null && after != null) {
      Position dropped = ClusterGtids.dropped(seen, kept);
      if (!dropped.isEmpty()) {
        foreign.accumulateAndGet(dropped, (a, b) -> a.union(b).spanned());
      }
    }
    if (kept == null && primaryLost()) {
      // No poll of the primary can decide while it is lost: the position counts whole (as before the rule),
      // so that reads the replicas can serve are not held pending until the primary returns.
      return seen;
    }
    if (kept == null) {
      // Undecided: a position read on demand is always newer than the last poll of the primary, so without
      // this note no poll would ever decide it, and each read leaving that replica would run on the primary.
      Position unnamed = seen.executed().union(seen.owned())
          .bySourcesOf(known, Objects.requireNonNull(foreign.get()), false).spanned();
      undecided.accumulateAndGet(new UndecidedSources(unnamed, readStartedNanos), UndecidedSources::and);
    }
    return kept;
  }

  /**
   * A poll of the primary, sent at {@code pollStartedNanos}, that showed {@code primaryAfter} (its executed ∪
   * owned GTIDs) decides the UUIDs positions read before it left undecided ({@link #ofCluster}): those it does
   * not name are foreign. Poller only.
   */
  private void decideUndecided(Position primaryAfter, long pollStartedNanos) {
    UndecidedSources u = Objects.requireNonNull(undecided.get());
    if (u.sources().isEmpty() || pollStartedNanos - u.latestReadNanos() < 0) {
      return; // nothing to decide, or a read after this poll was sent: the next poll decides them all
    }
    Position ruledOut = u.sources().bySourcesOf(primaryAfter, knownOnPrimary(), false).spanned();
    if (!ruledOut.isEmpty()) {
      foreign.accumulateAndGet(ruledOut, (a, b) -> a.union(b).spanned());
    }
    undecided.compareAndSet(u, UndecidedSources.NONE); // lost to a newer note: the next poll decides it
  }

  /** The GTIDs replicas showed that polls of the primary found foreign to this cluster ({@link #ofCluster}). */
  public Position foreignSeen() {
    return Objects.requireNonNull(foreign.get());
  }

  /** Records that the primary has executed {@code gtids} (verified, or read from it). */
  public void primaryHas(Position gtids) {
    primaryExecuted.advance(gtids);
  }

  /** The name in messages and JMX: {@code ryow.clusterName}, or the primary's address. */
  public String name() {
    return name;
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

  /**
   * The primary now: which server, since which move, and what it was last polled to have executed. A
   * caller that needs more than one of these reads them from one state (one volatile read).
   */
  public PrimaryState primary() {
    return Objects.requireNonNull(primary.get());  // never set to null
  }

  /** The server that takes writes now ({@link #primary()}'s endpoint). */
  public ReplicaEndpoint primaryEndpoint() {
    return primary().endpoint();
  }

  /** Grows by one each time the cluster moves to a different primary ({@link #primary()}'s epoch). */
  public long primaryEpoch() {
    return primary().epoch();
  }

  /**
   * The version of the servers' and the primary's state ({@link StateVersion}): health, known positions,
   * polls, the current primary. Not bumped when {@link #knownOnPrimary()} only grows.
   */
  public long stateVersion() {
    return stateVersion.current();
  }

  /** What the primary had executed at the last poll (it only lags behind the truth). */
  public PrimaryPosition primaryPosition() {
    return primary().position();
  }

  /**
   * A poll of {@code polled}, sent with {@code pollTicket}, found it writable: its position becomes the
   * primary's, unless the cluster moved to another server meanwhile (then the poll says nothing of the
   * primary and is dropped). Poller only. Returns whether it was taken.
   */
  public boolean primaryPolled(ReplicaEndpoint polled, PollSnapshot poll, long pollTicket) {
    // Known on the primary before the state says so; should a move come first, forgotten again below.
    primaryExecuted.advance(poll.position().executed());
    PrimaryState current;
    do {
      current = primary();
      if (current.endpoint() != polled) {
        // A move won meanwhile, and may have cleared the known set before the line above: clear it again.
        primaryExecuted.clear();
        return false;
      }
    } while (!primary.compareAndSet(current, current.polled(poll, pollTicket)));
    stateVersion.bump();
    decideUndecided(poll.position().visibleBound(), poll.startedNanos());
    if (current.lost()) {
      outageOver(current);
    }
    return true;
  }

  /**
   * The index of the replica whose turn it is to be the home of the JVM's monotonic reads this poll round
   * ({@link TurnRule}), or {@link TurnRule#NONE}.
   */
  public int homeTurn() {
    return turns.turn();
  }

  /** Poll rounds the poller has finished (it alone writes it). */
  public int pollRounds() {
    return pollRounds;
  }

  /** When the last poll round finished ({@link System#nanoTime()}); meaningless before the first. */
  public long lastRoundEndNanos() {
    return lastRoundEndNanos;
  }

  /** The poller finished a round at {@code nowNanos}. */
  @SuppressWarnings("NonAtomicVolatileUpdate") // one writer, the poller's thread: readers only need to see it
  public void pollRoundDone(long nowNanos) {
    if (turns.roundDone(servers, primaryEndpoint())) {
      stateVersion.bump(); // a plan remembered at the old home must be made again
    }
    lastRoundEndNanos = nowNanos;
    pollRounds = pollRounds + 1;
  }

  /** Where the next logical connection starts its round-robin walk over the servers. */
  public int nextReplicaStart() {
    return nextReplica.getAndIncrement();
  }

  /** {@code ryow.replicaSelection}. */
  public SelectionStrategy strategy() {
    return strategy;
  }

  /** The fallback budget this cluster's connections share. */
  public FallbackBudget fallbackBudget() {
    return fallbackBudget;
  }

  /** {@code ryow.waitTimeout} in milliseconds. */
  public int waitTimeoutMillis() {
    return waitTimeoutMillis;
  }

  /** {@code ryow.waitTimeout} in seconds, as bound to {@code WAIT_FOR_EXECUTED_GTID_SET}. */
  public BigDecimal waitTimeoutSeconds() {
    return waitTimeoutSeconds;
  }

  /**
   * {@code millis} as the seconds bound to a wait: {@link #waitTimeoutSeconds} from {@code ryow.waitTimeout}
   * up; shorter ones are made once each (below a second) and shared, so a bounded wait allocates nothing.
   */
  public BigDecimal waitSeconds(long millis) {
    if (millis >= waitTimeoutMillis) {
      return waitTimeoutSeconds;
    }
    int i = (int) Math.max(1, millis);
    if (i >= secondsByMillis.length) {
      return BigDecimal.valueOf(i, 3);
    }
    BigDecimal s = secondsByMillis[i]; // a race makes an equal value twice: BigDecimal is immutable
    if (s == null) {
      s = BigDecimal.valueOf(i, 3);
      secondsByMillis[i] = s;
    }
    return s;
  }

  /** A poll of the primary took {@code nanos}: a round trip with a small read, what a read there costs. */
  public void primaryPollTook(long nanos) {
    Smoothed.add(primaryCost, nanos);
  }

  /**
   * How long a read may wait on {@code replica}, in milliseconds ({@link WaitBound}): {@code ryow.waitTimeout},
   * or less once its normal wait and the primary's cost are known, when the primary takes every read the
   * replicas leave ({@code ryow.fallback=primary} with no {@code ryow.fallbackRate} cap: the defaults).
   */
  public long waitBoundMillis(ReplicaEndpoint replica) {
    long waits = replica.smoothedWait();
    long micros = WaitBound.micros(primaryUncapped, waitTimeoutMillis * 1_000L, Smoothed.smoothedMicros(waits),
        Smoothed.deviationMicros(waits), Smoothed.smoothedMicros(primaryCost.get()), Smoothed.backoff(waits));
    return (micros + 999) / 1_000;
  }

  /** The primary's poll round trips, smoothed ({@link Smoothed}; {@link Smoothed#NONE} before the first). */
  public long primaryCost() {
    return primaryCost.get();
  }

  /** Classifies SQL sent through plain statements, remembering recent texts. */
  public ClassificationCache classifications() {
    return classifications;
  }

  /** {@code ryow.pollInterval} in milliseconds: also the pace of primary discovery. */
  public long pollIntervalMillis() {
    return TimeUnit.NANOSECONDS.toMillis(roundIntervalNanos);
  }

  /** {@code ryow.failoverTimeout} in milliseconds. */
  public int failoverTimeoutMillis() {
    return failoverTimeoutMillis;
  }

  /** The cluster's counters. */
  public ClusterMetrics metrics() {
    return metrics;
  }

  /** A logical connection opened (starts the poller if it is not running). */
  public void connectionOpened() {
    monitor.connectionOpened();
  }

  /** A logical connection closed (the poller stops once none remain for a moment). */
  public void connectionClosed() {
    monitor.connectionClosed();
    cancelReservation();
  }

  /** One more connection is opening ({@link ClusterRegistry#reserve}): the cluster is not released meanwhile. */
  void reserve() {
    users.incrementAndGet();
  }

  /** A connection that reserved this cluster failed to open, or closed. */
  public void cancelReservation() {
    if (users.updateAndGet(n -> Math.max(0, n - 1)) == 0) {
      idleSinceNanos = System.nanoTime();
    }
  }

  /** {@code ryow.clusterIdleTimeout}. */
  long idleTimeoutMillis() {
    return TimeUnit.NANOSECONDS.toMillis(idleTimeoutNanos);
  }

  /** Whether the cluster may be released now: no connection, idle for its timeout, poller stopped. */
  boolean releasable(long nowNanos) {
    return users.get() == 0 && nowNanos - idleSinceNanos >= idleTimeoutNanos && !monitor.running();
  }

  /**
   * The JVM's writes through this cluster and, with monotonic reads, what its reads saw (resolved by the
   * polls, which ran after the last read: the poller outlives the last connection), unless every replica
   * is known to have executed them (then empty). The successor waits for them as for its own writes.
   */
  Position writesNotKnownOnEveryReplica() {
    JvmHistory history = jvm;
    Position writes = history.writes().current();
    if (monotonicReads) {
      history.reads().resolve(this);
      writes = writes.union(history.reads().bound().full());
    }
    for (ReplicaEndpoint e : servers) {
      if (e != primaryEndpoint() && !e.vacant() && !e.knownExecuted().contains(writes)) {
        return writes;
      }
    }
    return Positions.EMPTY;
  }

  /** Released by its registry: its MBean goes; {@code successor} finds the cluster created after it. */
  void release(java.util.function.Supplier<@Nullable Cluster> successor) {
    this.successor = successor;
    ClusterMBeans.unregister(this);
  }

  /**
   * This cluster, or, once it was released, the one that replaced it (if a connection created one):
   * what a connection that outlived the release reports as its cluster's counters.
   */
  public Cluster live() {
    java.util.function.Supplier<@Nullable Cluster> s = successor;
    if (s == null) {
      return this;
    }
    Cluster next = s.get();
    return next == null ? this : next;
  }

  /** The name its MBean was registered under, null when none is. */
  javax.management.@Nullable ObjectName mbean() {
    return mbean;
  }

  void registeredAs(javax.management.@Nullable ObjectName name) {
    mbean = name;
  }

  /** Whether the background poller runs now. */
  public boolean pollerRunning() {
    return monitor.running();
  }

  /**
   * A logical connection logged in to the primary with {@code config}'s credentials: from now on the
   * poller and primary discovery open their connections with them (a password rotation reaches the
   * cluster with the first connection that uses the new password).
   */
  public void loggedIn(RyowConfig config) {
    login = config;
  }

  /** The settings and credentials the poller and primary discovery open their connections with. */
  public RyowConfig monitorConfig() {
    return login;
  }

  /**
   * The poller's login to {@code server} was refused (credentials rotated since the latest logical
   * connection logged in, or an account without access there): the server answered, so its health
   * stays as it was; logged at WARN at most once a minute.
   */
  void credentialsRefused(ReplicaEndpoint server, SQLException failure) {
    long now = System.nanoTime();
    long last = refusalLoggedNanos.get();
    if ((last == 0 || now - last >= TimeUnit.MINUTES.toNanos(1)) && refusalLoggedNanos.compareAndSet(last, now | 1)) {
      LOG.warn("[{}] the poller's login to {} was refused ({}); its health is left as it was until a connection logs"
          + " in with credentials that work (password rotated?)", name, server, failure.getMessage());
    }
  }

  /**
   * A connection to {@code server} failed: out of rotation until a probe succeeds. Called by the poller
   * and by every application thread that sees a failure; of those reporting at once, the one whose
   * compare-and-set took the server out is the one that counts and logs it.
   */
  public void unreachable(ReplicaEndpoint server, String why) {
    unreachable(server, why, System.nanoTime());
  }

  /** {@link #unreachable(ReplicaEndpoint, String)} for a failure seen at {@code nowNanos} ({@link System#nanoTime()}). */
  void unreachable(ReplicaEndpoint server, String why, long nowNanos) {
    HealthState previous = server.unreachable(why, nowNanos);
    if (previous != null && previous.health() != Health.UNREACHABLE) {
      metrics.replicaFailed();
      rotationLog.out(server, Health.UNREACHABLE, why, nowNanos);
    }
  }

  /** A poll's verdict on {@code server} (poller only); the primary's own health is left alone. */
  public void health(ReplicaEndpoint server, Health next, long lagMillis, String why) {
    if (server == primaryEndpoint()) {
      return;
    }
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

  /**
   * Waits for the writable server after {@code why} (the primary was unreachable or read-only at
   * {@code failedAtNanos}), for up to {@code budgetMillis}: a running connection's statement keeps its
   * connection through a failover. Rounds of discovery ({@link #findWritable}: the current primary
   * first, then the other hosts) are shared by every thread of the cluster and paced: at most one round
   * begins per {@code ryow.pollInterval} (one {@link #nextRoundNanos} compare-and-set picks the thread
   * that runs it), the others sleep until it is due and take its answer. Returns at once when another
   * thread already moved the cluster past {@code seenEpoch} or found the primary writable after
   * {@code failedAtNanos}.
   *
   * @return the primary to use now
   * @throws SQLTransientConnectionException when no writable server was found in time
   */
  public ReplicaEndpoint discoverPrimary(long seenEpoch, long failedAtNanos, long budgetMillis, String why)
      throws SQLException {
    return discover(seenEpoch, failedAtNanos, budgetMillis, why, budgetMillis);
  }

  /**
   * One round's verdict for a login (or a read, which never waits for a failover on the primary): the
   * answer of the first round of discovery that began after {@code failedAtNanos}, run by this thread
   * when one is due, else by whichever thread runs the next; waits for it at most {@code waitMillis}.
   *
   * @throws SQLTransientConnectionException when that round found no writable server, or none ended in time
   */
  public ReplicaEndpoint discoverPrimaryOnce(long seenEpoch, long failedAtNanos, String why, long waitMillis)
      throws SQLException {
    return discover(seenEpoch, failedAtNanos, 0, why, waitMillis);
  }

  /**
   * The poller found the primary of {@code state} unreachable or read-only at {@code failedAtNanos}: runs
   * a round of discovery if one is due, and returns at once otherwise (another thread's round is
   * recent or running; the poller never waits for one).
   */
  void primaryTroubleSeenByPoller(PrimaryState state, long failedAtNanos, String why) {
    long now = System.nanoTime();
    long due = nextRoundNanos.get();
    if (now - due >= 0 && nextRoundNanos.compareAndSet(due, now + roundIntervalNanos)) {
      round(state.epoch(), why);
    }
  }

  private ReplicaEndpoint discover(long seenEpoch, long failedAtNanos, long budgetMillis, String why, long waitMillis)
      throws SQLException {
    long start = System.nanoTime();
    long end = start + TimeUnit.MILLISECONDS.toNanos(Math.max(budgetMillis, waitMillis));
    while (true) {
      PrimaryState known = primary();
      if (known.epoch() != seenEpoch || known.confirmedNanos() - failedAtNanos > 0) {
        return known.endpoint();
      }
      if (budgetMillis == 0 && known.lost() && known.lostNanos() - failedAtNanos > 0) {
        throw noWritable(why, true);
      }
      long now = System.nanoTime();
      long due = nextRoundNanos.get();
      if (now - due >= 0 && nextRoundNanos.compareAndSet(due, now + roundIntervalNanos)) {
        ReplicaEndpoint found = round(seenEpoch, why);
        if (found != null) {
          return found;
        }
        continue; // its verdict is in the state: the checks above decide
      }
      if (now - end >= 0) {
        throw noWritable(why, budgetMillis == 0);
      }
      long sleep = Math.min(Math.max(due - now, 1_000_000L), end - now);
      try {
        TimeUnit.NANOSECONDS.sleep(Math.max(sleep, 1_000_000L));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLTransientConnectionException("Interrupted while looking for the primary", "08001", e);
      }
    }
  }

  /**
   * One round of discovery (one thread at a time): the writable server, or null when none is (the
   * primary is then {@link PrimaryState#lost lost}, logged once per outage) or another round still runs.
   */
  private @Nullable ReplicaEndpoint round(long seenEpoch, String why) {
    if (!discovery.tryLock()) {
      return null; // the round before this one still runs (slow hosts): its verdict comes soon
    }
    try {
      long started = System.nanoTime();
      PrimaryState known = primary();
      if (known.epoch() != seenEpoch) {
        return known.endpoint();
      }
      StringBuilder seen = new StringBuilder();
      ReplicaEndpoint found = findWritable(known.endpoint(), seen);
      if (found != null) {
        return found == known.endpoint() ? confirm(known.endpoint(), started) : moveTo(found, why);
      }
      lastRoundSeen = seen.toString();
      lastRoundMissedAHost = lastRoundSeen.contains(" unreachable; ");
      lost(known.endpoint(), started, why);
      return null;
    } finally {
      discovery.unlock();
    }
  }

  /** What a statement throws that found no writable server within {@code ryow.failoverTimeout}. */
  public SQLTransientConnectionException noWritablePrimary(String why) {
    return noWritable(why, false);
  }

  /**
   * What a statement that needs the primary throws when the primary died ({@code why}) at
   * {@code sinceNanos} and no server became writable within {@code boundMillis} (the route package's
   * {@code PrimaryWaitRule}): a
   * retryable {@code HYT01} (not an 08xxx, which a pool takes for a broken connection: this one still
   * serves reads) that says since when.
   */
  public SQLTransientException primaryUnreachable(String why, long sinceNanos, long boundMillis) {
    long agoMillis = Math.max(0, (System.nanoTime() - sinceNanos) / 1_000_000);
    java.time.Instant since = java.time.Instant.ofEpochMilli(System.currentTimeMillis() - agoMillis);
    long bound = Math.min(boundMillis, failoverTimeoutMillis);
    return new SQLTransientException("[" + name + "] the primary " + primaryEndpoint() + " is unreachable since "
        + since + " (" + agoMillis + " ms ago) and no other server among " + hosts() + " is writable (" + why + "; "
        + lastRoundSeen + "): the statement was not run. Retry it later: the primary's return or a new primary takes"
        + " writes again, and reads go on on the replicas meanwhile. A statement waits " + bound + " ms at most for"
        + " a new primary after the primary's death (up to " + RyowProperties.FAILOVER_TIMEOUT_MILLIS.name() + "="
        + failoverTimeoutMillis + " ms while it answers read-only: a switchover).", "HYT01");
  }

  private SQLTransientConnectionException noWritable(String why, boolean oneRound) {
    if (oneRound) {
      return new SQLTransientConnectionException(
          "No writable server among " + hosts() + " (" + why + "; " + lastRoundSeen + ") in one round of primary"
              + " discovery (new connections and reads look once; a running connection's writes look for up to "
              + RyowProperties.FAILOVER_TIMEOUT_MILLIS.name() + "=" + failoverTimeoutMillis + " ms): check the"
              + " servers' read_only/super_read_only.",
          "08001");
    }
    return new SQLTransientConnectionException(
        "No writable server among " + hosts() + " (" + why + "; " + lastRoundSeen + ") within "
            + RyowProperties.FAILOVER_TIMEOUT_MILLIS.name() + "=" + failoverTimeoutMillis + " ms: check the"
            + " servers' read_only/super_read_only, or raise " + RyowProperties.FAILOVER_TIMEOUT_MILLIS.name() + ".",
        "08001");
  }

  /**
   * A logical connection just logged in to {@code endpoint} and found it writable: when it is still the
   * primary and was {@linkplain PrimaryState#lost lost}, its outage is over.
   */
  public void primaryReachable(ReplicaEndpoint endpoint) {
    PrimaryState current = primary();
    if (current.endpoint() == endpoint && current.lost()) {
      confirm(endpoint, System.nanoTime());
    }
  }

  /**
   * Whether the last round of discovery that found no writable server could not reach one of the hosts: a
   * server died (no planned switchover leaves a host unreachable), even if the primary this cluster knows
   * answers, read-only.
   */
  public boolean lastRoundMissedAHost() {
    return lastRoundMissedAHost;
  }

  /** Whether the primary is known to be lost now: a discovery round found no writable server since it was last seen. */
  public boolean primaryLost() {
    return primary().lost();
  }

  private @Nullable ReplicaEndpoint findWritable(ReplicaEndpoint primary, StringBuilder seen) {
    List<ReplicaEndpoint> order = new ArrayList<>(servers.size());
    order.add(primary);
    for (ReplicaEndpoint e : servers) {
      if (e != primary && !e.vacant()) {
        order.add(e);
      }
    }
    List<GroupMember> group = List.of();
    for (ReplicaEndpoint e : order) {
      try (PhysicalConnection c = connector.openMonitor(login, e.host())) {
        if (!c.identity().readOnly()) {
          return e;
        }
        seen.append(e).append(" read-only; ");
        if (group.isEmpty()) {
          group = groupSeenBy(c);
        }
      } catch (SQLException failure) {
        seen.append(e).append(" unreachable; ");
      }
    }
    return electedElsewhere(group, order, seen);
  }

  /** The group as the member behind {@code c} sees it; empty for a server outside a group or a failed query. */
  private List<GroupMember> groupSeenBy(PhysicalConnection c) {
    try {
      return c.readGroupMembers();
    } catch (SQLException e) {
      LOG.debug("[{}] reading the group's members on {} failed: {}", name, c.host(), e.getMessage());
      return List.of();
    }
  }

  /**
   * No server of {@code tried} is writable: a group may have elected a member neither the URL nor a poll
   * named. The members another member sees ({@code group}) are taken in as the poller would take them
   * ({@link GroupMemberRule}), and the election's winner is tried at once.
   */
  private @Nullable ReplicaEndpoint electedElsewhere(List<GroupMember> group, List<ReplicaEndpoint> tried,
      StringBuilder seen) {
    for (GroupMember m : group) {
      GroupMemberRule.Member what = GroupMemberRule.decide(m.state(), m.role());
      if (what == GroupMemberRule.Member.IGNORE) {
        continue;
      }
      memberFound(m.uuid(), new HostSpec(m.host(), m.port()));
      ReplicaEndpoint e = serverByUuid(m.uuid());
      if (what != GroupMemberRule.Member.ADOPT_AND_TRY || e == null || tried.contains(e)) {
        continue;
      }
      try (PhysicalConnection c = connector.openMonitor(login, e.host())) {
        if (!c.identity().readOnly()) {
          LOG.info("[{}] the group's primary is {} (server_uuid {}), a member this cluster had not polled", name,
              e.host(), m.uuid());
          return e;
        }
        seen.append(e).append(" read-only; ");
      } catch (SQLException failure) {
        seen.append(e).append(" unreachable; ");
      }
    }
    return null;
  }

  /**
   * The current primary {@code endpoint} was found writable at {@code atNanos}; returns it. Logged when it
   * was lost (its outage is over).
   */
  private ReplicaEndpoint confirm(ReplicaEndpoint endpoint, long atNanos) {
    PrimaryState current;
    do {
      current = primary();
      if (current.endpoint() != endpoint || (!current.lost() && current.confirmedNanos() - atNanos >= 0)) {
        return endpoint;
      }
    } while (!primary.compareAndSet(current, current.confirmed(atNanos)));
    if (current.lost()) {
      outageOver(current);
    }
    return endpoint;
  }

  /** The primary of {@code lost} answers as the writable primary again: logged once per outage. */
  private void outageOver(PrimaryState lost) {
    stateVersion.bump();
    LOG.info("[{}] the primary {} is writable again (outage {} of this cluster over)", name, lost.endpoint(),
        lost.outages());
  }

  /**
   * A round that began at {@code startedNanos} found no writable server: the primary {@code endpoint} is
   * lost (unless it was found writable since the round began). The thread whose compare-and-set began the
   * outage logs it.
   */
  private void lost(ReplicaEndpoint endpoint, long startedNanos, String why) {
    PrimaryState current;
    PrimaryState next;
    do {
      current = primary();
      if (current.endpoint() != endpoint) {
        return;
      }
      next = current.lostAt(startedNanos);
      if (next == null) {
        return;
      }
    } while (!primary.compareAndSet(current, next));
    if (!current.lost()) {
      stateVersion.bump();
      LOG.warn("[{}] no writable server ({}; {}): reads go on on the replicas; writes fail fast after a short wait"
          + " while the primary is unreachable, and wait up to {}={} ms while it answers read-only (a switchover)",
          name, why, lastRoundSeen, RyowProperties.FAILOVER_TIMEOUT_MILLIS.name(), failoverTimeoutMillis);
    }
  }

  /**
   * Moves the cluster to {@code found}: one compare-and-set installs the new endpoint, epoch and empty
   * position together; the thread whose compare-and-set made the move (one, whatever the callers) swaps
   * the two servers' health, counts and logs it. Returns the primary now.
   */
  private ReplicaEndpoint moveTo(ReplicaEndpoint found, String why) {
    long ticket = primaryPollTicket();
    long now = System.nanoTime();
    PrimaryState current;
    PrimaryState moved;
    do {
      current = primary();
      if (current.endpoint() == found) {
        return found;
      }
      // Empty, and after every watermark's stamp: each is checked against the new primary (forgetting).
      moved = current.movedTo(found, ticket, now);
    } while (!primary.compareAndSet(current, moved));
    ReplicaEndpoint old = current.endpoint();
    // What the old primary executed says nothing of the new one (it may have lost some of it).
    primaryExecuted.clear();
    found.promote();
    old.demote("was the primary until " + why);
    stateVersion.bump();
    metrics.primaryFailedOver();
    LOG.warn("[{}] primary moved from {} to {} ({})", name, old, found, why);
    return found;
  }

  private String hosts() {
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
