package dev.ryow.jdbc.session;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.route.ReadRequirement;
import dev.ryow.jdbc.server.PhysicalConnection;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * Where a session's reads run: at the home of the last read when its plan still holds, on a replica
 * the {@link ReplicaSet} admits for the read's requirement (after a wait, or with the wait deferred to
 * the query), or on the primary (null) when no replica can serve it or its GTIDs are unknown. Records the
 * placement of the last read for {@link #lastRead}: a connection's last read, whichever statement ran it.
 */
final class ReadPlacer {
  private final ReplicaSet replicas;
  /** Which replica, after which wait, or which fallback: decided into {@link #plan}. */
  private final ReadAdmitter admitter;
  /** The read in flight: its scope, replica, watermark, wait budget and outcome (one per session, reused). */
  private final ReadPlan plan;
  private final ReadConsistency consistency;
  private final Transactions transactions;
  private final WaitGuard guard;
  private final PrimaryLink link;
  /** Where the last read ran; null before the first. */
  private @Nullable ReadPlacement lastPlacement;
  private long lastWaitNanos;
  private @Nullable PhysicalConnection lastReadOn;

  ReadPlacer(ReadPlan plan, ReplicaSet replicas, ReadAdmitter admitter, ReadConsistency consistency,
      Transactions transactions, WaitGuard guard, PrimaryLink link) {
    this.plan = plan;
    this.replicas = replicas;
    this.admitter = admitter;
    this.consistency = consistency;
    this.transactions = transactions;
    this.guard = guard;
    this.link = link;
  }

  /**
   * The replica connection that may run the read {@code x} now (or, with {@code deferWait}, once the wait
   * it sends with the query succeeds), never {@code exclude}; null when the read runs on the primary.
   * Records where it was placed.
   */
  @Nullable PhysicalConnection replicaFor(Execution x, @Nullable ReplicaEndpoint exclude, boolean deferWait) throws SQLException {
    ConsistencyScope scope = plan.scope();
    ConsistencyMode mode = consistency.effectiveMode(scope);
    boolean autoCommit = transactions.state().autoCommit();
    boolean reusable = scope == null && exclude == null && autoCommit;
    if (reusable) {
      PhysicalConnection r = atUnchangedHome(mode);
      if (r != null) {
        return r;
      }
    }
    plan.awaitingReplica(false);
    ReadRequirement req = consistency.prepareRead(mode, scope);
    long maxLag = mode == ConsistencyMode.NONE && scope != null ? scope.maxLagMillis() : -1;
    boolean staleAllowed = maxLag >= 0;
    if (req != null && staleAllowed) {
      req.lagAtMost(maxLag);
    }
    if (req == null) {
      consistency.ranElsewhere();
      placed(ReadPlacement.PRIMARY_UNKNOWN_GTIDS, 0, link.connection());
      return null;
    }
    PhysicalConnection r = null;
    guard.enter(x.statement);
    try {
      r = admitter.admit(plan, req, autoCommit || !transactions.state().readOnly(), exclude, x.deadlineNanos(),
          deferWait);
      return r;
    } finally {
      guard.exit();
      ReadPlacement placement = plan.placement();
      if (mode == ConsistencyMode.NONE && r != null) {
        placement = staleAllowed ? ReadPlacement.REPLICA_STALE_ALLOWED : ReadPlacement.REPLICA_UNCHECKED;
        if (staleAllowed) {
          consistency.staleAllowedRead();
        }
      }
      placed(placement, plan.waitNanos(), r != null ? r : link.connection());
      ReplicaEndpoint home = req.home();
      if (reusable && r != null && placement == ReadPlacement.REPLICA_NO_WAIT && home != null
          && r == replicas.connectionTo(home.index()) && home.knownExecuted().contains(req.of(home))) {
        consistency.ranAtHome(home);
      } else {
        consistency.ranElsewhere();
      }
    }
  }

  /**
   * The read's connection when the last read's plan still holds ({@link ReadConsistency#unchangedHome}):
   * its home's connection, with no wait and nothing to replay, exactly as admitting it again would
   * decide; null to plan and admit it in full.
   */
  private @Nullable PhysicalConnection atUnchangedHome(ConsistencyMode mode) {
    ReplicaEndpoint home = consistency.unchangedHome(mode);
    if (home == null) {
      return null;
    }
    PhysicalConnection r = admitter.readNowAt(plan, home);
    if (r != null) {
      placed(ReadPlacement.REPLICA_NO_WAIT, 0, r);
    }
    return r;
  }

  /** The plan of the read in flight on this session. */
  ReadPlan plan() {
    return plan;
  }

  /** The wait {@code x} sent with its query reached its set and the read ran: recorded as a read after a wait. */
  void deferredWaitReached(PhysicalConnection on) {
    admitter.deferredWaitReached(plan);
    placed(ReadPlacement.REPLICA_AFTER_WAIT, plan.waitNanos(), on);
  }

  /**
   * The wait a query carried did not reach its set (the query did not run): the fallback policy places the
   * read ({@link ReadAdmitter#deferredWaitFailed}). Returns the replica to read stale from, or null for the primary.
   */
  @Nullable PhysicalConnection deferredWaitFailed(boolean wantAutoCommit) throws SQLException {
    PhysicalConnection r = admitter.deferredWaitFailed(plan, wantAutoCommit);
    placed(plan.placement(), plan.waitNanos(), r != null ? r : link.connection());
    return r;
  }

  /** The deferred wait will not run (the query failed otherwise, the connection closes): its permit is given back. */
  void abandonDeferredWait() {
    admitter.abandonDeferredWait(plan);
  }

  /** {@link ReadAdmitter#failed}: a connection failure on {@code on}; returns its server. */
  @Nullable ReplicaEndpoint failed(PhysicalConnection on, SQLException cause) {
    return admitter.failed(plan, on, cause);
  }

  /**
   * Records where a read ran and what it waited. The references are stored only when they change: the
   * session lives long, and a reference store into an old object costs G1's card-marking barrier.
   */
  void placed(ReadPlacement placement, long waitNanos, PhysicalConnection on) {
    if (lastPlacement != placement) {
      lastPlacement = placement;
    }
    lastWaitNanos = waitNanos;
    if (lastReadOn != on) {
      lastReadOn = on;
    }
  }


  /** Forgets where the last read ran: a new request ({@link Session#requestBoundary}) has read nothing yet. */
  void forgetLast() {
    lastPlacement = null;
    lastReadOn = null;
    lastWaitNanos = 0;
  }

  /** Where the last read ran. */
  @Nullable ReadReport lastRead() {
    ReadPlacement placement = lastPlacement;
    PhysicalConnection on = lastReadOn;
    return placement == null || on == null ? null : new ReadReport(placement, lastWaitNanos, on.role(), on.address());
  }
}
