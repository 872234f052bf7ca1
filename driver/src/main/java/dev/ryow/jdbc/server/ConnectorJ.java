package dev.ryow.jdbc.server;

import com.mysql.cj.jdbc.NonRegisteringDriver;
import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.config.GtidCaptureMode;
import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.Properties;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Opens physical connections through Connector/J (never through {@code DriverManager}, so no other
 * driver can answer) and checks that the server can do what ryow needs.
 */
public final class ConnectorJ {
  private static final String TRACK_OWN_GTID = "session_track_gtids=OWN_GTID";
  private static final String PROBE_SQL =
      "SELECT @@global.gtid_mode, @@session.session_track_gtids, @@server_uuid, @@port,"
          + " @@global.read_only OR @@global.super_read_only";
  /** Monitor connections must not hang the poller on a dead host. */
  private static final String MONITOR_CONNECT_TIMEOUT_MILLIS = "2000";
  private static final String MONITOR_SOCKET_TIMEOUT_MILLIS = "5000";

  /** The oldest Connector/J this driver supports: the 8.4 LTS line. */
  public static final String OLDEST_SUPPORTED = "8.4";
  /** The newest Connector/J line this driver supports (built and tested against 26.10). */
  public static final String NEWEST_SUPPORTED = "26.x";
  private static final int OLDEST_MAJOR = 8;
  private static final int OLDEST_MINOR = 4;
  private static final int NEWEST_MAJOR = 26;

