package dev.ryow.jdbc.session;

import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.cluster.wait.SharedWait;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.metrics.ClusterMetrics;
import dev.ryow.jdbc.route.FallbackPolicy;
import dev.ryow.jdbc.route.ReadAdmission;
import dev.ryow.jdbc.route.ReadRequirement;
import dev.ryow.jdbc.route.ReplicaSelector;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.Sql;
import dev.ryow.jdbc.server.WaitOutcome;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The read admission of one logical connection, over its {@link ReplicaSet}: "which replica?"
 * ({@link ReplicaSelector}), "wait or skip?" (known position, waiter cap: {@link ReadAdmission}), "what on
 * failure?" ({@link FallbackPolicy}). Each decision and its outcome go into the read's {@link ReadPlan}, which
 * the caller passes in and reads back. A read waits on at most one replica, so no read blocks longer than
 * {@code ryow.waitTimeout} plus connection set-up. A read that must wait where another read of the JVM already
 * waits for a set that holds its own rides on that wait ({@link SharedWait}, for at most half of its budget:
 * {@link SharedWaits}) instead of sending one more: the replica serves one wait for them all.
 */
final class ReadAdmitter {
  private final Cluster cluster;
  private final ReplicaSet replicas;
  private final SessionState session;
  private final WaitGuard guard;
  private final ReplicaWait waits;
  private final ClusterMetrics metrics;
  /** Scratch of {@link ReplicaSelector#order}, reused by every read. */
  private final ReplicaEndpoint[] order;
  private final long[] orderKeys;
  /** "Wait or skip?" for each candidate of the current read, and why it falls back (reused by every read). */
  private final ReadAdmission<ReplicaSet.Slot> admission = new ReadAdmission<>();
  /** "What on failure?" once no replica could serve a read in time. */
  private final FallbackPolicy fallback;
  /** Whether the read must stop riding on another's wait ({@link WaitGuard#stopRequested}), made once. */
  private final BooleanSupplier stopRequested;

  ReadAdmitter(Cluster cluster, RyowConfig config, ReplicaSet replicas, SessionState session, WaitGuard guard) {
    this.cluster = cluster;
    this.replicas = replicas;
    this.session = session;
    this.guard = guard;
    this.waits = new ReplicaWait(cluster, guard);
    this.stopRequested = guard::stopRequested;
    this.metrics = cluster.metrics();
    this.fallback = new FallbackPolicy(config, cluster.fallbackBudget());
    this.order = new ReplicaEndpoint[replicas.size()];
    this.orderKeys = new long[replicas.size()];
  }

  /**
   * Finds a replica connection that may run a read needing {@code required} now, waiting on one replica
   * when none is known to have it; with {@code deferWait}, a replica that must wait is returned without
   * waiting, the wait left to the statement ({@link ReadPlan#deferredOn}). The outcome goes into {@code plan}.
   *
   * @param wantAutoCommit false for a read-only transaction (which then stays on the chosen replica)
   * @param exclude a server whose connection just failed, or null
   * @return the replica connection, or null when the read goes to the primary (a fallback token was taken)
   * @throws SQLException when the fallback policy refuses the read ({@link SQLTransientException}), or
   *     replaying session state failed for another reason than the connection
   */
  @Nullable PhysicalConnection admit(ReadPlan plan, ReadRequirement required, boolean wantAutoCommit,
      @Nullable ReplicaEndpoint exclude, long deadlineNanos, boolean deferWait) throws SQLException {
    plan.admitting();
    abandonDeferredWait(plan);
    ReplicaSet.Slot pinned = replicas.transactionSlot();
    if (pinned != null) {
      PhysicalConnection c = pinned.connection;
      if (c == null || c.isClosed()) {
        throw new java.sql.SQLRecoverableException(
            "The replica connection of this read-only transaction (" + pinned.endpoint + ") was lost: roll back and"
                + " run the transaction again.",
            "08003");
      }
      metrics.waitSkipped();
      plan.placement(ReadPlacement.REPLICA_NO_WAIT);
      return c;
    }
    ReplicaEndpoint leaving = required.left();
    plan.leaves(leaving == exclude ? null : leaving, leaving == null ? Positions.EMPTY : required.of(leaving));
    if (required.primaryOnly()) {
      countStalledPassedOver(required);
    }
    int n = ReplicaSelector.order(cluster.servers(), required, cluster.settings().strategy(), replicas.start(), order,
        orderKeys);
    ReadAdmission<ReplicaSet.Slot> admission = this.admission;
    admission.start();
    for (int i = 0; i < n; i++) {
      ReplicaEndpoint e = order[i];
      if (e == exclude) {
        continue;
      }
      ReplicaSet.Slot slot = replicas.slot(e.index());
      PhysicalConnection c = replicas.open(slot);
      if (c == null) {
        continue;
      }
      try {
        PhysicalConnection admitted = tryCandidate(plan, slot, c, required.of(e), wantAutoCommit, deadlineNanos,
            deferWait);
        if (admitted != null) {
          return admitted;
        }
        if (admission.waitFailed()) {
          break; // a read waits on one replica at most
        }
      } catch (SQLException failure) {
        if (!Sql.isConnectionFailure(failure)) {
          throw failure;
        }
        notTheReplicasFault(slot, failure);
        replicas.failed(slot, failure);
      }
    }
    PhysicalConnection back = backToTheHomeLeft(plan, wantAutoCommit);
    if (back != null) {
      return back;
    }
    return fallBack(plan, admission.reason(), admission.blamed(), admission.staleCandidate(), required.forAll(),
        exclude, wantAutoCommit);
  }

