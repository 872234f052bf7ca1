package dev.ryow.jdbc.session;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.cluster.wait.SharedWait;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.server.PhysicalConnection;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * The plan of the read in flight on one logical connection, from {@link Session#begin} to {@link Session#done}:
 * the consistency scope captured once as the execution began ({@link Session#beginCall}, which the calls that
 * write without an execution, such as {@code commit}, begin with too: their GTIDs join that scope through
 * {@link ReadConsistency}), the replica chosen for it, the watermark it
 * waits for there and the budget of that wait (computed once, {@link WaitBudget}), and the outcome (its
 * placement, how long it waited, whether it waits on the replicas for a lost primary). One per session,
 * reused by every read (a connection runs one statement at a time): {@link ReadAdmitter} fills it, the
 * callers read it; an {@link Execution} whose wait travels with its query points to it
 * ({@link Execution#pipelined}).
 *
 * <p>It lives as long as its session: references are stored only when they change (see {@link Execution}).
 */
final class ReadPlan {
  private @Nullable ConsistencyScope scope;
  private ReadPlacement placement = ReadPlacement.REPLICA_NO_WAIT;
  private long waitNanos;
  /** No replica could serve the read and the primary is lost ({@code FallbackPolicy.Decision.AWAIT_REPLICA}). */
  private boolean awaitingReplica;
  /** The replica whose wait was left to the statement (holding a waiter permit until it ends), or null. */
  private ReplicaSet.@Nullable Slot deferredSlot;
  /** The set the deferred wait waits for. */
  private Position watermark = Positions.EMPTY;
  /** The deferred wait as other reads ride on it ({@link SharedWait}), ended with it. */
  private @Nullable SharedWait shared;
  private long deferredSinceNanos;
  /** The deferred wait's budget, as sent with the query. */
  private BigDecimal waitSeconds = BigDecimal.ZERO;
  /** The home the read left for its turn's replica ({@code ReadRequirement.left}), or null. */
  private @Nullable ReplicaEndpoint left;
  /** What {@link #left} must be known to have to run the read without a wait. */
  private Position leftNeeds = Positions.EMPTY;

  /** The call begins with {@code current}, the scope bound to its thread (stored only when it changes). */
  void begin(@Nullable ConsistencyScope current) {
    if (scope != current) {
      scope = current;
    }
  }

  /** The consistency scope bound to the thread when the call in progress began, null for none. */
  @Nullable ConsistencyScope scope() {
    return scope;
  }

  /** A read is admitted afresh: no outcome yet. */
  void admitting() {
    waitNanos = 0;
    awaitingReplica = false;
  }

  /** How the read was placed. */
  ReadPlacement placement() {
    return placement;
  }

  void placement(ReadPlacement how) {
    if (placement != how) {
      placement = how;
    }
  }

  /** How long the read waited, in nanoseconds; 0 if it did not wait. */
  long waitNanos() {
    return waitNanos;
  }

  void waited(long nanos) {
    waitNanos = nanos;
  }

  /** Whether the read waits on the replicas longer instead of falling back, the primary being lost. */
  boolean awaitingReplica() {
    return awaitingReplica;
  }

  void awaitingReplica(boolean awaiting) {
    awaitingReplica = awaiting;
  }

  /**
   * The wait on {@code slot} for {@code set} is left to the statement, with a budget of {@code seconds}; other
   * reads may ride on it as {@code shared}.
   */
  @SuppressWarnings("ReferenceEquality") // the same objects: nothing to store (see the class comment)
  void defer(ReplicaSet.Slot slot, Position set, BigDecimal seconds, long nowNanos, SharedWait shared) {
    deferredSlot = slot;
    this.shared = shared;
    if (watermark != set) {
      watermark = set;
    }
    if (waitSeconds != seconds) {
      waitSeconds = seconds;
    }
    deferredSinceNanos = nowNanos;
  }

  /** The replica of the deferred wait, or null when none is pending. */
  ReplicaSet.@Nullable Slot deferredSlot() {
    return deferredSlot;
  }

  /** The deferred wait ended (or will not run); returns how long it took since it was deferred. */
  long endDeferred(long nowNanos) {
    deferredSlot = null;
    return Math.max(1, nowNanos - deferredSinceNanos);
  }

  /** The deferred wait as other reads ride on it, forgotten as it is returned (ended once, by the caller). */
  @Nullable SharedWait takeShared() {
    SharedWait w = shared;
    shared = null;
    return w;
  }

  /** This plan, when its deferred wait is pending on {@code on}: what the query carries; else null. */
  @Nullable ReadPlan deferredOn(PhysicalConnection on) {
    ReplicaSet.Slot slot = deferredSlot;
    return slot != null && slot.connection == on ? this : null;
  }

  /** The set the deferred wait waits for. */
  Position watermark() {
    return watermark;
  }

  /** The deferred wait's budget in seconds ({@link WaitBudget}, computed once when it was deferred). */
  BigDecimal waitSeconds() {
    return waitSeconds;
  }

  /** The read leaves {@code home} (null: none), where it would need {@code needs}. */
  void leaves(@Nullable ReplicaEndpoint home, Position needs) {
    left = home;
    leftNeeds = needs;
  }

  /** The home the read left, forgotten as it is returned (asked once per read). */
  @Nullable ReplicaEndpoint takeLeft() {
    ReplicaEndpoint e = left;
    left = null;
    return e;
  }

  Position leftNeeds() {
    return leftNeeds;
  }
}