  private final Driver driver;
  /** Each host's flavour when it was last reached (by {@code host:port}): a hint, checked on every connect. */
  private final java.util.concurrent.ConcurrentHashMap<String, ServerFlavor> flavors =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * Loads Connector/J and checks that its version is supported.
   *
   * @throws SQLNonTransientConnectionException when the Connector/J on the class path is older than
   *     {@value #OLDEST_SUPPORTED} or newer than {@value #NEWEST_SUPPORTED}
   */
  public ConnectorJ() throws SQLException {
    this(new NonRegisteringDriver());
    // The running Connector/J's own answer: its version constants would be inlined at compile time.
    requireSupported(driver.getMajorVersion(), driver.getMinorVersion());
  }

  /**
   * Fails unless Connector/J {@code major.minor} is in the supported range: {@value #OLDEST_SUPPORTED}
   * (the 8.4 LTS line) through {@value #NEWEST_SUPPORTED}. The APIs the driver uses (session-state
   * listeners, {@code NonRegisteringDriver}) are the same in all of them; outside it nothing is tested,
   * so a build tool that silently swapped the version gets a clear error instead of a surprise later.
   */
  static void requireSupported(int major, int minor) throws SQLNonTransientConnectionException {
    boolean tooOld = major < OLDEST_MAJOR || (major == OLDEST_MAJOR && minor < OLDEST_MINOR);
    if (tooOld || major > NEWEST_MAJOR) {
      throw new SQLNonTransientConnectionException(
          "MySQL Connector/J " + major + "." + minor + " is on the class path, but ryow-jdbc supports Connector/J "
              + OLDEST_SUPPORTED + " through " + NEWEST_SUPPORTED + ": depend on a supported mysql-connector-j (with"
              + " Spring Boot's dependency management, set the property mysql.version), and keep a single copy on the"
              + " class path.",
          "08001");
    }
  }

  /**
   * Opens the physical connections through {@code physicalDriver} instead of Connector/J: the seam
   * for measuring the wrapper alone against an in-process stub driver (benchmarks). It is handed
   * {@code jdbc:mysql://host:port/database} URLs and must answer the probe and monitor queries.
   */
  public ConnectorJ(Driver physicalDriver) {
    this.driver = physicalDriver;
  }

  /** Connector/J's version, e.g. {@code 26.10}, for diagnostics. */
  public String version() {
    return driver.getMajorVersion() + "." + driver.getMinorVersion();
  }

  /** Connector/J's own property descriptions for a plain {@code jdbc:mysql:} URL. */
  public java.sql.DriverPropertyInfo[] propertyInfo(String mysqlUrl, Properties info) throws SQLException {
    return driver.getPropertyInfo(mysqlUrl, info);
  }

  /**
   * Opens the primary at {@code host} (the URL's first host, or the server found writable after a
   * failover); in {@code own_gtid} mode its OK packets feed {@code ownGtidSink}.
   */
  public PhysicalConnection openPrimary(RyowConfig config, HostSpec host, Consumer<String> ownGtidSink)
      throws SQLException {
    boolean ownGtid = config.get(RyowProperties.GTID_CAPTURE) == GtidCaptureMode.OWN_GTID;
    return open(config, host, ServerRole.PRIMARY, config.connectorProperties(), ownGtid ? ownGtidSink : null,
        keepsExpired(config.connectorProperties().getProperty(KEEP_EXPIRED)));
  }

  /** Whether {@code disconnectOnExpiredPasswords} is set to false (Connector/J's boolean words). */
  static boolean keepsExpired(@Nullable String disconnect) {
    String v = disconnect == null ? "" : disconnect.trim();
    return v.equalsIgnoreCase("false") || v.equalsIgnoreCase("no");
  }

  /**
   * Connector/J's property: {@code false} lets a user whose password expired log in, in the server's
   * sandbox mode, to change it ({@code ALTER USER USER() IDENTIFIED BY …}).
   */
  private static final String KEEP_EXPIRED = "disconnectOnExpiredPasswords";

  /** The server's error for anything but {@code SET}/{@code ALTER USER} in sandbox mode (ER_MUST_CHANGE_PASSWORD). */
  private static final int MUST_CHANGE_PASSWORD = 1820;

  /**
   * What a primary in {@code own_gtid} mode needs from Connector/J: session-state tracking, and on MySQL
   * {@code session_track_gtids=OWN_GTID} (MariaDB has no such variable: {@link LastGtidTracker} adds
   * {@code last_gtid} to the tracked variables once connected).
   */
  private static Properties trackingOwnGtids(Properties base, ServerFlavor flavor) {
    Properties props = new Properties();
    props.putAll(base);
    props.setProperty("trackSessionState", "true");
    if (flavor == ServerFlavor.MYSQL) {
      String existing = props.getProperty("sessionVariables");
      props.setProperty(
          "sessionVariables", existing == null || existing.isBlank() ? TRACK_OWN_GTID : existing + "," + TRACK_OWN_GTID);
    }
    return props;
  }

  /**
   * Opens a connection for the cluster's background poll and primary discovery: short connect and
   * socket timeouts, so that a dead host cannot hold the poller.
   */
  public PhysicalConnection openMonitor(RyowConfig config, HostSpec host) throws SQLException {
    Properties props = config.connectorProperties();
    if (!shorterThanMonitorDefault(props.getProperty("connectTimeout"))) {
      props.setProperty("connectTimeout", MONITOR_CONNECT_TIMEOUT_MILLIS);
    }
    props.setProperty("socketTimeout", MONITOR_SOCKET_TIMEOUT_MILLIS);
    return open(config, host, ServerRole.REPLICA, props, null, false);
  }

  /** Opens a replica connection. */
  public PhysicalConnection openReplica(RyowConfig config, HostSpec replica) throws SQLException {
    Properties props = config.connectorProperties();
    // The pipelined wait (PipelinedWait) goes in the read's packet; reads of the application's with
    // several statements never come here (the classifier sends them to the primary).
    props.setProperty("allowMultiQueries", "true");
    return open(config, replica, ServerRole.REPLICA, props, null, false);
  }

  /**
   * Opens a physical connection and probes who the server is; {@code sandboxAllowed}: a primary connection
   * whose user's password expired, with Connector/J's {@code disconnectOnExpiredPasswords=false}, is kept
   * although the probe was refused ({@link ServerIdentity#passwordExpired}), so that the application can
   * change the password as with Connector/J alone.
   */
  private PhysicalConnection open(RyowConfig config, HostSpec host, ServerRole role, Properties given,
      @Nullable Consumer<String> sink, boolean sandboxAllowed) throws SQLException {
    Properties base = ParseCache.on(given);
    String url = "jdbc:mysql://" + host.address() + "/" + urlEncode(config.database());
    // The flavour this host had last time: a MariaDB primary is opened without MySQL's session_track_gtids.
    ServerFlavor hint = flavors.getOrDefault(host.address(), ServerFlavor.MYSQL);
    Properties props = sink == null ? base : trackingOwnGtids(base, hint);
    Connection connection;
    try {
      connection = driver.connect(url, props);
    } catch (SQLException e) {
      // MariaDB refuses session_track_gtids (unknown system variable): open it the MariaDB way.
      if (e.getErrorCode() != UNKNOWN_SYSTEM_VARIABLE || sink == null || !isMariaDb(config, url, e)) {
        throw e;
      }
      flavors.put(host.address(), ServerFlavor.MARIADB);
      hint = ServerFlavor.MARIADB;
      connection = driver.connect(url, trackingOwnGtids(base, hint));
    }
    if (connection == null) {
      throw new SQLNonTransientConnectionException("Connector/J refused the URL " + url, "08001");
    }
    try {
      ServerIdentity identity;
      try {
        identity = probe(connection, host, role, sink != null, hint);
      } catch (SQLException e) {
        if (!sandboxAllowed || e.getErrorCode() != MUST_CHANGE_PASSWORD) {
          throw e;
        }
        identity = ServerIdentity.passwordExpired(host.port(), ServerFlavor.ofVersion(versionOf(connection)));
        return new PhysicalConnection(connection, host, role, identity, sink, config.clusterName());
      }
      flavors.put(host.address(), identity.flavor());
      if (sink != null && identity.flavor() != hint) {
        // The server changed flavour since last time (a rare redeployment): open it again with what it needs.
        connection.close();
        return open(config, host, role, base, sink, sandboxAllowed);
      }
      return new PhysicalConnection(connection, host, role, identity, sink, config.clusterName());
    } catch (SQLException | RuntimeException e) {
      try {
        connection.close();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private static ServerIdentity probe(
      Connection connection, HostSpec host, ServerRole role, boolean ownGtid, ServerFlavor hint) throws SQLException {
    if (hint == ServerFlavor.MARIADB && ServerFlavor.ofVersion(versionOf(connection)) == ServerFlavor.MARIADB) {
      return probeMariaDb(connection);
    }
    ResultSet rs;
    Statement statement = connection.createStatement();
    try {
      rs = statement.executeQuery(PROBE_SQL);
    } catch (SQLException e) {
      statement.close();
      // MariaDB has no gtid_mode, session_track_gtids or server_uuid.
      if (e.getErrorCode() == UNKNOWN_SYSTEM_VARIABLE
          && ServerFlavor.ofVersion(versionOf(connection)) == ServerFlavor.MARIADB) {
        return probeMariaDb(connection);
      }
      throw e;
    }
    try (statement; rs) {
      rs.next();
      String gtidMode = rs.getString(1);
      boolean gtids = "ON".equalsIgnoreCase(gtidMode);
      if (!gtids && !"OFF".equalsIgnoreCase(gtidMode)) {
        throw new SQLNonTransientConnectionException(
            "The " + role.name().toLowerCase(java.util.Locale.ROOT) + " " + host + " runs with gtid_mode=" + gtidMode
                + ": ryow needs every server with GTIDs (gtid_mode=ON, enforce_gtid_consistency=ON) or every server"
                + " without (gtid_mode=OFF: binary-log positions), not a server between the two.",
            "08004");
      }
      if (ownGtid && !"OWN_GTID".equalsIgnoreCase(rs.getString(2))) {
        throw new SQLNonTransientConnectionException(
            "The primary " + host + " did not accept session_track_gtids=OWN_GTID (it reports '" + rs.getString(2)
                + "'); use " + RyowProperties.GTID_CAPTURE.name() + "=query or allow the session variable.",
            "08004");
      }
      return new ServerIdentity(rs.getString(3), rs.getInt(4), rs.getBoolean(5), ServerFlavor.MYSQL, gtids);
    }
  }

  private static ServerIdentity probeMariaDb(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(MariaDbServer.PROBE_SQL)) {
      rs.next();
      return MariaDbServer.identity(rs);
    }
  }

  /** The version the server sent in its handshake (no round trip). */
  private static String versionOf(Connection connection) throws SQLException {
    java.sql.DatabaseMetaData meta = connection.getMetaData();
    String version = meta == null ? null : meta.getDatabaseProductVersion();
    return version == null ? "" : version;
  }

  /** MySQL's and MariaDB's error for {@code SET}/{@code SELECT} of a variable the server does not have. */
  private static final int UNKNOWN_SYSTEM_VARIABLE = 1193;

  /** After a connect refused for an unknown variable: whether a plain connection finds a MariaDB server. */
  private boolean isMariaDb(RyowConfig config, String url, SQLException cause) {
    try (Connection plain = driver.connect(url, config.connectorProperties())) {
      return plain != null && ServerFlavor.ofVersion(versionOf(plain)) == ServerFlavor.MARIADB;
    } catch (SQLException e) {
      cause.addSuppressed(e);
      return false;
    }
  }

  private static String urlEncode(String database) {
    return java.net.URLEncoder.encode(database, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Whether the caller's {@code connectTimeout} is shorter than the monitor's own (then it is kept). */
  private static boolean shorterThanMonitorDefault(@Nullable String connectTimeout) {
    if (connectTimeout == null) {
      return false;
    }
    try {
      long millis = Long.parseLong(connectTimeout.trim());
      return millis > 0 && millis < Long.parseLong(MONITOR_CONNECT_TIMEOUT_MILLIS);
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