  /**
   * A read that monotonic reads keep on the primary because every replica in rotation is stalled
   * ({@link ReadRequirement#primaryOnly}) has no candidate to judge, yet it passed over those replicas
   * without a wait: when {@link ReadAdmission#judge} would have skipped one of them as stalled, the read
   * counts as a stalled skip (once), so that the share of reads that skipped a stalled replica covers it.
   */
  private void countStalledPassedOver(ReadRequirement required) {
    ReplicaEndpoint primary = cluster.primaryEndpoint();
    for (int i = 0; i < replicas.size(); i++) {
      ReplicaSet.Slot slot = replicas.slot(i);
      ReplicaEndpoint e = slot.endpoint;
      if (e != primary && judge(slot, required.of(e)) == ReadAdmission.Step.SKIP_STALLED) {
        metrics.stalledSkipped();
        return;
      }
    }
  }

  /**
   * The read left its home for the replica whose turn it is, and that one could not serve it: it runs at
   * the home it left when that needs no wait (the home is known to have what the read needs there), not
   * on the primary. Null when there is none, or it would have to wait.
   */
  private @Nullable PhysicalConnection backToTheHomeLeft(ReadPlan plan, boolean wantAutoCommit) throws SQLException {
    ReplicaEndpoint e = plan.takeLeft();
    if (e == null) {
      return null;
    }
    ReplicaSet.Slot slot = replicas.slot(e.index());
    if (judge(slot, plan.leftNeeds()) != ReadAdmission.Step.READ_NOW) {
      return null;
    }
    if (openInSync(slot, wantAutoCommit) == null) {
      return null;
    }
    metrics.waitSkipped();
    return use(plan, slot, ReadPlacement.REPLICA_NO_WAIT, wantAutoCommit);
  }

  /**
   * {@code slot}'s connection, opened if needed, with the session state replayed on it; null when it cannot be
   * opened or its connection failed on the way (the slot is then marked failed, not the replica blamed).
   */
  private @Nullable PhysicalConnection openInSync(ReplicaSet.Slot slot, boolean wantAutoCommit) throws SQLException {
    PhysicalConnection c = replicas.open(slot);
    if (c == null) {
      return null;
    }
    try {
      SessionMirror mirror = slot.mirror;
      if (mirror != null) {
        mirror.sync(c.jdbc(), wantAutoCommit);
      }
      return c;
    } catch (SQLException failure) {
      if (!Sql.isConnectionFailure(failure)) {
        throw failure;
      }
      notTheReplicasFault(slot, failure);
      replicas.failed(slot, failure);
      return null;
    }
  }

  /**
   * The read runs on this logical connection's connection to {@code home} without a wait, as the last
   * admission there decided, when the caller found nothing that decision depended on changed
   * ({@link ReadPlanCache}) and the connection needs nothing done first: open, its session state in
   * sync, no read-only transaction pinned, no deferred wait pending. Null when it cannot: the caller
   * admits the read in full.
   */
  @Nullable PhysicalConnection readNowAt(ReadPlan plan, ReplicaEndpoint home) {
    if (replicas.transactionSlot() != null || plan.deferredSlot() != null) {
      return null;
    }
    ReplicaSet.Slot slot = replicas.slot(home.index());
    PhysicalConnection c = slot.connection;
    SessionMirror mirror = slot.mirror;
    if (c == null || mirror == null || !mirror.inSync(true) || c.isClosed()) {
      return null;
    }
    plan.waited(0);
    metrics.waitSkipped();
    plan.placement(ReadPlacement.REPLICA_NO_WAIT);
    return c;
  }

