package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.gtid.MalformedGtidSetException;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.PositionKind;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.metrics.ClusterMetrics;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.GroupMember;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.ReportedReplica;
import dev.ryow.jdbc.server.ServerStatus;
import dev.ryow.jdbc.server.Sql;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's one background poller: a daemon thread that, every {@code ryow.pollInterval}, reads
 * each server's position and health in one query over its own monitor connection, and watches the
 * primary (unreachable or read-only → rediscovery). Between two rounds it probes the replicas predicted
 * {@linkplain StallRule stalled}, {@link #TICKS_PER_ROUND} times a round, with the same query: a read
 * whose watermark a stalled replica lacks goes to the primary without a wait, so a stalled replica is
 * used again within an eighth of a round of advancing, not up to a whole round later. Runs while the
 * cluster has open logical connections; stops (closing its connections) once none remained for
 * {@link #LINGER_NANOS}.
 */
final class ClusterMonitor {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterMonitor.class);
  /** How long the poller outlives the last logical connection, so that connect/close loops do not churn threads. */
  static final long LINGER_NANOS = 2_000_000_000L;
  /** The poller's ticks per round: the first polls every server, the others probe the stalled replicas. */
  static final int TICKS_PER_ROUND = 8;

  private final Cluster cluster;
  private final ConnectorJ connector;
  private final ClusterMetrics metrics;
  private final long intervalMillis;
  private final long maxLagMillis;
  private final long stopGraceNanos;
  private final ReplicaHealthRule.Limits healthLimits;
  private final int serverCount;
  private final ReentrantLock lifecycle = new ReentrantLock();
  private @Nullable PeriodicTask poller;
  private int openConnections;
  private long idleSinceNanos;
  /** The primary's gtid_executed at the previous round: a replica without it is {@linkplain ReplicaEndpoint#behind() behind}. */
  private Position previousPrimaryExecuted = Positions.EMPTY;
  /** What the replicas were judged {@linkplain ReplicaEndpoint#behind() behind} against in the last round. */
  private Position roundBehindUnless = Positions.EMPTY;
  /** The poller's ticks so far (its thread only): every {@link #TICKS_PER_ROUND}th is a round. */
  private long ticks;
  /** The primary's last poll found it a Group Replication member: its group's members are read each round. */
  private boolean primaryInGroup;
  /** {@code ryow.discoverReplicas}: the primary's {@code SHOW REPLICAS} is read each round. */
  private final boolean discoverReplicas;
  /** Listed replicas refused admission, by server_uuid: when each may be tried again ({@link System#nanoTime()}). */
  private final java.util.Map<String, Long> refusedUntil = new java.util.HashMap<>();
  /** How long a refused replica is left alone before it is tried again. */
  static final long REFUSAL_RETRY_NANOS = 10_000_000_000L;

  ClusterMonitor(Cluster cluster, RyowConfig config, ConnectorJ connector) {
    this.cluster = cluster;
    this.connector = connector;
    this.metrics = cluster.metrics();
    this.intervalMillis = config.get(RyowProperties.POLL_INTERVAL_MILLIS);
    this.maxLagMillis = config.get(RyowProperties.MAX_REPLICA_LAG_MILLIS);
    this.stopGraceNanos = TimeUnit.MILLISECONDS.toNanos(config.get(RyowProperties.APPLIER_STOP_GRACE_MILLIS));
    this.healthLimits = new ReplicaHealthRule.Limits(stopGraceNanos, maxLagMillis,
        config.get(RyowProperties.WAIT_TIMEOUT_MILLIS));
    this.serverCount = cluster.servers().size();
    this.discoverReplicas = config.get(RyowProperties.DISCOVER_REPLICAS);
  }

  /** A logical connection opened: start polling if not running. */
  void connectionOpened() {
    lifecycle.lock();
    try {
      openConnections++;
      if (poller != null && !poller.running()) {
        poller.stop(); // ended by an Error (logged): a new run starts
        poller = null;
      }
      if (poller == null) {
        long now = System.nanoTime();
        for (ReplicaEndpoint e : cluster.servers()) {
          e.forgetHealth(now);
        }
        // Each run has its own monitor connections: a stopping run and the next one never share them.
        @Nullable PhysicalConnection[] monitors = new PhysicalConnection[serverCount];
        poller = new PeriodicTask("ryow-monitor-" + cluster.name(), () -> tick(monitors), 0,
            Math.max(1, intervalMillis / TICKS_PER_ROUND),
            failure -> LOG.warn("[{}] the poller stopped: {}", cluster.name(), failure.toString()));
      }
    } finally {
      lifecycle.unlock();
    }
  }

  /** A logical connection closed. */
  void connectionClosed() {
    lifecycle.lock();
    try {
      if (--openConnections == 0) {
        idleSinceNanos = System.nanoTime();
      }
    } finally {
      lifecycle.unlock();
    }
  }

  /** Whether the poller thread runs (tests and diagnostics). */
  boolean running() {
    lifecycle.lock();
    try {
      return poller != null && poller.running();
    } finally {
      lifecycle.unlock();
    }
  }

  private void tick(@Nullable PhysicalConnection[] monitors) {
    try {
      if (stopIfIdle(monitors)) {
        return;
      }
      if (ticks++ % TICKS_PER_ROUND == 0) {
        pollAll(monitors);
      } else {
        probeStalled(monitors);
      }
    } catch (RuntimeException e) {
      // Never let the scheduled task die: a dead poller would leave replicas out of rotation forever.
      LOG.warn("[{}] poll failed: {}", cluster.name(), e.toString());
    }
  }

  private boolean stopIfIdle(@Nullable PhysicalConnection[] monitors) {
    lifecycle.lock();
    try {
      if (openConnections > 0 || System.nanoTime() - idleSinceNanos < LINGER_NANOS) {
        return false;
      }
      PeriodicTask p = poller;
      poller = null;
      if (p != null) {
        p.stop();
      }
    } finally {
      lifecycle.unlock();
    }
    for (int i = 0; i < monitors.length; i++) {
      closeMonitor(monitors, i);
    }
    return true;
  }

  /** Between rounds: polls the replicas predicted stalled, judged as in the last round. */
  private void probeStalled(@Nullable PhysicalConnection[] monitors) {
    for (ReplicaEndpoint e : cluster.servers()) {
      if (e != cluster.primaryEndpoint() && !e.vacant() && e.stalled()) {
        pollReplica(monitors, e, roundBehindUnless);
      }
    }
  }

  /** One round over every server. */
  private void pollAll(@Nullable PhysicalConnection[] monitors) {
    List<ReplicaEndpoint> servers = cluster.servers();
    PrimaryState primary = cluster.primary();
    Position behindUnless = previousPrimaryExecuted;
    roundBehindUnless = behindUnless;
    previousPrimaryExecuted = pollPrimary(monitors, primary);
    if (primaryInGroup) {
      discoverMembers(monitors, primary.endpoint());
    } else if (discoverReplicas && !previousPrimaryExecuted.isEmpty()) {
      discoverReplicas(monitors, primary.endpoint());
    }
    long inRotation = 0;
    long out = 0;
    long maxLag = 0;
    StringBuilder states = new StringBuilder();
    for (ReplicaEndpoint e : servers) {
      if (e == cluster.primaryEndpoint() || e.vacant()) {
        continue;
      }
      pollReplica(monitors, e, behindUnless);
      if (e.health().inRotation()) {
        inRotation++;
      } else {
        out++;
      }
      maxLag = Math.max(maxLag, e.lagMillis());
      if (states.length() > 0) {
        states.append("; ");
      }
      states.append(e.describe());
    }
    metrics.replicaHealth(inRotation, out, maxLag, states.toString());
    cluster.rounds().roundDone(System.nanoTime());
  }

  /**
   * Polls the primary {@code state} names; returns its gtid_executed (empty when it could not be read, or
   * when the cluster moved to another primary while the poll ran).
   */
  private Position pollPrimary(@Nullable PhysicalConnection[] monitors, PrimaryState state) {
    ReplicaEndpoint primary = state.endpoint();
    String trouble;
    long polledAt = ReadClock.start();
    long ticket = cluster.tracker().primaryPollTicket();
    try {
      ServerStatus status = poll(monitors, primary);
      cluster.waits().primaryPollTook(System.nanoTime() - polledAt);
      cluster.members().distinctServers().learned(primary, status.serverUuid());
      metrics.positionPolled();
      primaryInGroup = status.groupMember();
      if (!status.readOnly()) {
        return cluster.primaryPolled(primary, primary.observePrimary(status, polledAt), ticket)
            ? status.gtidExecuted() : Positions.EMPTY;
      }
      trouble = "the primary " + primary + " is read-only";
    } catch (SQLException e) {
      closeMonitor(monitors, primary.index());
      if (Sql.isAuthenticationFailure(e)) {
        cluster.logins().credentialsRefused(primary, e);
        return Positions.EMPTY;
      }
      trouble = "the primary " + primary + " is unreachable: " + e.getMessage();
    }
    cluster.discovery().primaryTroubleSeenByPoller(state, polledAt, trouble);
    return Positions.EMPTY;
  }

  /**
   * Members of the primary's group that the cluster does not know yet (not in the URL) take vacant places;
   * members that left stay, judged by their own polls (an OFFLINE or unreachable member is out of rotation).
   */
  private void discoverMembers(@Nullable PhysicalConnection[] monitors, ReplicaEndpoint primary) {
    List<GroupMember> members;
    try {
      members = monitor(monitors, primary).readGroupMembers();
    } catch (SQLException e) {
      LOG.debug("[{}] reading the group's members on {} failed: {}", cluster.name(), primary, e.getMessage());
      return;
    }
    for (GroupMember m : members) {
      if (m.state().equals("ONLINE") || m.state().equals("RECOVERING")) {
        cluster.members().memberFound(m.uuid(), new HostSpec(m.host(), m.port()));
      }
    }
  }

  /**
   * Replicas the primary lists ({@code SHOW REPLICAS}) that the cluster does not know yet take vacant places
   * once admitted ({@link DiscoveryAdmission}: reached with the URL's credentials, the reported server_uuid,
   * replicating from this primary); discovered replicas it no longer lists leave rotation
   * ({@link ReplicaEndpoint#unlisted()}).
   */
  private void discoverReplicas(@Nullable PhysicalConnection[] monitors, ReplicaEndpoint primary) {
    String primaryUuid = primary.serverUuid();
    if (primaryUuid == null) {
      return;
    }
    List<ReportedReplica> reported;
    try {
      reported = monitor(monitors, primary).readReportedReplicas();
    } catch (SQLException e) {
      LOG.debug("[{}] SHOW REPLICAS on {} failed: {}", cluster.name(), primary, e.getMessage());
      return;
    }
    java.util.Set<String> listed = new java.util.HashSet<>();
    long now = System.nanoTime();
    for (ReportedReplica r : reported) {
      listed.add(r.uuid());
      HostSpec host = new HostSpec(r.host(), r.port());
      if (cluster.members().knowsServer(r.uuid(), host)) {
        continue;
      }
      Long retryAt = refusedUntil.get(r.uuid());
      if (retryAt != null && now - retryAt < 0) {
        continue;
      }
      admit(monitors, r, host, primaryUuid, now);
    }
    for (ReplicaEndpoint e : cluster.servers()) {
      if (e.discovered()) {
        String uuid = e.serverUuid();
        e.listed(uuid != null && listed.contains(uuid));
      }
    }
  }

  private void admit(@Nullable PhysicalConnection[] monitors, ReportedReplica r, HostSpec host, String primaryUuid,
      long now) {
    PhysicalConnection c = null;
    ServerStatus status = null;
    String unreachable = "";
    try {
      c = connector.openMonitor(cluster.logins().monitorConfig(), host);
      status = c.readStatus();
    } catch (SQLException e) {
      unreachable = String.valueOf(e.getMessage());
    }
    DiscoveryAdmission verdict = DiscoveryAdmission.of(r.uuid(), primaryUuid,
        status == null ? null : status.serverUuid(), unreachable,
        status == null ? List.of() : status.sourceUuids());
    ReplicaEndpoint place = verdict.admitted() ? cluster.members().replicaFound(r.uuid(), host) : null;
    if (place != null && c != null) {
      closeMonitor(monitors, place.index());
      monitors[place.index()] = c;
      refusedUntil.remove(r.uuid());
      return;
    }
    if (c != null) {
      c.close();
    }
    boolean firstRefusal = refusedUntil.put(r.uuid(), now + REFUSAL_RETRY_NANOS) == null;
    if (!verdict.admitted() && firstRefusal) {
      LOG.warn("[{}] the primary lists replica {} (server_uuid {}), not used: {}", cluster.name(), host, r.uuid(),
          verdict.why());
    }
  }

  private void pollReplica(@Nullable PhysicalConnection[] monitors, ReplicaEndpoint e, Position behindUnless) {
    long now = System.nanoTime();
    if (!e.probeDue(now)) {
      return;
    }
    if (e.unlisted()) {
      cluster.health(e, Health.REPLICATION_STOPPED, 0, "the primary no longer lists it (SHOW REPLICAS)");
      return;
    }
    ServerStatus status;
    Position knownBefore = e.knownExecuted();
    long startedNanos = ReadClock.start();
    try {
      status = poll(monitors, e);
    } catch (SQLException failure) {
      closeMonitor(monitors, e.index());
      if (Sql.isAuthenticationFailure(failure)) {
        cluster.logins().credentialsRefused(e, failure);
        return;
      }
      cluster.unreachable(e, "poll failed: " + failure.getMessage());
      return;
    } catch (MalformedGtidSetException unreadable) {
      // One server's answer this driver cannot read leaves that server out, not the rest of the round.
      closeMonitor(monitors, e.index());
      cluster.unreachable(e, "poll failed: its answer could not be read: " + unreadable.getMessage());
      return;
    }
    metrics.positionPolled();
    cluster.members().distinctServers().learned(e, status.serverUuid());
    e.behind(!status.gtidExecuted().contains(behindUnless), behindUnless);
    if (e.observe(status, knownBefore, startedNanos)) {
      metrics.positionReset();
      LOG.info("[{}] {}: known position reset to {} (server_uuid {})", cluster.name(), e, status.gtidExecuted(),
          status.serverUuid());
    }
    String primaryUuid = cluster.primaryEndpoint().serverUuid();
    if (primaryUuid != null) {
      status = status.forSource(primaryUuid); // a multi-source replica: judged on the primary's channels
    }
    if (status.healthKnown() && status.groupMember()) {
      GroupMemberHealth g = GroupMemberHealth.of(status.groupMemberState(), status.readOnly(), status.lastError(),
          status.applierLagMillis(), maxLagMillis);
      e.replicationRunning();
      cluster.health(e, g.health(), status.applierLagMillis(), g.why());
      return;
    }
    boolean stopped = status.healthKnown() && status.replicaChannels() > 0
        && (!status.receiverRunning() || !status.applierRunning());
    if (!stopped || !status.lastError().isEmpty()) {
      e.replicationRunning();
    }
    long stoppedFor = stopped && status.lastError().isEmpty() ? e.stoppedForNanos(now) : 0;
    ReplicaHealthRule h = ReplicaHealthRule.of(status, stoppedFor, positionWaits(status), healthLimits);
    cluster.health(e, h.health(), status.applierLagMillis(), h.why());
  }

  /** Whether a replica polled as {@code status} may be waited on with the primary's binary-log positions. */
  private PositionWaitRule positionWaits(ServerStatus status) {
    if (status.gtidExecuted().kind() != PositionKind.BINLOG_POSITION) {
      return PositionWaitRule.ELIGIBLE;
    }
    String primaryUuid = cluster.primaryEndpoint().serverUuid();
    return PositionWaitRule.of(primaryUuid == null ? "" : primaryUuid, status.sourceUuids());
  }

  /**
   * One poll of {@code e}: on its open monitor connection, and when that connection turns out broken (a
   * killed session, a network blip), once more on a new one before the failure counts.
   */
  private ServerStatus poll(@Nullable PhysicalConnection[] monitors, ReplicaEndpoint e) throws SQLException {
    PhysicalConnection open = monitors[e.index()];
    boolean reused = open != null && !open.isClosed();
    try {
      return monitor(monitors, e).readStatus();
    } catch (SQLException failure) {
      if (!reused || !Sql.isConnectionFailure(failure)) {
        throw failure;
      }
      closeMonitor(monitors, e.index());
      return monitor(monitors, e).readStatus();
    }
  }

  private PhysicalConnection monitor(@Nullable PhysicalConnection[] monitors, ReplicaEndpoint e) throws SQLException {
    PhysicalConnection c = monitors[e.index()];
    if (c == null || c.isClosed()) {
      c = connector.openMonitor(cluster.logins().monitorConfig(), e.host());
      monitors[e.index()] = c;
    }
    return c;
  }

  private static void closeMonitor(@Nullable PhysicalConnection[] monitors, int index) {
    PhysicalConnection c = monitors[index];
    monitors[index] = null;
    if (c != null) {
      c.close();
    }
  }
}
