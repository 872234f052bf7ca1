package dev.ryow.jdbc.server;

import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.gtid.BinlogPosition;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.MariaDbGtidPosition;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.PositionKind;
import dev.ryow.jdbc.gtid.Positions;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One Connector/J connection to one server, with what ryow needs from it: the GTIDs its writes
 * produced (primary) or a way to wait for a GTID set (replica).
 */
public final class PhysicalConnection implements AutoCloseable {
  private static final String WAIT_SQL = "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)";
  private static final String EXECUTED_SQL = "SELECT @@global.gtid_executed";
  /** The owned set first: see {@link ServerPosition}. */
  private static final String POSITION_SQL = "SELECT @@global.gtid_owned, @@global.gtid_executed";
  /**
   * Group Replication's own channels ({@code group_replication_applier}, {@code group_replication_recovery}):
   * a member's health comes from {@code replication_group_members}, and its idle recovery channel is not
   * stopped replication.
   */
  private static final String ASYNC_CHANNEL = "CHANNEL_NAME NOT LIKE 'group\\_replication\\_%'";
  private static final String STATUS_SQL =
      "SELECT @@server_uuid, @@global.gtid_owned, @@global.gtid_executed,"
          + " @@global.read_only OR @@global.super_read_only,"
          + " (SELECT COUNT(*) FROM performance_schema.replication_connection_status WHERE " + ASYNC_CHANNEL + "),"
          + " (SELECT COUNT(*) FROM performance_schema.replication_connection_status WHERE SERVICE_STATE <> 'ON' AND "
          + ASYNC_CHANNEL + "),"
          + " (SELECT COUNT(*) FROM performance_schema.replication_applier_status WHERE SERVICE_STATE <> 'ON' AND "
          + ASYNC_CHANNEL + "),"
          + " (SELECT COALESCE(MAX(TIMESTAMPDIFF(MICROSECOND, APPLYING_TRANSACTION_ORIGINAL_COMMIT_TIMESTAMP, NOW(6))), 0)"
          + "   FROM performance_schema.replication_applier_status_by_worker WHERE APPLYING_TRANSACTION <> ''),"
          + " (SELECT MAX(LAST_ERROR_MESSAGE) FROM performance_schema.replication_applier_status_by_worker"
          + "   WHERE LAST_ERROR_NUMBER <> 0),"
          + " (SELECT MEMBER_STATE FROM performance_schema.replication_group_members WHERE MEMBER_ID = @@server_uuid),"
          + " (SELECT GROUP_CONCAT(SOURCE_UUID) FROM performance_schema.replication_connection_status WHERE "
          + ASYNC_CHANNEL + " AND SOURCE_UUID <> ''),"
          + " (SELECT COALESCE(MAX(DESIRED_DELAY), 0) FROM performance_schema.replication_applier_configuration WHERE "
          + ASYNC_CHANNEL + ")";
  /** Each asynchronous channel's own state, read only on a replica with several ({@link ServerStatus#forSource}). */
  private static final String CHANNELS_SQL =
      "SELECT c.SOURCE_UUID, c.SERVICE_STATE, a.SERVICE_STATE, COALESCE(d.DESIRED_DELAY, 0),"
          + " (SELECT COALESCE(MAX(TIMESTAMPDIFF(MICROSECOND, w.APPLYING_TRANSACTION_ORIGINAL_COMMIT_TIMESTAMP, NOW(6))), 0)"
          + "   FROM performance_schema.replication_applier_status_by_worker w"
          + "   WHERE w.CHANNEL_NAME = c.CHANNEL_NAME AND w.APPLYING_TRANSACTION <> ''),"
          + " (SELECT MAX(w.LAST_ERROR_MESSAGE) FROM performance_schema.replication_applier_status_by_worker w"
          + "   WHERE w.CHANNEL_NAME = c.CHANNEL_NAME AND w.LAST_ERROR_NUMBER <> 0)"
          + " FROM performance_schema.replication_connection_status c"
          + " JOIN performance_schema.replication_applier_status a ON a.CHANNEL_NAME = c.CHANNEL_NAME"
          + " LEFT JOIN performance_schema.replication_applier_configuration d ON d.CHANNEL_NAME = c.CHANNEL_NAME"
          + " WHERE c." + ASYNC_CHANNEL;
  /** {@link #readReceived}: what was executed, then each channel's complete received transactions. */
  private static final String RECEIVED_SQL =
      "SELECT @@global.gtid_executed UNION ALL SELECT GTID_SUBTRACT(COALESCE(RECEIVED_TRANSACTION_SET, ''),"
          + " COALESCE(QUEUEING_TRANSACTION, ''))"
          + " FROM performance_schema.replication_connection_status";
  private static final String STATUS_WITHOUT_PS_SQL =
      "SELECT @@server_uuid, @@global.gtid_owned, @@global.gtid_executed,"
          + " @@global.read_only OR @@global.super_read_only";
  private static final String GROUP_MEMBERS_SQL =
      "SELECT MEMBER_ID, MEMBER_HOST, MEMBER_PORT, MEMBER_STATE, MEMBER_ROLE"
          + " FROM performance_schema.replication_group_members WHERE MEMBER_ID <> ''";
  private static final String LOST_SQL =
      "SELECT GTID_SUBSET(?, @@global.gtid_executed), GTID_SUBTRACT(?, @@global.gtid_executed),"
          + " GTID_SUBTRACT(?, GTID_SUBTRACT(?, @@global.gtid_executed)),"
          + " @@global.read_only OR @@global.super_read_only";