  /**
   * One candidate of {@link #admit}: replays session state on its connection, then asks
   * {@link ReadAdmission#judge} "wait or skip?" and waits (or defers the wait) when it must. Returns the
   * connection when the read runs there, null to go on ({@link #admission} records a cap or a failed wait).
   */
  private @Nullable PhysicalConnection tryCandidate(ReadPlan plan, ReplicaSet.Slot slot, PhysicalConnection c,
      Position watermark, boolean wantAutoCommit, long deadlineNanos, boolean deferWait) throws SQLException {
    ReplicaEndpoint e = slot.endpoint;
    SessionMirror mirror = slot.mirror;
    if (mirror != null) {
      mirror.sync(c.jdbc(), wantAutoCommit);
    }
    switch (judge(slot, watermark)) {
      case READ_NOW -> {
        metrics.waitSkipped();
        return use(plan, slot, ReadPlacement.REPLICA_NO_WAIT, wantAutoCommit);
      }
      case SKIP -> {
        return null;
      }
      case SKIP_STALLED -> {
        return skipStalled(slot);
      }
      case WAIT -> { }
    }
    long boundMillis = cluster.waits().waitBoundMillis(e.smoothedWait());
    SharedWait ridden = e.sharedWaitCovering(watermark, System.nanoTime());
    if (ridden != null) {
      long t0 = System.nanoTime();
      ride(ridden, SharedWaits.rideNanos(WaitBudget.millis(boundMillis, deadlineNanos, t0)));
      long rode = Math.max(1, System.nanoTime() - t0);
      if (Thread.currentThread().isInterrupted()) {
        metrics.waitFailed(); // as a wait of its own that an interrupt ended
        admission.waitFailed(false, e, slot);
        return null;
      }
      // Judged again on what is known after the ride: the wait ridden on made its set known (its leader learns
      // before it releases the riders) or found the replica stalled, or the replica left rotation meanwhile.
      switch (judge(slot, watermark)) {
        case READ_NOW -> {
          plan.waited(rode);
          metrics.waitShared();
          return use(plan, slot, ReadPlacement.REPLICA_AFTER_WAIT, wantAutoCommit);
        }
        case SKIP -> {
          return null;
        }
        case SKIP_STALLED -> {
          return skipStalled(slot);
        }
        case WAIT -> { }
      }
      boundMillis = SharedWaits.afterRide(boundMillis, rode);
    }
    if (!e.tryEnterWait()) {
      metrics.waitCapped();
      admission.capped(e, slot);
      return null;
    }
    if (deferWait) {
      long now = System.nanoTime();
      // WaitBudget.EXPIRED becomes 1 ms: the statement's own timer (StatementTimeouts.within) then ends it
      long budgetMillis = WaitBudget.millis(boundMillis, deadlineNanos, now);
      SharedWait shared = new SharedWait(watermark, now, budgetMillis);
      plan.defer(slot, watermark, cluster.waits().waitSeconds(budgetMillis), now, shared);
      e.sharedWaitStarted(shared);
      return use(plan, slot, ReadPlacement.REPLICA_AFTER_WAIT, wantAutoCommit);
    }
    WaitOutcome outcome = WaitOutcome.FAILED;
    long t0 = System.nanoTime();
    long waited;
    SharedWait shared = new SharedWait(watermark, t0, WaitBudget.millis(boundMillis, deadlineNanos, t0));
    e.sharedWaitStarted(shared);
    try {
      outcome = waits.run(c, watermark, boundMillis, deadlineNanos);
      // what the wait found is made known before its riders go on
      if (outcome == WaitOutcome.REACHED) {
        slot.verified = watermark;
        e.learn(watermark, c.identity().serverUuid());
      } else if (outcome == WaitOutcome.TIMED_OUT) {
        e.waitCut(); // as a deferred wait's: a wait the learned bound cut backs the next bound off
        e.waitMissed(true, watermark);
      }
    } finally {
      e.sharedWaitEnded(shared, outcome == WaitOutcome.REACHED);
      e.exitWait();
      waited = Math.max(1, System.nanoTime() - t0);
      plan.waited(waited);
      metrics.waited(waited);
    }
    if (outcome == WaitOutcome.REACHED) {
      e.waited(waited);
      return use(plan, slot, ReadPlacement.REPLICA_AFTER_WAIT, wantAutoCommit);
    }
    if (outcome == WaitOutcome.TIMED_OUT) {
      metrics.waitTimedOut();
    } else {
      metrics.waitFailed();
    }
    admission.waitFailed(outcome == WaitOutcome.TIMED_OUT, e, slot);
    return null;
  }

