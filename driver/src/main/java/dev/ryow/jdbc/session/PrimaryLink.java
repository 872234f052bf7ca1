package dev.ryow.jdbc.session;

import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.route.Cluster;
import dev.ryow.jdbc.route.ReplicaEndpoint;
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
   * What the physical primary connection has: the flags reach it only before a statement runs there
   * ({@link #sync}), so a read-only transaction served by a replica costs the primary nothing.
   */
  private boolean autoCommit = true;
  private boolean readOnly;

  /** Opens the primary connection at login (one round of primary discovery at most). */
  PrimaryLink(Cluster cluster, RyowConfig config, ConnectorJ connector, SessionState session,
      Consumer<String> ownGtids) throws SQLException {
    this.cluster = cluster;
    this.config = config;
    this.connector = connector;
    this.session = session;
    this.ownGtids = ownGtids;
    this.primary = connect(true);
    try {
      cluster.distinctServers().verify(primary.host(), primary.identity().serverUuid(), connector, config);
    } catch (SQLException e) {
      primary.close();
      throw e;
    }
    this.mirror = new SessionMirror(session);
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

  /** Whether the connection is open and to the cluster's current primary. */
  boolean current() {
    return epoch == cluster.primaryEpoch() && !primary.isClosed();
  }

  /** Why the connection must be replaced before the next statement, or null when it need not be. */
  @org.jspecify.annotations.Nullable String stale() {
    boolean moved = cluster.primaryEpoch() != epoch;
    if (!moved && !primary.isClosed()) {
      return null;
    }
    return moved ? "the cluster moved to primary " + cluster.primaryEndpoint() : "the primary connection was closed";
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
    if (readOnly != wantReadOnly) {
      primary.jdbc().setReadOnly(wantReadOnly);
      readOnly = wantReadOnly;
    }
    if (autoCommit != wantAutoCommit) {
      primary.jdbc().setAutoCommit(wantAutoCommit);
      autoCommit = wantAutoCommit;
    }
  }

  /** Autocommit back on (JDBC: that commits), only when the physical connection is in manual-commit mode. */
  void autoCommitOn() throws SQLException {
    if (!autoCommit) {
      primary.jdbc().setAutoCommit(true);
      autoCommit = true;
    }
  }

  /**
   * Replaces the physical connection (reconnect, or failover to the writable server) and replays the
   * recorded session state on the new one; {@code pinned}: session state that lived only on the old
   * one (temporary tables, locks) is lost, logged.
   */
  void replace(String why, boolean pinned) throws SQLException {
    PhysicalConnection old = primary;
    PhysicalConnection fresh = connect(false);
    old.close();
    if (pinned) {
      LOG.warn("[{}] session state pinned to the old primary connection (temporary tables, locks...) is lost: {}",
          cluster.name(), why);
    }
    primary = fresh;
    SessionMirror m = new SessionMirror(session);
    m.sync(fresh.jdbc(), true);
    autoCommit = true;
    readOnly = false;
    mirror = m;
    cluster.metrics().primaryReconnected();
    LOG.info("[{}] new primary connection to {} ({})", cluster.name(), fresh.host(), why);
  }

  /**
   * Opens a connection to the cluster's primary; when it is unreachable or read-only, looks for the
   * writable server among the URL's hosts and connects there. A running connection ({@code atLogin}
   * false) looks for up to {@code ryow.failoverTimeout}: the application keeps its connection through a
   * failover. A login looks once (one round over the hosts) and fails at once if no host is writable;
   * waiting for another thread's search is bounded by the caller's {@code DriverManager.setLoginTimeout}
   * or {@code connectTimeout} (the smaller), so {@code connect()} stays within what the caller set.
   */
  private PhysicalConnection connect(boolean atLogin) throws SQLException {
    long epochThen = cluster.primaryEpoch();
    ReplicaEndpoint target = cluster.primaryEndpoint();
    long failedAt = System.nanoTime();
    String trouble;
    try {
      PhysicalConnection p = connector.openPrimary(config, target.host(), ownGtids);
      if (!p.identity().readOnly()) {
        epoch = epochThen;
        cluster.loggedIn(config);
        return p;
      }
      p.close();
      trouble = "the primary " + target + " is read-only";
    } catch (SQLException e) {
      if (!Sql.isUnreachable(e)) {
        throw e;
      }
      trouble = "the primary " + target + " is unreachable: " + e.getMessage();
    }
    ReplicaEndpoint found = atLogin
        ? cluster.discoverPrimary(epochThen, failedAt, 0, trouble, loginBudgetMillis())
        : cluster.discoverPrimary(epochThen, failedAt, cluster.failoverTimeoutMillis(), trouble);
    long epochNow = cluster.primaryEpoch();
    PhysicalConnection p = connector.openPrimary(config, found.host(), ownGtids);
    if (p.identity().readOnly()) {
      p.close();
      throw new SQLTransientConnectionException(
          "The primary " + found + " turned read-only while connecting (" + trouble + "): retry.", "08001");
    }
    epoch = epochNow;
    cluster.loggedIn(config);
    return p;
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
    return budget > 0 ? budget : cluster.failoverTimeoutMillis();
  }
}
