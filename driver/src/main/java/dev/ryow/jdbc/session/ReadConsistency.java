package dev.ryow.jdbc.session;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.LostGtidRule;
import dev.ryow.jdbc.cluster.LostGtidSuspicion;
import dev.ryow.jdbc.cluster.PrimaryPosition;
import dev.ryow.jdbc.cluster.ReadBound;
import dev.ryow.jdbc.cluster.ReadClock;
import dev.ryow.jdbc.cluster.ReadWatermark;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.cluster.Watermark;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.UnknownGtidPolicy;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.PositionKind;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.route.MonotonicReads;
import dev.ryow.jdbc.route.ReadRequirement;
import dev.ryow.jdbc.server.PhysicalConnection.ExecutedSplit;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.ServerPosition;
import dev.ryow.jdbc.server.Sql;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLNonTransientException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whose writes a session's reads wait for, and what they must not show less than: the connection's
 * watermark and GTID capture (own_gtid from the primary's OK packets, or by query), the consistency
 * mode (connection override, bound scope, {@code ryow.consistency}), the read watermarks of monotonic
 * reads ({@link MonotonicReads}), GTIDs no server has (forgotten, or refused per
 * {@code ryow.unknownGtids}), and the consistency token. Computes the {@link ReadRequirement} of each
 * replica read ({@link #prepareRead}); reaches the primary only through {@link PrimaryAccess}.
 */
public final class ReadConsistency {
  private static final Logger LOG = LoggerFactory.getLogger(ReadConsistency.class);

  /** The session's primary connection, as this class may use it. */
  interface PrimaryAccess {
    /** The connection as it is (it may be broken). */
    PhysicalConnection connection();

    /** The connection, replaced first when it broke or the cluster moved (outside a dirty transaction). */
    PhysicalConnection ensure() throws SQLException;

    /** Whether it is open and to the cluster's current primary. */
    boolean current();

    /** The primary epoch it belongs to. */
    long epoch();

    /**
     * The server the connection reaches turned out read-only ({@code why}): looks for the writable server
     * (one round of discovery), so that the next {@link #ensure} connects there.
     *
     * @throws SQLException 08001 when no writable server was found
     */
    void rediscover(String why) throws SQLException;
  }

  private final Cluster cluster;
  private final Watermark watermark;
  /** GTIDs of {@link #watermark} the primary was found to lack, not yet taken as lost ({@link LostGtidRule}). */
  private final LostGtidSuspicion ownLost = new LostGtidSuspicion();
  private final PrimaryAccess primary;
  private final ReplicaSet replicas;
  private final boolean queryCapture;
  /** What this connection's reads saw (monotonic reads); see {@link MonotonicReads}. */
  private final ReadWatermark reads = new ReadWatermark();
  private final boolean monotonicReads;
  private final MonotonicReads monotonic;
  private final ReadRequirement requirement = new ReadRequirement();
  private final ReadWatermark[] readScopes = new ReadWatermark[3];
  /** The last read's home, while nothing its plan was made from changed. */
  private final ReadPlanCache plans = new ReadPlanCache();
  /** The primary epoch the watermark was last checked against (GTIDs lost with an old primary). */
  private long watermarkCheckedEpoch;
  /**
   * When the watermark last grew ({@link dev.ryow.jdbc.cluster.PrimaryTracker#primaryPollsSent}): a primary poll
   * sent after it must contain it.
   */
  private long watermarkGrewAt;
  /** Query capture mode: the primary may hold writes of ours that the watermark does not name yet. */
  private boolean captureDue;
  /**
   * A write or commit on the primary since the primary connection last said what it captured beyond the OK
   * packets ({@link dev.ryow.jdbc.server.PhysicalConnection#ownWritesAfterWrite}: nothing on MySQL).
   */
  private boolean ownCapturePending;
  /**
   * The primary's connection may capture beyond its OK packets ({@code own_gtid} mode on MariaDB): only then does a
   * write leave {@link #ownCapturePending} (on MySQL every GTID arrives in the OK packet).
   */
  private final boolean capturesBeyondOkPackets;
  /** Set by {@link RyowConnection#setConsistencyMode}; null: the scope's mode, else the URL's. */
  private @Nullable ConsistencyMode modeOverride;
  /**
   * The session's plan: the consistency scope of the call in progress, captured once as it began
   * ({@link Session#beginCall}); the GTIDs of the writes it records join that scope.
   */
  private final ReadPlan call;

  ReadConsistency(Cluster cluster, Watermark watermark, boolean queryCapture, PrimaryAccess primary, ReplicaSet replicas,
      ReadPlan call) {
    this.cluster = cluster;
    this.call = call;
    this.watermarkGrewAt = cluster.tracker().primaryPollsSent();
    this.watermark = watermark;
    // Without GTIDs no OK packet reports a write's position: it is read from the primary after the write.
    this.queryCapture = queryCapture || primary.connection().positionsPerPrimary();
    this.capturesBeyondOkPackets = !this.queryCapture && primary.connection().positionKind() == PositionKind.MARIADB_GTID;
    this.primary = primary;
    this.replicas = replicas;
    this.watermarkCheckedEpoch = primary.epoch();
    this.monotonicReads = cluster.settings().monotonicReads();
    this.monotonic = new MonotonicReads(cluster);
  }

  /** Whether reads are monotonic ({@code ryow.monotonicReads}). */
  boolean monotonicReads() {
    return monotonicReads;
  }

  /**
   * What a replica read in {@code mode} must see, for the replica admission; null when it must run on
   * the primary instead (it must see GTIDs the primary never executed, {@code ryow.unknownGtids=primary}).
   * Captures due writes first (query capture) and forgets GTIDs the primary is found to lack.
   */
  @Nullable ReadRequirement prepareRead(ConsistencyMode mode, @Nullable ConsistencyScope scope) throws SQLException {
    plans.begin(mode, watermark.current(), cluster.jvm().writes(), cluster.stateVersion(), reads.version(),
        cluster.jvm().reads().version());
    if (scope != null || mode == ConsistencyMode.LATEST || mode == ConsistencyMode.NONE) {
      plans.unstable(); // a scope's own state is not in the key; latest reads the primary each time
    }
    if (queryCapture && captureDue) {
      plans.unstable();
      primary.ensure();
      captureIfDue();
    }
    forgetWhatThePrimaryLacks();
    Position required = mode == ConsistencyMode.NONE ? Positions.EMPTY : requiredFor(mode, scope);
    int scopes = monotonicReads ? readScopes(mode, scope) : 0;
    Position fromTokens = scopes == 0 ? Positions.EMPTY : unverifiedReads(scopes);
    Position checked = fromTokens.isEmpty() ? required : required.union(fromTokens);
    if (!checked.isEmpty() && !primaryKnowsAll(checked, scopes)) {
      return null;
    }
    return scopes == 0 ? requirement.plain(required) : monotonicRequirement(required, scopes);
  }

  /**
   * The server a monotonic read outside any scope may run on at once, without planning again: the
   * last read's home when it ran there without a wait and nothing its plan was made from changed since
   * ({@link ReadPlanCache}); else null.
   */
  @Nullable ReplicaEndpoint unchangedHome(ConsistencyMode mode) {
    if (queryCapture && captureDue) {
      return null;
    }
    return plans.home(mode, watermark.current(), cluster.jvm().writes(), cluster.stateVersion(), reads.version(),
        cluster.jvm().reads().version());
  }

  /** The read planned last by {@link #prepareRead} runs at its home {@code server} without a wait. */
  void ranAtHome(ReplicaEndpoint server) {
    plans.ranAtHome(server);
  }

  /** The read planned last by {@link #prepareRead} went elsewhere: nothing to reuse. */
  void ranElsewhere() {
    plans.clear();
  }

  /** A read of an allow-stale scope ran on a replica within its lag bound. */
  void staleAllowedRead() {
    cluster.metrics().staleAllowedRead();
  }

  /** A statement may have written on the primary (or a transaction ended): capture before the next replica read. */
  void captureDue() {
    captureDue = true;
    if (capturesBeyondOkPackets) {
      ownCapturePending = true;
    }
  }

  /** After an autocommit write outside a transaction: in query mode, capture now if other connections read our writes. */
  void captureAfterWrite() throws SQLException {
    ownCapturedAfterWrite();
    if (queryCapture && captureDue && sharesWrites()) {
      captureWithQuery();
    }
  }

  /** After a commit: in query mode, capture now if other connections read our writes. */
  void captureAfterCommit() throws SQLException {
    ownCapturedAfterWrite();
    if (queryCapture && sharesWrites()) {
      captureWithQuery();
    }
  }

  /**
   * In own_gtid mode, after a write or commit outside a transaction: what the primary connection captured beyond
   * the OK packets' reports (a MariaDB session's missed {@code last_gtid}) joins the watermarks.
   */
  private void ownCapturedAfterWrite() throws SQLException {
    if (ownCapturePending) {
      ownCapturePending = false;
      Position captured = primary.connection().ownWritesAfterWrite();
      if (!captured.isEmpty()) {
        wrote(captured);
      }
    }
  }

  /** After a statement on the primary in own_gtid mode: a reconnect inside Connector/J lost the listener. */
  void checkTracking() throws SQLException {
    if (!queryCapture && !primary.connection().ownGtidTrackingIntact()) {
      LOG.warn("[{}] GTID tracking on the primary connection was lost (reconnect?); capturing by query",
          cluster.name());
      captureWithQuery();
    }
  }

  /** The session has a new primary connection: capture before the next read, check the watermark against it. */
  void primaryReplaced() throws SQLException {
    captureDue = true;
    plans.clear();
    checkWatermarkAgainstPrimary();
  }

  /**
   * Collects the read watermarks whose reads this one must not show less than, per {@code mode}: the
   * connection's; plus the scope's; plus the JVM's. {@code latest} needs none (it reads the primary's
   * position at that moment, which contains whatever any replica had shown), {@code none} promises nothing.
   */
  private int readScopes(ConsistencyMode mode, @Nullable ConsistencyScope scope) {
    if (mode == ConsistencyMode.NONE || mode == ConsistencyMode.LATEST) {
      return 0;
    }
    int n = 0;
    readScopes[n++] = reads;
    if (scope != null && mode != ConsistencyMode.CONNECTION) {
      readScopes[n++] = scope.reads();
    }
    if (mode == ConsistencyMode.JVM) {
      readScopes[n++] = cluster.jvm().reads();
    }
    return n;
  }

  private Position unverifiedReads(int scopes) {
    Position u = Positions.EMPTY;
    for (int i = 0; i < scopes; i++) {
      u = u.union(readScopes[i].bound().unverified());
    }
    return u;
  }

  /**
   * Where a monotonic read may run and what it must see ({@link MonotonicReads}); reads the position
   * of servers it leaves behind first (one round trip each, only when it leaves them).
   */
  private ReadRequirement monotonicRequirement(Position required, int scopes) throws SQLException {
    forgetReadsThePrimaryLacks(scopes);
    ReadRequirement req = requirement;
    int probes = monotonic.plan(required, readScopes, scopes, req);
    if (probes == 0) {
      return req;
    }
    plans.unstable();
    for (int i = 0; i < probes; i++) {
      ReplicaEndpoint server = monotonic.probe(i);
      long at = ReadClock.start();
      @Nullable ServerPosition position;
      @Nullable String uuid;
      if (server == cluster.primaryEndpoint()) {
        // A failed read leaves the reads it would have bounded pending: the read then goes to the
        // primary, through the usual reconnect and failover.
        try {
          PhysicalConnection p = primary.ensure();
          position = p.readPosition();
          uuid = p.identity().serverUuid();
        } catch (SQLException e) {
          if (!Sql.isConnectionFailure(e) && !Sql.isUnreachable(e)) {
            throw e;
          }
          primary.connection().markBroken();
          uuid = primary.connection().identity().serverUuid();
          position = uuid == null ? null : receivedFromThePrimary();
        }
      } else {
        position = replicas.position(server);
        uuid = server.serverUuid();
      }
      cluster.metrics().positionRead();
      if (position != null && uuid != null) {
        monotonic.probed(server, uuid, position, at, readScopes, scopes);
      }
    }
    monotonic.finish(required, readScopes, scopes, req);
    return req;
  }

  /**
   * When the primary cannot be reached, an upper bound of what reads pending on it saw: what every replica
   * executed and received complete ({@link ReplicaSet#receivedByEveryReplica}). A transaction the primary
   * committed and died before sending is not required, as a write only the dead primary has is lost with it
   * (docs/architecture/monotonic-reads.md). Null when a replica does not answer: the reads stay pending.
   */
  private @Nullable ServerPosition receivedFromThePrimary() {
    Position received = replicas.receivedByEveryReplica();
    if (received == null) {
      return null;
    }
    LOG.debug("[{}] the primary is unreachable: reads pending on it are bounded by what the replicas received ({})",
        cluster.name(), received);
    return new ServerPosition(received, Positions.EMPTY);
  }

  /**
   * As {@link #forgetWhatThePrimaryLacks} for the read watermarks: a primary poll taken after a
   * watermark's bound last grew that lacks part of it (an errant transaction on a replica, GTIDs lost
   * with an old primary) is confirmed with {@code GTID_SUBSET} and the missing GTIDs are forgotten.
   */
  private void forgetReadsThePrimaryLacks(int scopes) throws SQLException {
    PrimaryPosition position = cluster.primary().position();
    if (!primary.current()) {
      return;
    }
    for (int i = 0; i < scopes; i++) {
      ReadWatermark w = readScopes[i];
      ReadBound b = w.bound();
      if (b.isEmpty() || position.polledAtNanos() - w.grewAtNanos() <= 0 || position.executed().contains(b.full())) {
        continue;
      }
      forgetLostReads(w, b);
    }
  }

  private void forgetLostReads(ReadWatermark w, ReadBound b) throws SQLException {
    long now = System.nanoTime();
    if (!w.lostGtids().due(now)) {
      return; // a suspicion too recent to decide: no round trip until the commit had time to settle
    }
    plans.unstable();
    ExecutedSplit split = askPrimary(b.full());
    if (split == null || !lostForGood(w.lostGtids(), split.missing(), now, false, "what earlier reads saw")) {
      return;
    }
    if (w.forget(b, split.kept())) {
      cluster.metrics().lostGtidsForgotten();
      LOG.warn("[{}] the primary {} has not executed {} of what earlier reads saw (an errant transaction on a"
          + " replica, lost with an old primary, or a token from elsewhere); forgetting them", cluster.name(),
          primary.connection().host(), split.missing());
    }
  }

  /**
   * Asks the primary which part of {@code set} it has executed ({@code GTID_SUBSET}). A server that lacks
   * part of it and is read-only is not the writable primary any more (a switchover this cluster has not
   * seen yet, or a demoted primary the connection still reaches): its answer says nothing of what the
   * primary has, so the writable server is looked for (one round of discovery) and asked instead. Null when
   * no writable server answers: nothing may then be taken as lost or forged.
   */
  private @Nullable ExecutedSplit askPrimary(Position set) throws SQLException {
    PhysicalConnection p = primary.current() ? primary.connection() : primary.ensure();
    ExecutedSplit split = p.splitByExecuted(set);
    if (split.missing().isEmpty() || !split.readOnly()) {
      return split;
    }
    primary.rediscover("the primary " + p.host() + " is read-only");
    split = primary.ensure().splitByExecuted(set);
    return split.missing().isEmpty() || !split.readOnly() ? split : null;
  }

  /**
   * A read the router sent to the replicas ran on {@code on}: it joins the read watermarks, and those of
   * {@code scope}, the scope its execution began in.
   */
  void readCompleted(PhysicalConnection on, @Nullable ConsistencyScope scope) {
    String uuid = on.identity().serverUuid();
    if (uuid == null) {
      return;
    }
    long now = ReadClock.completed();
    reads.observed(uuid, now);
    cluster.jvm().reads().observed(uuid, now);
    if (scope != null) {
      scope.reads().observed(uuid, now);
    }
  }

  /** The mode of a statement made in {@code scope} (null: none): the connection's, the scope's, or the URL's. */
  ConsistencyMode effectiveMode(@Nullable ConsistencyScope scope) {
    ConsistencyMode m = modeOverride;
    if (m != null) {
      return m;
    }
    ConsistencyMode configured = cluster.settings().consistency();
    if (scope == null) {
      return configured;
    }
    if (scope.modeGiven()) {
      return scope.mode();
    }
    // A scope adds its writes; it never narrows the configured guarantee (jvm and latest contain it).
    return configured == ConsistencyMode.JVM || configured == ConsistencyMode.LATEST ? configured : ConsistencyMode.SCOPE;
  }

  /** The GTIDs a replica must have executed before this read, for {@code mode}. */
  private Position requiredFor(ConsistencyMode mode, @Nullable ConsistencyScope scope) throws SQLException {
    Position own = watermark.current();
    return switch (mode) {
      case NONE -> Positions.EMPTY;
      case CONNECTION -> own;
      case SCOPE -> scope == null ? own : own.union(scope.gtids());
      case JVM -> (scope == null ? own : own.union(scope.gtids())).union(cluster.jvm().writes());
      case LATEST -> own.union(primaryExecutedNow());
    };
  }

  /**
   * Whether the primary has executed everything in {@code required}. Sets from outside (tokens) that
   * the cluster has not seen are checked once with {@code GTID_SUBSET}; GTIDs no server will ever have
   * must not make reads wait: per {@code ryow.unknownGtids} the read goes to the primary (and this
   * connection forgets the unknown GTIDs of its own watermark), or fails. When the primary cannot be
   * asked (it is away), the read goes ahead and waits as usual, bounded by {@code ryow.waitTimeout}.
   */
  private boolean primaryKnowsAll(Position required, int scopes) throws SQLException {
    if (cluster.knownOnPrimary().contains(required)) {
      verifiedReads(required, scopes);
      return true;
    }
    plans.unstable();
    if (!primary.current() && cluster.tracker().primaryLost()) {
      return true; // the primary is away: the read waits as usual (and longer on the replicas while it is lost)
    }
    cluster.metrics().gtidSubsetCheck();
    try {
      ExecutedSplit split = askPrimary(required);
      if (split == null) {
        return true; // no writable server answered: the read waits as usual
      }
      if (split.missing().isEmpty()) {
        cluster.tracker().primaryHas(required);
        verifiedReads(required, scopes);
        return true;
      }
    } catch (SQLException e) {
      if (!Sql.isConnectionFailure(e) && !Sql.isUnreachable(e)) {
        throw e;
      }
      primary.connection().markBroken();
      return true;
    }
    if (cluster.settings().unknownGtids() == UnknownGtidPolicy.ERROR) {
      throw new SQLDataException(
          "[" + cluster.name() + "] this read must see GTIDs the primary has never executed (" + abbreviate(required)
              + "): a forged or foreign consistency token, or writes lost in a failover. "
              + RyowProperties.UNKNOWN_GTIDS.name() + "=error;"
              + " set it to primary to read on the primary instead.",
          "22023");
    }
    cluster.metrics().unknownGtidRead();
    LOG.debug("[{}] watermark names GTIDs the primary never executed; reading on the primary", cluster.name());
    Position own = watermark.current();
    if (!own.isEmpty() && !cluster.knownOnPrimary().contains(own)) {
      forgetLost(own, false);
    }
    for (int i = 0; i < scopes; i++) {
      ReadBound b = readScopes[i].bound();
      if (!b.unverified().isEmpty()) {
        forgetLostReads(readScopes[i], b);
      }
    }
    return false;
  }

  private void verifiedReads(Position executedByPrimary, int scopes) {
    for (int i = 0; i < scopes; i++) {
      readScopes[i].verified(executedByPrimary);
    }
  }

  private static String abbreviate(Position set) {
    String text = set.toString();
    return text.length() <= 120 ? text : text.substring(0, 117) + "...";
  }

  /**
   * GTIDs of writes of ours (from the primary's OK packet, or a query capture): they join this
   * connection's watermark, the scope of the call that made them (if any: {@link Session#beginCall}) and the
   * cluster's JVM-wide set.
   */
  void wrote(Position gtids) {
    advanced(cluster.jvm().wrote(gtids));
  }

  /**
   * {@link #wrote} for the GTID text of a primary's OK packet: parsed only when it does not directly
   * follow what the primary is known to have executed ({@link dev.ryow.jdbc.cluster.JvmLedger#wroteNext}).
   *
   * @throws dev.ryow.jdbc.gtid.MalformedGtidSetException when {@code reported} is not a GTID set
   */
  void wrote(String reported) {
    Position covering = cluster.jvm().wroteNext(reported, watermark);
    if (covering != null) {
      grew(covering);
      return;
    }
    Position gtids = PositionKind.GTID_SET.parse(reported, Integer.MAX_VALUE); // MySQL's tracker only reports
    if (!gtids.isEmpty()) {
      advanced(cluster.jvm().wrote(gtids));
    }
  }

  private void advanced(Position covering) {
    watermark.advance(covering);
    grew(covering);
  }

  /** The watermark grew by {@code covering}: it joins the scope of the call in progress, if any. */
  private void grew(Position covering) {
    watermarkGrewAt = cluster.tracker().primaryPollsSent();
    ConsistencyScope scope = call.scope();
    if (scope != null) {
      scope.advance(covering);
    }
  }

  /**
   * Cheap check before a replica read: the poller read the primary's {@code gtid_executed} after this
   * watermark last grew, yet it does not contain the watermark. Then some GTIDs of the watermark were
   * never executed by this primary (a token from a lost primary or another cluster): confirmed with
   * {@code GTID_SUBSET} on the primary and forgotten, instead of making every read wait for them.
   */
  private void forgetWhatThePrimaryLacks() throws SQLException {
    PrimaryPosition position = cluster.primary().position();
    if (position.pollTicket() - watermarkGrewAt <= 0 || !primary.current()) {
      return;
    }
    Position wm = watermark.current();
    if (wm.isEmpty() || position.executed().contains(wm)) {
      return;
    }
    watermarkGrewAt = cluster.tracker().primaryPollsSent();
    forgetLost(wm, false);
  }

  /**
   * The {@link LostGtidRule} on {@code missing} (what the primary has not executed now): true when those
   * GTIDs are lost and must be forgotten; false when nothing is missing, or when they may still be
   * committing on the primary (logged at DEBUG; asked again once the commit had time to settle).
   */
  private boolean lostForGood(LostGtidSuspicion suspicion, Position missing, long now, boolean primaryMoved,
      String of) {
    LostGtidRule.Verdict v = suspicion.check(missing, now, primaryMoved);
    if (v == LostGtidRule.Verdict.SUSPECT) {
      LOG.debug("[{}] the primary {} has not executed {} of {} yet: a commit in flight, or lost; asked again in {} ms",
          cluster.name(), primary.connection().host(), missing, of, LostGtidRule.SETTLE_MILLIS);
    }
    return v == LostGtidRule.Verdict.FORGET;
  }

  /**
   * Forgets the GTIDs of {@code wm} the primary has not executed, once they are lost ({@link LostGtidRule}:
   * at once when {@code primaryMoved}, else only when they stayed missing while a commit settles).
   */
  private void forgetLost(Position wm, boolean primaryMoved) throws SQLException {
    long now = System.nanoTime();
    if (!primaryMoved && !ownLost.due(now)) {
      return; // a suspicion too recent to decide: no round trip until the commit had time to settle
    }
    plans.unstable();
    ExecutedSplit split = askPrimary(wm);
    if (split == null) {
      return;
    }
    if (split.missing().isEmpty()) {
      ownLost.check(split.missing(), now, primaryMoved);
      return;
    }
    if (primary.connection().positionsPerPrimary()) {
      // A position in another primary's binary log means nothing on this one: the new primary's position now
      // replaces it (it holds everything that primary had, which after a switchover is everything written before).
      captureWithQuery();
      LOG.info("[{}] the watermark {} is a position of another primary: replaced by the primary {}'s position {}",
          cluster.name(), wm, primary.connection().host(), watermark.current());
      return;
    }
    if (!lostForGood(ownLost, split.missing(), now, primaryMoved, "this connection's watermark")) {
      return;
    }
    if (watermark.forget(wm, split.kept())) {
      cluster.metrics().lostGtidsForgotten();
      LOG.warn("[{}] the primary {} has not executed {} of this connection's watermark (lost with an old primary, or"
          + " a token from elsewhere); forgetting them so that reads do not wait for GTIDs no server has",
          cluster.name(), primary.connection().host(), split.missing());
    }
  }

  /**
   * After the cluster moved to another primary: GTIDs of the watermark the new primary has not
   * executed were lost with the old one (or never existed); no server will ever have them, so waiting
   * for them would only time out. Policy: forget them (logged at WARN with the GTIDs, counted in
   * {@code lostGtidsForgotten}); the rest of the watermark still holds.
   */
  private void checkWatermarkAgainstPrimary() throws SQLException {
    long epoch = primary.epoch();
    if (watermarkCheckedEpoch == epoch) {
      return;
    }
    Position wm = watermark.current();
    if (!wm.isEmpty() && !cluster.primary().position().executed().contains(wm)) {
      forgetLost(wm, true);
    }
    watermarkCheckedEpoch = epoch;
  }

  /**
   * Whether other connections may read this one's writes right away (the call runs in a scope, or JVM mode):
   * capture eagerly.
   */
  private boolean sharesWrites() {
    ConsistencyScope scope = call.scope();
    return scope != null || effectiveMode(scope) == ConsistencyMode.JVM;
  }

  private void captureIfDue() throws SQLException {
    if (captureDue) {
      captureWithQuery();
    }
  }

  private void captureWithQuery() throws SQLException {
    wrote(primary.connection().readExecutedGtids());
    cluster.metrics().gtidQuery();
    captureDue = false;
  }

  public String consistencyToken() throws SQLException {
    if (queryCapture) {
      captureIfDue();
    }
    TokenCodec codec = cluster.settings().tokenCodec();
    Position own = watermark.current();
    Position seen = Positions.EMPTY;
    List<String> pending = List.of();
    if (monotonicReads) {
      reads.resolve(cluster);
      seen = reads.bound().full();
      pending = new ArrayList<>(2);
      reads.pendingServers(pending);
    }
    if (!codec.fits(own, seen, pending)) {
      own = filledOnPrimary(own);
    }
    try {
      return codec.encode(own, seen, pending);
    } catch (IllegalArgumentException e) {
      throw new SQLNonTransientException("[" + cluster.name() + "] " + e.getMessage(), "22023", e);
    }
  }

  /**
   * Compacts the watermark exactly: fills its gaps from the primary's {@code gtid_executed}, read now
   * (one statement; only for a token that would not fit its bounds otherwise).
   */
  private Position filledOnPrimary(Position own) throws SQLException {
    watermark.advance(own.filledFrom(primaryExecutedNow()));
    return watermark.current();
  }

  /** The primary's {@code gtid_executed}, read now (one statement), which the cluster then knows it has. */
  private Position primaryExecutedNow() throws SQLException {
    Position executed = primary.ensure().readExecutedGtids();
    cluster.metrics().gtidQuery();
    cluster.tracker().primaryHas(executed);
    return executed;
  }

  public void mergeConsistencyToken(String token) throws SQLException {
    TokenCodec.Contents contents = cluster.settings().tokenCodec().read(token);
    Position all = contents.all();
    PositionKind kind = primary.connection().positionKind(); // from the login's identity: no round trip
    if (!all.isEmpty() && all.kind() != kind) {
      throw new SQLNonTransientException("[" + cluster.name() + "] The consistency token names a "
          + all.kind().displayName() + ", but this cluster's servers use the " + kind.displayName()
          + " kind: a token made for another cluster cannot be merged.", "22023");
    }
    watermark.advance(contents.writes());
    watermarkGrewAt = cluster.tracker().primaryPollsSent();
    if (monotonicReads) {
      reads.imported(contents.reads(), contents.pendingServers(), ReadClock.completed());
    }
  }

  public void setConsistencyMode(@Nullable ConsistencyMode mode) {
    modeOverride = mode;
  }
}