  /** The deferred wait succeeded (the read ran after it): the replica is known to have the set. */
  void deferredWaitReached(ReadPlan plan) {
    ReplicaSet.Slot slot = plan.deferredSlot();
    if (slot == null) {
      return;
    }
    PhysicalConnection c = slot.connection;
    slot.verified = plan.watermark();
    if (c != null) {
      slot.endpoint.learn(plan.watermark(), c.identity().serverUuid());
    }
    long waited = endDeferredWait(plan, slot, true);
    slot.endpoint.waited(waited);
  }

  /**
   * The deferred wait did not reach its set within the timeout (the read did not run): the fallback
   * policy decides, as after a wait of its own.
   *
   * @return the replica connection to read stale from, or null for the primary
   */
  @Nullable PhysicalConnection deferredWaitFailed(ReadPlan plan, boolean wantAutoCommit) throws SQLException {
    // called only while a deferred wait is pending
    ReplicaSet.Slot slot = java.util.Objects.requireNonNull(plan.deferredSlot());
    plan.awaitingReplica(false);
    slot.endpoint.waitCut();
    slot.endpoint.waitMissed(true, plan.watermark()); // known before its riders go on
    endDeferredWait(plan, slot, false);
    replicas.unpin(slot);
    metrics.waitTimedOut();
    PhysicalConnection back = backToTheHomeLeft(plan, wantAutoCommit);
    if (back != null) {
      return back;
    }
    return fallBack(plan, FallbackPolicy.Reason.TIMED_OUT, slot.endpoint, slot, plan.watermark(), null,
        wantAutoCommit);
  }

  /** Gives back the permit of a deferred wait that will not run (the statement failed otherwise, or a new read). */
  void abandonDeferredWait(ReadPlan plan) {
    ReplicaSet.Slot slot = plan.deferredSlot();
    if (slot != null) {
      plan.endDeferred(System.nanoTime());
      endShared(plan, slot, false);
      slot.endpoint.exitWait();
      replicas.unpin(slot);
    }
  }

  /**
   * A statement on {@code on} failed with a connection failure: a deferred wait pending there will not run;
   * the connection is dropped and its server leaves rotation ({@link ReplicaSet#failed(PhysicalConnection,
   * SQLException)}). Returns the server (to exclude from the retry).
   */
  @Nullable ReplicaEndpoint failed(ReadPlan plan, PhysicalConnection on, SQLException cause) {
    if (plan.deferredOn(on) != null) {
      abandonDeferredWait(plan);
    }
    return replicas.failed(on, cause);
  }

  private long endDeferredWait(ReadPlan plan, ReplicaSet.Slot slot, boolean reached) {
    long waited = plan.endDeferred(System.nanoTime());
    endShared(plan, slot, reached);
    slot.endpoint.exitWait();
    plan.waited(waited);
    metrics.waited(waited);
    return waited;
  }

  /** "Wait or skip?" for {@code slot}'s server and a read needing {@code required}, on what is known now. */
  private ReadAdmission.Step judge(ReplicaSet.Slot slot, Position required) {
    ReplicaEndpoint e = slot.endpoint;
    return ReadAdmission.judge(required, slot.verified, e.knownExecuted(), e.health(), e.stalled(),
        cluster.tracker().primaryLost());
  }

  /** A stalled candidate is passed over (null: try the next), counted once per read however many it passes over. */
  private @Nullable PhysicalConnection skipStalled(ReplicaSet.Slot slot) {
    if (!admission.wasStalled()) {
      metrics.stalledSkipped();
    }
    admission.stalled(slot.endpoint, slot);
    return null;
  }

  /** The deferred wait's riders go on ({@code reached}: what it waited for was learned first). */
  private static void endShared(ReadPlan plan, ReplicaSet.Slot slot, boolean reached) {
    SharedWait shared = plan.takeShared();
    if (shared != null) {
      slot.endpoint.sharedWaitEnded(shared, reached);
    }
  }

