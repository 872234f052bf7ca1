package dev.ryow.jdbc.session;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.PrimaryState;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.route.LoginRule;
import dev.ryow.jdbc.route.PrimaryWaitRule;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.Sql;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One session's link to the primary: the physical connection (opened at login, looking for the
 * writable server when the URL's primary is unreachable or read-only; replaced after it broke or the
 * cluster moved to another primary), its {@link SessionMirror}, the primary epoch it belongs to, and
 * the autocommit and read-only flags the physical connection has, which reach it only right before a
 * statement runs there ({@link #sync}).
 */
final class PrimaryLink {
  private static final Logger LOG = LoggerFactory.getLogger(PrimaryLink.class);

  /** How long a statement waits for a switchover before it tries the primary and asks the rule again. */
  private static final long SWITCHOVER_SLICE_MILLIS = 500;

  private final Cluster cluster;
  private final RyowConfig config;
  private final ConnectorJ connector;
  private final SessionState session;
  /** Where the GTIDs of our writes go (own_gtid capture: the primary's OK packets). */
  private final Consumer<String> ownGtids;
  private PhysicalConnection primary;
  private SessionMirror mirror;
  /** The cluster's primary epoch {@link #primary} belongs to. */
  private long epoch;
  /**
   * The cluster's count of primary outages when {@link #primary} was opened ({@link
   * dev.ryow.jdbc.cluster.PrimaryState#outages}).
   */
  private long outages;
  /**
   * What the physical primary connection has: the flags reach it only before a statement runs there
   * ({@link #sync}), so a read-only transaction served by a replica costs the primary nothing.
   */
  private boolean autoCommit = true;
  /** Connector/J's read-only flag on {@link #primary} and its session's mode ({@link PrimaryReadOnly}). */
  private PrimaryReadOnly readOnly = PrimaryReadOnly.OPENED;
  /**
   * {@link #primary} is a replica's connection standing in for the primary's (the login found no
   * writable server): never run on, replaced before the first statement that needs the primary.
   */
  private boolean standIn;

  /**
   * Opens the primary connection at login (one round of primary discovery at most). When that finds no
   * writable server, the {@link LoginRule} may open the logical connection on a replica instead: a
   * stand-in ({@link #standIn}) that no statement runs on, replaced before the first one that needs the
   * primary.
   */
  PrimaryLink(Cluster cluster, RyowConfig config, ConnectorJ connector, SessionState session,
      Consumer<String> ownGtids) throws SQLException {
    this.cluster = cluster;
    this.config = config;
    this.connector = connector;
    this.session = session;
    this.ownGtids = ownGtids;
    PhysicalConnection opened;
    try {
      opened = connect(Patience.LOGIN);
    } catch (SQLException e) {
      opened = standIn(e);
    }
    this.primary = opened;
    if (!standIn && !primary.identity().passwordExpired()) {
      try {
        cluster.members().distinctServers().verify(primary.host(), primary.identity(), connector, config);
      } catch (SQLException e) {
        primary.close();
        throw e;
      }
    }
    this.mirror = new SessionMirror(session);
  }

  /**
   * A login found no writable primary ({@code failure}): when the {@link LoginRule} says so, opens a
   * connection to the first replica that answers (servers not known unreachable first) and returns it,
   * marked broken, as the stand-in for the primary connection. No statement ever runs on it: every
   * statement and call that needs the primary replaces it first ({@link #stale}); it answers only what
   * Connector/J answers without a round trip (holdability, autocommit, the database), takes the session
   * settings that are replayed on the real one, and tells {@code isValid} whether the logical connection
   * can serve reads. Reads go to the replicas as during any outage of the primary.
   */
  private PhysicalConnection standIn(SQLException failure) throws SQLException {
    PrimaryState state = cluster.primary();
    java.util.List<ReplicaEndpoint> candidates = new java.util.ArrayList<>();
    for (ReplicaEndpoint e : cluster.servers()) {
      if (e != state.endpoint() && !e.vacant() && e.health() != dev.ryow.jdbc.cluster.Health.UNREACHABLE) {
        candidates.add(e);
      }
    }
    for (ReplicaEndpoint e : cluster.servers()) {
      if (e != state.endpoint() && !e.vacant() && e.health() == dev.ryow.jdbc.cluster.Health.UNREACHABLE) {
        candidates.add(e);
      }
    }
    LoginRule.PrimaryOutcome outcome = Sql.isUnreachable(failure)
        ? LoginRule.PrimaryOutcome.NO_WRITABLE_SERVER : LoginRule.PrimaryOutcome.REFUSED;
    if (LoginRule.decide(outcome, candidates.size()) == LoginRule.Login.FAIL) {
      throw failure;
    }
    for (ReplicaEndpoint e : candidates) {
      try {
        PhysicalConnection p = connector.openReplica(config, e.host());
        p.markBroken();
        epoch = state.epoch();
        outages = state.outages();
        standIn = true;
        cluster.logins().loggedIn(config);
        cluster.metrics().loginWithoutPrimary();
        LOG.debug("[{}] no writable primary at login ({}): the connection opens on the replicas; its first statement"
            + " that needs the primary looks for it", cluster.name(), failure.getMessage());
        return p;
      } catch (SQLException replicaFailure) {
        failure.addSuppressed(replicaFailure);
      }
    }
    throw failure;
  }

  /** The physical primary connection (it may be broken: see {@link #stale}). */
  PhysicalConnection connection() {
    return primary;
  }

  SessionMirror mirror() {
    return mirror;
  }

  /** The cluster's primary epoch the connection belongs to. */
  long epoch() {
    return epoch;
  }

  /**
   * Whether the connection is open, to the cluster's current primary, and opened after the primary's
   * last outage.
   */
  boolean current() {
    PrimaryState state = cluster.primary();
    return epoch == state.epoch() && outages == state.outages() && !primary.isClosed();
  }

  /** Why the connection must be replaced before the next statement, or null when it need not be. */
  @org.jspecify.annotations.Nullable String stale() {
    PrimaryState state = cluster.primary();
    if (state.epoch() != epoch) {
      return "the cluster moved to primary " + state.endpoint();
    }
    if (standIn) {
      return "this connection was opened while no writable primary was found";
    }
    if (state.outages() != outages) {
      return "the primary " + state.endpoint() + " was unreachable or read-only since this connection was opened";
    }
    return primary.isClosed() ? "the primary connection was closed" : null;
  }

  /** Whether the physical primary connection is in autocommit mode. */
  boolean autoCommitOnServer() {
    return autoCommit;
  }

  /**
   * Before a statement runs on the primary: gives the physical connection the application's read-only
   * and autocommit flags where they differ (HikariCP's dirty-bit idea, applied to routing). Read-only
   * first, so a transaction it opens is read-only on the server, exactly as with Connector/J alone.
   */
  void sync(boolean wantReadOnly, boolean wantAutoCommit) throws SQLException {
    if (readOnly.needsSync(wantReadOnly)) {
      primary.jdbc().setReadOnly(wantReadOnly);
      readOnly = PrimaryReadOnly.synced(wantReadOnly);
    }
    if (autoCommit != wantAutoCommit) {
      primary.jdbc().setAutoCommit(wantAutoCommit);
      autoCommit = wantAutoCommit;
    }
  }

  /** Connector/J's read-only flag on the physical connection and what is known of its session's mode. */
  PrimaryReadOnly readOnly() {
    return readOnly;
  }

  /** The application called {@code setReadOnly(wanted)} ({@link PrimaryReadOnly#applicationSet}). */
  void readOnlySet(boolean wanted) {
    readOnly = readOnly.applicationSet(wanted);
  }

  /** SQL that may change the session's read-only mode ran on the physical connection. */
  void readOnlySqlRan() {
    readOnly = readOnly.sqlRan();
  }

  /** The physical connection's session is read-only when {@code onServer}, as its server just said. */
  void readOnlyServerSaid(boolean onServer) {
    readOnly = readOnly.serverSaid(onServer);
  }

  /**
   * Autocommit back on (JDBC: that commits), only when the physical connection is in manual-commit mode.
   * A lost connection holds nothing to commit (the caller refuses a transaction that ran on it): it is
   * replaced, in autocommit mode, before the next statement.
   */
  void autoCommitOn() throws SQLException {
    if (!autoCommit) {
      if (!primary.isClosed()) {
        primary.jdbc().setAutoCommit(true);
      }
      autoCommit = true;
    }
  }

  /** How long {@link #connect} looks for the writable server. */
  enum Patience {
    /** A new logical connection: one round of discovery, waited for no longer than the caller's login timeout. */
    LOGIN,
    /** A read, which never waits for a failover on the primary (it waits on the replicas): one round. */
    ONE_ROUND,
    /**
     * A running connection's statement that must run on the primary: as the {@link PrimaryWaitRule} says (up
     * to {@code ryow.failoverTimeout} for a switchover, a short bound for a dead primary).
     */
    FAILOVER
  }

  /**
   * Replaces the physical connection (reconnect, or failover to the writable server) and replays the
   * recorded session state on the new one; {@code pinned}: session state that lived only on the old
   * one (temporary tables, locks) is lost, logged. When no writable server is found (within
   * {@code patience}), the old connection stays, to be replaced before the next statement.
   */
  void replace(String why, boolean pinned, Patience patience) throws SQLException {
    PhysicalConnection old = primary;
    PhysicalConnection fresh = connect(patience);
    old.close();
    if (pinned) {
      LOG.warn("[{}] session state pinned to the old primary connection (temporary tables, locks...) is lost: {}",
          cluster.name(), why);
    }
    primary = fresh;
    standIn = false;
    SessionMirror m = new SessionMirror(session);
    m.sync(fresh.jdbc(), true);
    autoCommit = true;
    readOnly = PrimaryReadOnly.OPENED; // a new Connector/J connection: the next sync gives it the application's flag
    mirror = m;
    cluster.metrics().primaryReconnected();
    LOG.info("[{}] new primary connection to {} ({})", cluster.name(), fresh.host(), why);
  }

  /**
   * Opens a connection to the cluster's primary; when it is unreachable or read-only, looks for the
   * writable server among the URL's hosts ({@link dev.ryow.jdbc.cluster.PrimaryDiscovery#discoverPrimary}: rounds shared by the
   * cluster's threads, at most one per poll interval) and connects there. {@link Patience#FAILOVER} goes
   * on until {@code ryow.failoverTimeout} (the application keeps its connection through a failover, even
   * when the server found writable fails again before this connection reaches it); a login or a read
   * takes the verdict of one round, and a login waits for it no longer than the caller's
   * {@code DriverManager.setLoginTimeout} or {@code connectTimeout} (the smaller), so {@code connect()}
   * stays within what the caller set.
   */
  private PhysicalConnection connect(Patience patience) throws SQLException {
    long waitingSince = System.nanoTime();
    while (true) {
      PrimaryState state = cluster.primary();
      ReplicaEndpoint target = state.endpoint();
      long startedAt = System.nanoTime();
      String trouble;
      PrimaryWaitRule.Trouble seen;
      try {
        PhysicalConnection p = connector.openPrimary(config, target.host(), ownGtids);
        if (!p.identity().readOnly()) {
          epoch = state.epoch();
          outages = state.outages();
          cluster.tracker().primaryReachable(target);
          cluster.logins().loggedIn(config);
          if (!p.identity().passwordExpired()) {
            cluster.jvm().primaryIdentified(p.identity().serverUuid());
          }
          return p;
        }
        p.close();
        trouble = "the primary " + target + " is read-only";
        seen = PrimaryWaitRule.trouble(true, state.lost() && cluster.discovery().lastRoundMissedAHost());
      } catch (SQLException e) {
        if (!Sql.isUnreachable(e)) {
          throw e;
        }
        trouble = "the primary " + target + " is unreachable: " + e.getMessage();
        seen = PrimaryWaitRule.Trouble.UNREACHABLE;
      }
      switch (patience) {
        case LOGIN -> {
          if (state.lost()) {
            // A round already found no writable server and this attempt confirms it: the login opens on
            // the replicas at once instead of waiting for the next round (the poller ends the outage).
            throw new SQLTransientConnectionException("[" + cluster.name() + "] no writable server: " + trouble
                + " (and no writable server was found since " + target + " was lost)", "08001");
          }
          cluster.discovery().discoverPrimaryOnce(state.epoch(), startedAt, trouble, loginBudgetMillis());
        }
        case ONE_ROUND -> cluster.discovery().discoverPrimaryOnce(state.epoch(), startedAt, trouble,
            cluster.settings().failoverTimeoutMillis());
        case FAILOVER -> failover(state, seen, waitingSince, startedAt, trouble);
      }
      if (patience != Patience.FAILOVER) {
        // The round found a writable server: connect there, once.
        PrimaryState found = cluster.primary();
        PhysicalConnection p = connector.openPrimary(config, found.endpoint().host(), ownGtids);
        if (p.identity().readOnly()) {
          p.close();
          throw new SQLTransientConnectionException(
              "The primary " + found.endpoint() + " turned read-only while connecting (" + trouble + "): retry.", "08001");
        }
        epoch = found.epoch();
        outages = found.outages();
        cluster.logins().loggedIn(config);
        if (!p.identity().passwordExpired()) {
          cluster.jvm().primaryIdentified(p.identity().serverUuid());
        }
        return p;
      }
    }
  }

  /**
   * A statement that needs the primary found it {@code seen} ({@code trouble}): waits for a round of
   * discovery to find the writable server as long as the {@link PrimaryWaitRule} allows (a switchover up
   * to {@code ryow.failoverTimeout}, a death {@link PrimaryWaitRule#DEATH_BOUND_MILLIS} from the outage's
   * start), then fails: a switchover that took too long with the 08001 of
   * {@link dev.ryow.jdbc.cluster.PrimaryDiscovery#noWritablePrimary}, a dead primary with the HYT01 of
   * {@link dev.ryow.jdbc.cluster.PrimaryDiscovery#primaryUnreachable}, which a pool does not evict for.
   */
  private void failover(PrimaryState state, PrimaryWaitRule.Trouble seen, long waitingSince, long startedAt,
      String trouble) throws SQLException {
    long lostSince = state.outageNanos();
    long left = PrimaryWaitRule.leftMillis(seen, waitingSince, lostSince, System.nanoTime(),
        cluster.settings().failoverTimeoutMillis());
    boolean death = PrimaryWaitRule.why(seen) == PrimaryWaitRule.Why.DEATH;
    long outageSince = lostSince != 0 && lostSince - waitingSince < 0 ? lostSince : waitingSince;
    if (left <= 0) {
      throw death ? cluster.discovery().primaryUnreachable(trouble, outageSince, PrimaryWaitRule.DEATH_BOUND_MILLIS)
          : cluster.discovery().noWritablePrimary(trouble);
    }
    // A switchover is waited for in slices: each ends with a new attempt and a new verdict of the rule (a
    // round may meanwhile find a host unreachable: then a server died, and the short bound applies).
    long slice = death ? left : Math.min(left, SWITCHOVER_SLICE_MILLIS);
    try {
      cluster.discovery().discoverPrimary(state.epoch(), startedAt, slice, trouble);
    } catch (SQLTransientConnectionException e) {
      if (slice < left) {
        return;
      }
      if (!death) {
        throw e;
      }
      SQLException fast = cluster.discovery().primaryUnreachable(trouble, outageSince, PrimaryWaitRule.DEATH_BOUND_MILLIS);
      fast.addSuppressed(e);
      throw fast;
    }
  }

  /**
   * How long a login may wait for another thread's primary discovery: the smaller of
   * {@code DriverManager.getLoginTimeout()} and Connector/J's {@code connectTimeout} that are set,
   * else {@code ryow.failoverTimeout}.
   */
  private long loginBudgetMillis() {
    long budget = java.sql.DriverManager.getLoginTimeout() * 1000L;
    String connectTimeout = config.connectorProperties().getProperty("connectTimeout");
    if (connectTimeout != null) {
      try {
        long millis = Long.parseLong(connectTimeout.trim());
        if (millis > 0 && (budget <= 0 || millis < budget)) {
          budget = millis;
        }
      } catch (NumberFormatException e) {
        // Connector/J refuses such a value itself when it connects.
      }
    }
    return budget > 0 ? budget : cluster.settings().failoverTimeoutMillis();
  }
}
