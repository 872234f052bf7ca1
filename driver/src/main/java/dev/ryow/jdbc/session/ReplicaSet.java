package dev.ryow.jdbc.session;

import dev.ryow.jdbc.ReadPlacement;
import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.metrics.ClusterMetrics;
import dev.ryow.jdbc.route.FallbackPolicy;
import dev.ryow.jdbc.route.ReadAdmission;
import dev.ryow.jdbc.route.ReadRequirement;
import dev.ryow.jdbc.route.ReplicaSelector;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.ServerPosition;
import dev.ryow.jdbc.server.Sql;
import dev.ryow.jdbc.server.WaitOutcome;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.util.List;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * The replica side of one logical connection: at most one physical connection per server, opened
 * on first use, each with its own {@link SessionMirror}; and the read admission: "which replica?"
 * ({@link ReplicaSelector}), "wait or skip?" (known position, waiter cap), "what on failure?"
 * ({@link FallbackPolicy}). A read waits on at most one replica, so no read blocks longer than
 * {@code ryow.waitTimeout} plus connection set-up.
 */
final class ReplicaSet {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReplicaSet.class);
  /** How long a replica that refused this connection's login is left alone before the next attempt. */
  private static final long REFUSED_RETRY_NANOS = 5_000_000_000L;
  private final Cluster cluster;
  private final RyowConfig config;
  private final ConnectorJ connector;
  private final SessionState session;
  private final WaitGuard guard;
  private final ReplicaWait waits;
  private final ClusterMetrics metrics;
  private final int start;
  private final Slot[] slots;
  private final ReplicaEndpoint[] order;
  private final long[] orderKeys;
  /** "Wait or skip?" for each candidate of the current read, and why it falls back. */
  private final ReadAdmission<Slot> admission = new ReadAdmission<>();
  /** "What on failure?" once no replica could serve a read in time. */
  private final FallbackPolicy fallback;
  /** A read-only transaction runs on this slot until it ends. */
  private @Nullable Slot transactionSlot;
  private ReadPlacement placement = ReadPlacement.REPLICA_NO_WAIT;
  private long lastWaitNanos;
  /** The last admission found no replica for the read and the primary lost ({@link FallbackPolicy.Decision#AWAIT_REPLICA}). */
  private boolean awaitingReplica;
  /**
   * A wait {@link #admit} left to the statement, which sends it with the read in one round trip: the
   * slot (holding a waiter permit until {@link #deferredWaitReached} or {@link #deferredWaitFailed}), the
   * set, and when it started.
   */
  private @Nullable Slot deferredSlot;
  private Position deferredWatermark = Positions.EMPTY;
  private long deferredSinceNanos;
  /** The home the last admitted read left for its turn's replica ({@link ReadRequirement#left}), or null. */
  private @Nullable ReplicaEndpoint left;
  /** What {@link #left} must be known to have to run that read without a wait. */
  private Position leftNeeds = Positions.EMPTY;

  /** One server's physical connection of this logical connection. */
  private static final class Slot {
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

  ReplicaSet(Cluster cluster, RyowConfig config, ConnectorJ connector, SessionState session, WaitGuard guard) {
    this.guard = guard;
    this.waits = new ReplicaWait(cluster, guard);
    this.cluster = cluster;
    this.config = config;
    this.connector = connector;
    this.session = session;
    this.metrics = cluster.metrics();
    this.fallback = new FallbackPolicy(config, cluster.fallbackBudget());
    this.start = cluster.members().nextReplicaStart();
    List<ReplicaEndpoint> servers = cluster.servers();
    this.slots = new Slot[servers.size()];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = new Slot(servers.get(i));
    }
    this.order = new ReplicaEndpoint[servers.size()];
    this.orderKeys = new long[servers.size()];
  }

  /** How long the last {@link #admit} waited, in nanoseconds; 0 if it did not wait. */
  long lastWaitNanos() {
    return lastWaitNanos;
  }

  /**
   * Whether the last admission found no replica that could serve the read now while the primary is lost:
   * the read waits on the replicas longer instead of falling back ({@link FallbackPolicy.Decision#AWAIT_REPLICA}).
   */
  boolean awaitingReplica() {
    return awaitingReplica;
  }

  /** The next read is placed afresh (one that needs the primary, whatever the replicas have). */
  void notAwaiting() {
    awaitingReplica = false;
  }

  /** How the last admitted read was placed. */
  ReadPlacement placement() {
    return placement;
  }

  /**
   * Finds a replica connection that may run a read needing {@code required} now, waiting on one replica
   * when none is known to have it.
   *
   * @param wantAutoCommit false for a read-only transaction (which then stays on the chosen replica)
   * @param exclude a server whose connection just failed, or null
   * @return the replica connection, or null when the read goes to the primary (a fallback token was taken)
   * @throws SQLException when the fallback policy refuses the read ({@link SQLTransientException}), or
   *     replaying session state failed for another reason than the connection
   */
  @Nullable PhysicalConnection admit(
      ReadRequirement required, boolean wantAutoCommit, @Nullable ReplicaEndpoint exclude, long deadlineNanos)
      throws SQLException {
    return admit(required, wantAutoCommit, exclude, deadlineNanos, false);
  }

  /**
   * As {@link #admit(ReadRequirement, boolean, ReplicaEndpoint, long)}; with {@code deferWait}, a replica that
   * must wait is returned without waiting, the wait left to the statement ({@link #deferredWait}).
   */
  @Nullable PhysicalConnection admit(
      ReadRequirement required, boolean wantAutoCommit, @Nullable ReplicaEndpoint exclude, long deadlineNanos,
      boolean deferWait)
      throws SQLException {
    lastWaitNanos = 0;
    awaitingReplica = false;
    abandonDeferredWait();
    Slot pinned = transactionSlot;
    if (pinned != null) {
      PhysicalConnection c = pinned.connection;
      if (c == null || c.isClosed()) {
        throw new java.sql.SQLRecoverableException(
            "The replica connection of this read-only transaction (" + pinned.endpoint + ") was lost: roll back and"
                + " run the transaction again.",
            "08003");
      }
      metrics.waitSkipped();
      placement = ReadPlacement.REPLICA_NO_WAIT;
      return c;
    }
    ReplicaEndpoint leaving = required.left();
    left = leaving == exclude ? null : leaving;
    leftNeeds = leaving == null ? Positions.EMPTY : required.of(leaving);
    if (required.primaryOnly()) {
      countStalledPassedOver(required);
    }
    int n = ReplicaSelector.order(cluster.servers(), required, cluster.settings().strategy(), start, order, orderKeys);
    ReadAdmission<Slot> admission = this.admission;
    admission.start();
    for (int i = 0; i < n; i++) {
      ReplicaEndpoint e = order[i];
      if (e == exclude) {
        continue;
      }
      Slot slot = slots[e.index()];
      PhysicalConnection c = open(slot);
      if (c == null) {
        continue;
      }
      try {
        PhysicalConnection admitted = tryCandidate(slot, c, required.of(e), wantAutoCommit, deadlineNanos, deferWait);
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
        failed(slot, failure);
      }
    }
    PhysicalConnection back = backToTheHomeLeft(wantAutoCommit);
    if (back != null) {
      return back;
    }
    return fallBack(admission.reason(), admission.blamed(), admission.staleCandidate(), required.forAll(), exclude,
        wantAutoCommit);
  }

  /**
   * A read that monotonic reads keep on the primary because every replica in rotation is stalled
   * ({@link ReadRequirement#primaryOnly}) has no candidate to judge, yet it passed over those replicas
   * without a wait: when {@link ReadAdmission#judge} would have skipped one of them as stalled, the read
   * counts as a stalled skip (once), so that the share of reads that skipped a stalled replica covers it.
   */
  private void countStalledPassedOver(ReadRequirement required) {
    ReplicaEndpoint primary = cluster.primaryEndpoint();
    for (Slot slot : slots) {
      ReplicaEndpoint e = slot.endpoint;
      if (e != primary && ReadAdmission.judge(required.of(e), slot.verified, e.knownExecuted(), e.health(),
          e.stalled(), cluster.tracker().primaryLost()) == ReadAdmission.Step.SKIP_STALLED) {
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
  private @Nullable PhysicalConnection backToTheHomeLeft(boolean wantAutoCommit) throws SQLException {
    ReplicaEndpoint e = left;
    left = null;
    if (e == null) {
      return null;
    }
    Slot slot = slots[e.index()];
    if (ReadAdmission.judge(leftNeeds, slot.verified, e.knownExecuted(), e.health(), e.stalled(),
        cluster.tracker().primaryLost()) != ReadAdmission.Step.READ_NOW) {
      return null;
    }
    if (openInSync(slot, wantAutoCommit) == null) {
      return null;
    }
    metrics.waitSkipped();
    return use(slot, ReadPlacement.REPLICA_NO_WAIT, wantAutoCommit);
  }

  /**
   * {@code slot}'s connection, opened if needed, with the session state replayed on it; null when it cannot be
   * opened or its connection failed on the way (the slot is then marked failed, not the replica blamed).
   */
  private @Nullable PhysicalConnection openInSync(Slot slot, boolean wantAutoCommit) throws SQLException {
    PhysicalConnection c = open(slot);
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
      failed(slot, failure);
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
  @Nullable PhysicalConnection readNowAt(ReplicaEndpoint home) {
    if (transactionSlot != null || deferredSlot != null) {
      return null;
    }
    Slot slot = slots[home.index()];
    PhysicalConnection c = slot.connection;
    SessionMirror mirror = slot.mirror;
    if (c == null || mirror == null || !mirror.inSync(true) || c.isClosed()) {
      return null;
    }
    lastWaitNanos = 0;
    metrics.waitSkipped();
    placement = ReadPlacement.REPLICA_NO_WAIT;
    return c;
  }

  /**
   * One candidate of {@link #admit}: replays session state on its connection, then asks
   * {@link ReadAdmission#judge} "wait or skip?" and waits (or defers the wait) when it must. Returns the
   * connection when the read runs there, null to go on ({@link #admission} records a cap or a failed wait).
   */
  private @Nullable PhysicalConnection tryCandidate(
      Slot slot, PhysicalConnection c, Position watermark, boolean wantAutoCommit, long deadlineNanos, boolean deferWait)
      throws SQLException {
    ReplicaEndpoint e = slot.endpoint;
    SessionMirror mirror = slot.mirror;
    if (mirror != null) {
      mirror.sync(c.jdbc(), wantAutoCommit);
    }
    switch (ReadAdmission.judge(watermark, slot.verified, e.knownExecuted(), e.health(), e.stalled(),
        cluster.tracker().primaryLost())) {
      case READ_NOW -> {
        metrics.waitSkipped();
        return use(slot, ReadPlacement.REPLICA_NO_WAIT, wantAutoCommit);
      }
      case SKIP -> {
        return null;
      }
      case SKIP_STALLED -> {
        if (!admission.wasStalled()) {
          metrics.stalledSkipped(); // once per read, however many stalled replicas it passes over
        }
        admission.stalled(e, slot);
        return null;
      }
      case WAIT -> { }
    }
    if (!e.tryEnterWait()) {
      metrics.waitCapped();
      admission.capped(e, slot);
      return null;
    }
    if (deferWait) {
      deferredSlot = slot;
      deferredWatermark = watermark;
      deferredSinceNanos = System.nanoTime();
      return use(slot, ReadPlacement.REPLICA_AFTER_WAIT, wantAutoCommit);
    }
    WaitOutcome outcome;
    long t0 = System.nanoTime();
    try {
      outcome = waits.run(c, watermark, cluster.waits().waitBoundMillis(e.smoothedWait()), deadlineNanos);
    } finally {
      e.exitWait();
      lastWaitNanos = Math.max(1, System.nanoTime() - t0);
      metrics.waited(lastWaitNanos);
    }
    if (outcome == WaitOutcome.REACHED) {
      e.waited(lastWaitNanos);
      slot.verified = watermark;
      e.learn(watermark, c.identity().serverUuid());
      return use(slot, ReadPlacement.REPLICA_AFTER_WAIT, wantAutoCommit);
    }
    if (outcome == WaitOutcome.TIMED_OUT) {
      metrics.waitTimedOut();
      e.waitCut(); // as a deferred wait's: a wait the learned bound cut backs the next bound off
      e.waitMissed(true, watermark);
    } else {
      metrics.waitFailed();
    }
    admission.waitFailed(outcome == WaitOutcome.TIMED_OUT, e, slot);
    return null;
  }

  /** The set of the wait deferred to the statement about to run on {@code on}, or null. */
  @Nullable Position deferredWait(PhysicalConnection on) {
    Slot slot = deferredSlot;
    return slot != null && slot.connection == on ? deferredWatermark : null;
  }

  /**
   * How long the deferred wait may take, in milliseconds: {@code ryow.waitTimeout}, or less once its
   * replica's normal wait and the primary's cost are known ({@link dev.ryow.jdbc.cluster.WaitBounds#waitBoundMillis}).
   */
  long deferredWaitMillis() {
    Slot slot = deferredSlot;
    return slot == null ? cluster.waits().waitTimeoutMillis() : cluster.waits().waitBoundMillis(slot.endpoint.smoothedWait());
  }

  /** The deferred wait succeeded (the read ran after it): the replica is known to have the set. */
  void deferredWaitReached() {
    Slot slot = deferredSlot;
    if (slot == null) {
      return;
    }
    endDeferredWait(slot);
    slot.endpoint.waited(lastWaitNanos);
    PhysicalConnection c = slot.connection;
    slot.verified = deferredWatermark;
    if (c != null) {
      slot.endpoint.learn(deferredWatermark, c.identity().serverUuid());
    }
  }

  /**
   * The deferred wait did not reach its set within the timeout (the read did not run): the fallback
   * policy decides, as after a wait of its own.
   *
   * @return the replica connection to read stale from, or null for the primary
   */
  @Nullable PhysicalConnection deferredWaitFailed(boolean wantAutoCommit) throws SQLException {
    Slot slot = java.util.Objects.requireNonNull(deferredSlot); // called only while a deferred wait is pending
    awaitingReplica = false;
    endDeferredWait(slot);
    unpin(slot);
    metrics.waitTimedOut();
    slot.endpoint.waitCut();
    slot.endpoint.waitMissed(true, deferredWatermark);
    PhysicalConnection back = backToTheHomeLeft(wantAutoCommit);
    if (back != null) {
      return back;
    }
    return fallBack(FallbackPolicy.Reason.TIMED_OUT, slot.endpoint, slot, deferredWatermark, null, wantAutoCommit);
  }

  /** Gives back the permit of a deferred wait that will not run (the statement failed otherwise, or a new read). */
  void abandonDeferredWait() {
    Slot slot = deferredSlot;
    if (slot != null) {
      deferredSlot = null;
      slot.endpoint.exitWait();
      unpin(slot);
    }
  }

  /** A transaction's first read, deferred to {@code slot}, did not run there: the transaction is not bound to it. */
  private void unpin(Slot slot) {
    if (transactionSlot == slot) {
      transactionSlot = null;
    }
  }

  private void endDeferredWait(Slot slot) {
    deferredSlot = null;
    slot.endpoint.exitWait();
    lastWaitNanos = Math.max(1, System.nanoTime() - deferredSinceNanos);
    metrics.waited(lastWaitNanos);
  }

  private @Nullable PhysicalConnection fallBack(
      FallbackPolicy.Reason reason,
      @Nullable ReplicaEndpoint blamed,
      @Nullable Slot staleSlot,
      Position watermark,
      @Nullable ReplicaEndpoint exclude,
      boolean wantAutoCommit)
      throws SQLException {
    @Nullable Slot staleCandidate = staleSlot;
    if ((reason == FallbackPolicy.Reason.NO_REPLICA || reason == FallbackPolicy.Reason.CAPPED)
        && ReadAdmission.skippedOutOfRotation(cluster.servers(), watermark, exclude)) {
      metrics.outOfRotationSkipped();
    }
    if (staleCandidate == null) {
      staleCandidate = anyReachable(exclude);
    }
    FallbackPolicy.Decision decision;
    try {
      decision = fallback.decide(blamed, reason, staleCandidate != null, cluster.tracker().primaryLost(), metrics);
    } catch (SQLTransientException rejected) {
      metrics.fallbackRejected();
      throw rejected;
    }
    if (decision == FallbackPolicy.Decision.AWAIT_REPLICA) {
      awaitingReplica = true;
      placement = ReadPlacement.PRIMARY_FALLBACK;
      return null;
    }
    if (decision == FallbackPolicy.Decision.STALE_REPLICA && staleCandidate != null) {
      if (openInSync(staleCandidate, wantAutoCommit) != null) {
        metrics.staleRead();
        fallback.logStale(staleCandidate.endpoint, reason);
        return use(staleCandidate, ReadPlacement.REPLICA_STALE, wantAutoCommit);
      }
      metrics.fallbackRejected();
      throw new SQLTransientException(
          "No replica is reachable to serve this read stale (" + RyowProperties.FALLBACK.name() + "/"
              + RyowProperties.FALLBACK_DEGRADE.name() + "=stale): retry the read.",
          "HYT00");
    }
    metrics.fellBackToPrimary();
    placement = ReadPlacement.PRIMARY_FALLBACK;
    return null;
  }

  /**
   * A connection failure that the replica did not cause ends the read here, and the server stays in
   * rotation for every other connection: the logical connection was closed or aborted by another
   * thread while it waited, or the caller's own network timeout ({@code setNetworkTimeout},
   * {@code socketTimeout}) was shorter than the wait (Connector/J closed the connection: it is dropped,
   * the next read opens another). Returns normally for a failure of the replica itself.
   */
  private void notTheReplicasFault(Slot slot, SQLException failure) throws SQLException {
    if (guard.stopRequested()) {
      throw guard.stopped();
    }
    if (!Sql.isSocketTimeout(failure)) {
      return;
    }
    drop(slot);
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

  /** Closes the slot's connection without blaming its server (the next read opens another). */
  private void drop(Slot slot) {
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

  private PhysicalConnection use(Slot slot, ReadPlacement how, boolean wantAutoCommit) {
    placement = how;
    if (!wantAutoCommit) {
      transactionSlot = slot;
    }
    PhysicalConnection c = slot.connection;
    if (c == null) {
      throw new IllegalStateException("slot without connection");
    }
    return c;
  }

  private @Nullable Slot anyReachable(@Nullable ReplicaEndpoint exclude) {
    for (int i = 0; i < slots.length; i++) {
      Slot slot = slots[Math.floorMod(start + i, slots.length)];
      if (slot.endpoint != exclude && slot.endpoint.health().reachable()) {
        return slot;
      }
    }
    return null;
  }

  private @Nullable PhysicalConnection open(Slot slot) {
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

  private void failed(Slot slot, SQLException cause) {
    if (deferredSlot == slot) {
      abandonDeferredWait();
    }
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
    abandonDeferredWait();
    for (Slot slot : slots) {
      PhysicalConnection c = slot.connection;
      slot.connection = null;
      if (c != null) {
        c.close();
      }
    }
  }

  void abortAll(Executor executor) throws SQLException {
    abandonDeferredWait();
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