  /**
   * Rides on another read's wait ({@link SharedWait}) for at most {@code nanos}; what it found is then known on
   * the replica. A cancel or close from another thread ends the ride at once ({@link WaitGuard}); an interrupt
   * ends it too, the flag kept set, as it ends a wait of the read's own.
   */
  private void ride(SharedWait shared, long nanos) throws SQLException {
    guard.ridingOn(shared);
    try {
      shared.await(nanos, stopRequested);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return;
    } finally {
      guard.ridingOn(null);
    }
    if (guard.stopRequested()) {
      throw guard.stopped();
    }
  }

  private @Nullable PhysicalConnection fallBack(ReadPlan plan, FallbackPolicy.Reason reason,
      @Nullable ReplicaEndpoint blamed, ReplicaSet.@Nullable Slot staleSlot, Position watermark,
      @Nullable ReplicaEndpoint exclude, boolean wantAutoCommit) throws SQLException {
    ReplicaSet.@Nullable Slot staleCandidate = staleSlot;
    if ((reason == FallbackPolicy.Reason.NO_REPLICA || reason == FallbackPolicy.Reason.CAPPED)
        && ReadAdmission.skippedOutOfRotation(cluster.servers(), watermark, exclude)) {
      metrics.outOfRotationSkipped();
    }
    if (staleCandidate == null) {
      staleCandidate = replicas.anyReachable(exclude);
    }
    FallbackPolicy.Decision decision;
    try {
      decision = fallback.decide(blamed, reason, staleCandidate != null, cluster.tracker().primaryLost(), metrics);
    } catch (SQLTransientException rejected) {
      metrics.fallbackRejected();
      throw rejected;
    }
    if (decision == FallbackPolicy.Decision.AWAIT_REPLICA) {
      plan.awaitingReplica(true);
      plan.placement(ReadPlacement.PRIMARY_FALLBACK);
      return null;
    }
    if (decision == FallbackPolicy.Decision.STALE_REPLICA && staleCandidate != null) {
      if (openInSync(staleCandidate, wantAutoCommit) != null) {
        metrics.staleRead();
        fallback.logStale(staleCandidate.endpoint, reason);
        return use(plan, staleCandidate, ReadPlacement.REPLICA_STALE, wantAutoCommit);
      }
      metrics.fallbackRejected();
      throw new SQLTransientException(
          "No replica is reachable to serve this read stale (" + RyowProperties.FALLBACK.name() + "/"
              + RyowProperties.FALLBACK_DEGRADE.name() + "=stale): retry the read.",
          "HYT00");
    }
    metrics.fellBackToPrimary();
    plan.placement(ReadPlacement.PRIMARY_FALLBACK);
    return null;
  }

  /**
   * A connection failure that the replica did not cause ends the read here, and the server stays in
   * rotation for every other connection: the logical connection was closed or aborted by another
   * thread while it waited, or the caller's own network timeout ({@code setNetworkTimeout},
   * {@code socketTimeout}) was shorter than the wait (Connector/J closed the connection: it is dropped,
   * the next read opens another). Returns normally for a failure of the replica itself.
   */
  private void notTheReplicasFault(ReplicaSet.Slot slot, SQLException failure) throws SQLException {
    if (guard.stopRequested()) {
      throw guard.stopped();
    }
    if (!Sql.isSocketTimeout(failure)) {
      return;
    }
    replicas.drop(slot);
    throw new java.sql.SQLTransientConnectionException(
        "[" + cluster.name() + "] the read waited on replica " + slot.endpoint + " (WAIT_FOR_EXECUTED_GTID_SET, up to "
            + RyowProperties.WAIT_TIMEOUT_MILLIS.name() + "=" + cluster.waits().waitTimeoutMillis() + " ms) longer than this"
            + " connection's network timeout allows (" + (session.networkTimeout > 0
                ? "setNetworkTimeout " + session.networkTimeout + " ms" : "Connector/J's socketTimeout")
            + "): a wait is sent in slices of at most " + ReplicaWait.SLICE_MILLIS + " ms (or "
            + RyowProperties.WAIT_TIMEOUT_MILLIS.name() + " if shorter); give the connection a longer network timeout,"
            + " or lower " + RyowProperties.WAIT_TIMEOUT_MILLIS.name() + ". The replica stays in rotation; this"
            + " connection remains usable.",
        "08S01", failure);
  }

  private PhysicalConnection use(ReadPlan plan, ReplicaSet.Slot slot, ReadPlacement how, boolean wantAutoCommit) {
    plan.placement(how);
    return replicas.use(slot, wantAutoCommit);
  }
}
