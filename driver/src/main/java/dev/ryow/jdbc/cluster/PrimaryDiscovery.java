package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.GroupMember;
import dev.ryow.jdbc.server.PhysicalConnection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the writable server when the primary is unreachable or read-only: rounds of discovery over every
 * host (the current primary first, then the others, then a group's elected member no host names), shared
 * by every thread of the cluster and paced to one per {@code ryow.pollInterval}; their verdicts go to the
 * {@link PrimaryTracker}. Also the messages of a statement that found no writable server.
 */
public final class PrimaryDiscovery {
  private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);

  private final String name;
  private final int failoverTimeoutMillis;
  private final ConnectorJ connector;
  private final Logins logins;
  private final Members members;
  private final PrimaryTracker tracker;
  /** One round of primary discovery at a time. */
  private final ReentrantLock discovery = new ReentrantLock();
  /** When the next round of primary discovery may begin ({@link System#nanoTime()}): one per poll interval. */
  private final AtomicLong nextRoundNanos = new AtomicLong(System.nanoTime());
  private final long roundIntervalNanos;
  /** What the last round that found no writable server saw of each host (for messages only). */
  private volatile String lastRoundSeen = "";
  /** Whether the last round of discovery that found no writable server could not reach some host. */
  private volatile boolean lastRoundMissedAHost;

  PrimaryDiscovery(ClusterSettings settings, ConnectorJ connector, Logins logins, Members members,
      PrimaryTracker tracker) {
    this.name = settings.name();
    this.failoverTimeoutMillis = settings.failoverTimeoutMillis();
    this.roundIntervalNanos = TimeUnit.MILLISECONDS.toNanos(settings.pollIntervalMillis());
    this.connector = connector;
    this.logins = logins;
    this.members = members;
    this.tracker = tracker;
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
      PrimaryState known = tracker.primary();
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
      PrimaryState known = tracker.primary();
      if (known.epoch() != seenEpoch) {
        return known.endpoint();
      }
      StringBuilder seen = new StringBuilder();
      ReplicaEndpoint found = findWritable(known.endpoint(), seen);
      if (found != null) {
        return found == known.endpoint() ? tracker.confirm(known.endpoint(), started) : tracker.moveTo(found, why);
      }
      lastRoundSeen = seen.toString();
      lastRoundMissedAHost = lastRoundSeen.contains(" unreachable; ");
      tracker.lost(known.endpoint(), started, why, lastRoundSeen);
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
    return new SQLTransientException("[" + name + "] the primary " + tracker.primary().endpoint()
        + " is unreachable since " + since + " (" + agoMillis + " ms ago) and no other server among " + members.hosts()
        + " is writable (" + why + "; "
        + lastRoundSeen + "): the statement was not run. Retry it later: the primary's return or a new primary takes"
        + " writes again, and reads go on on the replicas meanwhile. A statement waits " + bound + " ms at most for"
        + " a new primary after the primary's death (up to " + RyowProperties.FAILOVER_TIMEOUT_MILLIS.name() + "="
        + failoverTimeoutMillis + " ms while it answers read-only: a switchover).", "HYT01");
  }

  private SQLTransientConnectionException noWritable(String why, boolean oneRound) {
    if (oneRound) {
      return new SQLTransientConnectionException(
          "No writable server among " + members.hosts() + " (" + why + "; " + lastRoundSeen + ") in one round of"
              + " primary discovery (new connections and reads look once; a running connection's writes look for up to "
              + RyowProperties.FAILOVER_TIMEOUT_MILLIS.name() + "=" + failoverTimeoutMillis + " ms): check the"
              + " servers' read_only/super_read_only.",
          "08001");
    }
    return new SQLTransientConnectionException(
        "No writable server among " + members.hosts() + " (" + why + "; " + lastRoundSeen + ") within "
            + RyowProperties.FAILOVER_TIMEOUT_MILLIS.name() + "=" + failoverTimeoutMillis + " ms: check the"
            + " servers' read_only/super_read_only, or raise " + RyowProperties.FAILOVER_TIMEOUT_MILLIS.name() + ".",
        "08001");
  }

  /**
   * Whether the last round of discovery that found no writable server could not reach one of the hosts: a
   * server died (no planned switchover leaves a host unreachable), even if the primary this cluster knows
   * answers, read-only.
   */
  public boolean lastRoundMissedAHost() {
    return lastRoundMissedAHost;
  }

  private @Nullable ReplicaEndpoint findWritable(ReplicaEndpoint primary, StringBuilder seen) {
    List<ReplicaEndpoint> order = new ArrayList<>(members.servers().size());
    order.add(primary);
    for (ReplicaEndpoint e : members.servers()) {
      if (e != primary && !e.vacant()) {
        order.add(e);
      }
    }
    List<GroupMember> group = List.of();
    for (ReplicaEndpoint e : order) {
      try (PhysicalConnection c = connector.openMonitor(logins.monitorConfig(), e.host())) {
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
      members.memberFound(m.uuid(), new HostSpec(m.host(), m.port()));
      ReplicaEndpoint e = members.serverByUuid(m.uuid());
      if (what != GroupMemberRule.Member.ADOPT_AND_TRY || e == null || tried.contains(e)) {
        continue;
      }
      try (PhysicalConnection c = connector.openMonitor(logins.monitorConfig(), e.host())) {
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
}
