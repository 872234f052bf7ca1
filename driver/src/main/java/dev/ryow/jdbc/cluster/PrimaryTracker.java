package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.metrics.ClusterMetrics;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which server is the primary, since which move, what its last poll showed, whether it is lost, and what it is
 * known to have executed: one {@link PrimaryState}, replaced by one compare-and-set (a move by the thread
 * holding the discovery lock of {@link PrimaryDiscovery}, a poll's result by the poller, only while it is
 * still about the server it polled). The thread whose compare-and-set made a change counts and logs it.
 */
public final class PrimaryTracker {
  private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);

  private final String name;
  private final int failoverTimeoutMillis;
  private final ClusterMetrics metrics;
  private final StateVersion stateVersion;
  private final AtomicReference<PrimaryState> primary;
  /** How many primary polls were sent ({@link #primaryPollTicket}); also taken by a move of the primary. */
  private final AtomicLong primaryPolls = new AtomicLong();
  /** GTIDs the primary is known to have executed: our writes, and sets verified with GTID_SUBSET. */
  private final Watermark primaryExecuted = new Watermark();

  PrimaryTracker(ClusterSettings settings, ReplicaEndpoint first, ClusterMetrics metrics, StateVersion stateVersion) {
    this.name = settings.name();
    this.failoverTimeoutMillis = settings.failoverTimeoutMillis();
    this.metrics = metrics;
    this.stateVersion = stateVersion;
    this.primary = new AtomicReference<>(PrimaryState.first(first, System.nanoTime()));
    first.promote();
  }

  /**
   * The primary now: which server, since which move, and what it was last polled to have executed. A
   * caller that needs more than one of these reads them from one state (one volatile read).
   */
  public PrimaryState primary() {
    return Objects.requireNonNull(primary.get()); // never set to null
  }

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

  /** What the primary is known to have executed: our writes, and sets verified with GTID_SUBSET. */
  Watermark executed() {
    return primaryExecuted;
  }

  /** A set the primary has certainly executed (it only lags behind the truth). */
  public Position knownOnPrimary() {
    return primaryExecuted.current();
  }

  /** Records that the primary has executed {@code gtids} (verified, or read from it). */
  public void primaryHas(Position gtids) {
    primaryExecuted.advance(gtids);
  }

  /**
   * A poll of {@code polled}, sent with {@code pollTicket}, found it writable: its position becomes the
   * primary's, unless the cluster moved to another server meanwhile (then the poll says nothing of the
   * primary and is dropped). Poller only. Returns whether it was taken.
   */
  boolean polled(ReplicaEndpoint polled, PollSnapshot poll, long pollTicket) {
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
    if (current.lost()) {
      outageOver(current);
    }
    return true;
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
   * The current primary {@code endpoint} was found writable at {@code atNanos}; returns it. Logged when it
   * was lost (its outage is over).
   */
  ReplicaEndpoint confirm(ReplicaEndpoint endpoint, long atNanos) {
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
   * A round that began at {@code startedNanos} found no writable server ({@code seen}: what it saw of each
   * host): the primary {@code endpoint} is lost (unless it was found writable since the round began). The
   * thread whose compare-and-set began the outage logs it.
   */
  void lost(ReplicaEndpoint endpoint, long startedNanos, String why, String seen) {
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
          name, why, seen, RyowProperties.FAILOVER_TIMEOUT_MILLIS.name(), failoverTimeoutMillis);
    }
  }

  /**
   * Moves the cluster to {@code found}: one compare-and-set installs the new endpoint, epoch and empty
   * position together; the thread whose compare-and-set made the move (one, whatever the callers) swaps
   * the two servers' health, counts and logs it. Returns the primary now.
   */
  ReplicaEndpoint moveTo(ReplicaEndpoint found, String why) {
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

  /** Whether the primary is known to be lost now: a discovery round found no writable server since it was last seen. */
  public boolean primaryLost() {
    return primary().lost();
  }

  /** The last poll of the current primary, or null. */
  public @Nullable PollSnapshot primaryPoll() {
    return primary().poll();
  }
}