  private final Connection connection;
  private final HostSpec host;
  /** {@code host.address()}, made once: read reports ask it after every read. */
  private final String address;
  private final ServerRole role;
  private final ServerIdentity identity;
  private final @Nullable GtidTracker tracker;
  /** MariaDB's capture ({@code last_gtid}), for a MariaDB primary in {@code own_gtid} mode. */
  private final @Nullable LastGtidTracker lastGtid;
  private final boolean mariaDb;
  /** A MySQL server without GTIDs ({@code gtid_mode=OFF}): binary-log positions ({@link BinlogServer}). */
  private final boolean binlog;
  private volatile @Nullable PreparedStatement waitStatement;
  private @Nullable String waitStatementDatabase;
  /** Orders {@link #cancelWait} against the end of a wait: no cancel reaches the server after a wait ended. */
  private final ReentrantLock waitLock = new ReentrantLock();
  private volatile boolean waiting;
  private volatile boolean waitCancelled;
  private volatile boolean broken;
  /** Used on the primary's connections only (a few empty collections elsewhere). */
  private final ParameterCheckers checkers = new ParameterCheckers();

  PhysicalConnection(
      Connection connection,
      HostSpec host,
      ServerRole role,
      ServerIdentity identity,
      @Nullable Consumer<String> ownGtidSink,
      String clusterName)
      throws SQLException {
    this.connection = connection;
    this.host = host;
    this.address = host.address();
    this.role = role;
    this.identity = identity;
    this.mariaDb = identity.flavor() == ServerFlavor.MARIADB;
    this.binlog = identity.positionKind() == PositionKind.BINLOG_POSITION;
    this.tracker = ownGtidSink == null || mariaDb ? null : GtidTracker.attach(connection, ownGtidSink, clusterName);
    this.lastGtid = ownGtidSink != null && mariaDb ? LastGtidTracker.attach(connection) : null;
  }

  /** MySQL or MariaDB. */
  public ServerFlavor flavor() {
    return identity.flavor();
  }

  /** The kind of this server's positions: a MySQL GTID set, a MariaDB GTID position or a binary-log position. */
  public PositionKind positionKind() {
    return identity.positionKind();
  }

  /**
   * Whether this server's positions are places in one primary's binary log (no GTIDs): the writes' positions are
   * captured by query (no OK packet reports them), and after a change of primary the old ones mean nothing.
   */
  public boolean positionsPerPrimary() {
    return binlog;
  }

  /** The JDBC connection; statements of the application run on it. */
  public Connection jdbc() {
    return connection;
  }

  /** Where this connection goes, as written in the URL. */
  public HostSpec host() {
    return host;
  }

  /** The server's {@code host:port} ({@link HostSpec#address}). */
  public String address() {
    return address;
  }

  /** Primary or replica. */
  public ServerRole role() {
    return role;
  }

  /** The server's uuid and port, read when the connection was opened. */
  public ServerIdentity identity() {
    return identity;
  }

  /**
   * For a primary in {@code own_gtid} mode: whether every GTID since the last call reached the sink.
   * When it returns false (the listener was lost to a reconnect or saw garbage), it re-registers,
   * and the caller must capture with {@link #readExecutedGtids()} to cover the gap.
   */
  public boolean ownGtidTrackingIntact() throws SQLException {
    LastGtidTracker l = lastGtid;
    if (l != null) {
      return l.intact();
    }
    GtidTracker t = tracker;
    if (t == null || t.isAttached()) {
      return true;
    }
    t.reattach();
    return false;
  }

  /**
   * After a write or a commit outside a transaction, on a primary in {@code own_gtid} mode: what this session
   * wrote that did not reach the sink from the OK packets. On MySQL nothing (every GTID arrives in the OK
   * packet); on MariaDB the session's {@code last_gtid} reports, completed by a read of {@code @@last_gtid}
   * whenever a report may have been missed ({@link LastGtidTracker.CaptureRule}).
   */
  public Position ownWritesAfterWrite() throws SQLException {
    LastGtidTracker l = lastGtid;
    return l == null ? Positions.EMPTY : l.afterWrite();
  }

  /** {@code SELECT @@global.gtid_executed} on this connection (MariaDB: {@code @@gtid_binlog_pos}, on a primary). */
  public Position readExecutedGtids() throws SQLException {
    if (mariaDb) {
      return MariaDbServer.readExecuted(connection);
    }
    if (binlog) {
      return BinlogServer.readExecuted(connection, identity.serverUuid());
    }
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(EXECUTED_SQL)) {
      rs.next();
      String text = rs.getString(1);
      return text == null ? GtidSet.EMPTY : GtidSet.parse(text);
    }
  }

  /**
   * One round trip: identity, executed GTIDs, read-only flags and replication health
   * ({@code performance_schema}; never {@code Seconds_Behind_Source}). When {@code performance_schema}
   * cannot be read (privileges), only the first three are read and {@link ServerStatus#healthKnown()} is false.
   */
  public ServerStatus readStatus() throws SQLException {
    if (mariaDb) {
      return MariaDbServer.readStatus(connection);
    }
    if (binlog) {
      return BinlogServer.readStatus(connection);
    }
    ServerStatus status;
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(STATUS_SQL)) {
      rs.next();
      String error = rs.getString(9);
      String group = rs.getString(10);
      String sources = rs.getString(11);
      status = new ServerStatus(
          rs.getString(1),
          gtids(rs.getString(3)),
          owned(rs.getString(2)),
          rs.getBoolean(4),
          rs.getInt(5),
          rs.getInt(6) == 0,
          rs.getInt(7) == 0,
          rs.getLong(8) / 1000,
          error == null ? "" : error,
          true,
          group == null ? "" : group,
          sources == null || sources.isEmpty() ? java.util.List.of() : java.util.List.of(sources.split(",")),
          rs.getLong(12));
    } catch (SQLException e) {
      if (Sql.isConnectionFailure(e)) {
        throw e;
      }
      try (Statement statement = connection.createStatement();
          ResultSet rs = statement.executeQuery(STATUS_WITHOUT_PS_SQL)) {
        rs.next();
        return new ServerStatus(
            rs.getString(1), gtids(rs.getString(3)), owned(rs.getString(2)), rs.getBoolean(4), 0, true, true, 0, "",
            false, "");
      }
    }
    return status.replicaChannels() > 1 ? withChannels(status) : status;
  }

  /** A multi-source replica's status with each channel's own state (one more statement, only on such a replica). */
  private ServerStatus withChannels(ServerStatus status) throws SQLException {
    java.util.List<ServerStatus.Channel> channels = new java.util.ArrayList<>(status.replicaChannels());
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(CHANNELS_SQL)) {
      while (rs.next()) {
        String source = rs.getString(1);
        String error = rs.getString(6);
        channels.add(new ServerStatus.Channel(source == null ? "" : source, "ON".equals(rs.getString(2)),
            "ON".equals(rs.getString(3)), rs.getLong(5) / 1000, error == null ? "" : error, rs.getLong(4)));
      }
    }
    return status.withChannels(channels);
  }

  /**
   * The replicas this server reports ({@code SHOW REPLICAS}: each replica's {@code report_host} and
   * {@code report_port}, and its {@code server_uuid}); rows without a host or port are left out. None on
   * MariaDB ({@code ryow.discoverReplicas} is not supported there).
   */
  public java.util.List<ReportedReplica> readReportedReplicas() throws SQLException {
    if (mariaDb) {
      return java.util.List.of(); // not supported on MariaDB: its replica list has no server identity to match
    }
    java.util.List<ReportedReplica> replicas = new java.util.ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SHOW REPLICAS")) {
      while (rs.next()) {
        String host = rs.getString("Host");
        int port = rs.getInt("Port");
        String uuid = rs.getString("Replica_UUID");
        if (host != null && !host.isEmpty() && port > 0 && uuid != null && !uuid.isEmpty()) {
          replicas.add(new ReportedReplica(uuid, host, port));
        }
      }
    }
    return replicas;
  }

  /** The group as this member sees it ({@code performance_schema.replication_group_members}). */
  public java.util.List<GroupMember> readGroupMembers() throws SQLException {
    if (mariaDb) {
      return java.util.List.of(); // no Group Replication on MariaDB
    }
    java.util.List<GroupMember> members = new java.util.ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(GROUP_MEMBERS_SQL)) {
      while (rs.next()) {
        String host = rs.getString(2);
        int port = rs.getInt(3);
        if (host != null && !host.isEmpty() && port > 0) {
          members.add(new GroupMember(rs.getString(1), host, port, rs.getString(4), rs.getString(5)));
        }
      }
    }
    return members;
  }

  /**
   * {@code SELECT @@global.gtid_owned, @@global.gtid_executed} on this connection: an upper bound of
   * everything this server had made visible before the call (see {@link ServerPosition}).
   */
  public ServerPosition readPosition() throws SQLException {
    if (mariaDb) {
      return MariaDbServer.readPosition(connection, role);
    }
    if (binlog) {
      return BinlogServer.readPosition(connection, role, identity.serverUuid());
    }
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(POSITION_SQL)) {
      rs.next();
      return new ServerPosition(gtids(rs.getString(2)), owned(rs.getString(1)));
    }
  }

  /**
   * What this replica has executed and what it received complete from its sources: {@code gtid_executed}
   * and, per channel, {@code RECEIVED_TRANSACTION_SET} without {@code QUEUEING_TRANSACTION} (MySQL adds a
   * GTID to the received set as the transaction's first event arrives, so the one being queued may be
   * partial). After its source died this contains every transaction the source had sent it. Null where it
   * cannot be read: MariaDB and servers without GTIDs (their received place may be inside a transaction),
   * or no access to {@code performance_schema}.
   */
  public @Nullable Position readReceived() throws SQLException {
    if (mariaDb || binlog) {
      return null;
    }
    Position all = GtidSet.EMPTY;
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(RECEIVED_SQL)) {
      while (rs.next()) {
        all = all.union(gtids(rs.getString(1)));
      }
    } catch (SQLException e) {
      if (Sql.isConnectionFailure(e)) {
        throw e;
      }
      return null; // no access to performance_schema: nothing known of what it received
    }
    return all;
  }

  private static GtidSet gtids(@Nullable String text) {
    return text == null ? GtidSet.EMPTY : GtidSet.parse(text);
  }

  private static GtidSet owned(@Nullable String text) {
    return text == null ? GtidSet.EMPTY : ServerPosition.parseOwned(text);
  }

  /**
   * What {@link #splitByExecuted} found: the part of the set this server has not executed (empty when it
   * has all of it), the part it has, and whether the server is read-only, asked in the same statement: a
   * read-only server that lacks part of a set may just not be the writable primary any more.
   */
  public record ExecutedSplit(Position missing, Position kept, boolean readOnly) {}

  /**
   * Whether this server has executed all of {@code watermark} ({@code GTID_SUBSET} against its
   * {@code gtid_executed}) and, if not, which part; and whether it is read-only now.
   */
  public ExecutedSplit splitByExecuted(Position watermark) throws SQLException {
    if (mariaDb) {
      if (!(watermark instanceof MariaDbGtidPosition m)) {
        return new ExecutedSplit(watermark, Positions.EMPTY, false);
      }
      return MariaDbServer.splitByExecuted(connection, m);
    }
    if (binlog) {
      return BinlogServer.splitByExecuted(connection, watermark);
    }
    String text = watermark.toString();
    try (PreparedStatement ps = connection.prepareStatement(LOST_SQL)) {
      for (int i = 1; i <= 4; i++) {
        ps.setString(i, text);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        boolean readOnly = rs.getBoolean(4);
        if (rs.getInt(1) == 1) {
          return new ExecutedSplit(GtidSet.EMPTY, watermark, readOnly);
        }
        String missing = rs.getString(2);
        String kept = rs.getString(3);
        return new ExecutedSplit(missing == null ? GtidSet.EMPTY : GtidSet.parse(missing),
            kept == null ? GtidSet.EMPTY : GtidSet.parse(kept), readOnly);
      }
    }
  }

  /**
   * Runs {@code WAIT_FOR_EXECUTED_GTID_SET(set, timeout)} with both values bound as parameters.
   * Another thread may end it early with {@link #cancelWait()}: then the answer is
   * {@link WaitOutcome#CANCELLED}, whatever the server said.
   *
   * @throws SQLException only when the connection itself failed; other errors are {@link WaitOutcome#FAILED}
   */
  public WaitOutcome waitFor(Position set, BigDecimal timeoutSeconds) throws SQLException {
    PreparedStatement ps;
    try {
      ps = waitStatement;
      String database = CurrentDatabase.of(connection);
      if (ps == null || !java.util.Objects.equals(database, waitStatementDatabase)) {
        // Connector/J runs a statement in the database current at its creation, switching there and
        // back with USE: that would undo a USE the application sent as SQL. A new one after a change.
        if (ps != null) {
          ps.close();
        }
        ps = connection.prepareStatement(mariaDb ? MariaDbServer.WAIT_SQL : binlog ? BinlogWait.WAIT_SQL : WAIT_SQL);
        waitStatement = ps;
        waitStatementDatabase = database;
      }
      if (binlog) {
        if (!(set instanceof BinlogPosition p)) {
          return WaitOutcome.FAILED;
        }
        BinlogWait.bind(ps, p, timeoutSeconds);
      } else {
        ps.setString(1, set.toString());
        ps.setBigDecimal(2, timeoutSeconds);
      }
    } catch (SQLException e) {
      if (Sql.isConnectionFailure(e)) {
        throw e;
      }
      return WaitOutcome.FAILED;
    }
    waitCancelled = false;
    waiting = true;
    try (ResultSet rs = ps.executeQuery()) {
      if (waitCancelled) {
        return WaitOutcome.CANCELLED;
      }
      if (!rs.next()) {
        return WaitOutcome.FAILED;
      }
      int answer = rs.getInt(1);
      if (rs.wasNull()) {
        return WaitOutcome.FAILED;
      }
      if (binlog) {
        // SOURCE_POS_WAIT: the events it waited for (0 or more) when reached, -1 on timeout.
        return answer >= 0 ? WaitOutcome.REACHED : answer == -1 ? WaitOutcome.TIMED_OUT : WaitOutcome.FAILED;
      }
      int timedOut = mariaDb ? MariaDbServer.WAIT_TIMED_OUT : 1;
      return answer == 0 ? WaitOutcome.REACHED : answer == timedOut ? WaitOutcome.TIMED_OUT : WaitOutcome.FAILED;
    } catch (SQLException e) {
      if (waitCancelled) {
        return WaitOutcome.CANCELLED;
      }
      if (Sql.isConnectionFailure(e)) {
        throw e;
      }
      return WaitOutcome.FAILED;
    } finally {
      waitLock.lock();
      try {
        waiting = false;
      } finally {
        waitLock.unlock();
      }
    }
  }

  /**
   * From another thread: ends a {@link #waitFor} in progress on this connection, with Connector/J's
   * own statement cancel ({@code KILL QUERY} over a separate connection). Does nothing when no wait
   * runs; never throws (a cancel that fails leaves the wait to end at its own timeout). Returns once
   * the server has been told, so no cancel can reach a later statement of this connection.
   */
  public void cancelWait() {
    waitLock.lock();
    try {
      PreparedStatement ps = waitStatement;
      if (waiting && ps != null) {
        waitCancelled = true;
        ps.cancel();
      }
    } catch (SQLException | RuntimeException e) {
      // The wait ends at its own timeout.
    } finally {
      waitLock.unlock();
    }
  }

  /**
   * A client-side prepared statement of {@code sql} on this connection that only checks parameters in
   * their setters, as Connector/J does, shared by the logical statements of the text and never executed
   * ({@link ParameterCheckers}).
   */
  public PreparedStatement parameterChecker(String sql) throws SQLException {
    return checkers.of(connection, sql);
  }

  /** How many placeholders Connector/J counts in {@code sql} (0: it does not say), from its checker. */
  public int parameterPlaceholders(String sql) throws SQLException {
    return checkers.placeholders(connection, sql);
  }

  /** A logical statement that used the checker of {@code sql} closed: drops what its setters left there. */
  public void releaseParameterChecker(String sql) {
    checkers.release(sql);
  }

  /** Records that a statement on this connection failed with a connection failure: it must not be used again. */
  public void markBroken() {
    broken = true;
  }

  /** Whether the connection was closed by us or found broken. */
  public boolean isClosed() {
    if (broken) {
      return true;
    }
    try {
      return connection.isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  /** Closes the connection; never throws. */
  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // Closing a broken connection: nothing left to release.
    }
  }

  /** Drops the connection at once (JDBC {@code abort}). */
  public void abort(java.util.concurrent.Executor executor) throws SQLException {
    connection.abort(executor);
  }

  @Override
  public String toString() {
    return role + "@" + host;
  }
}
