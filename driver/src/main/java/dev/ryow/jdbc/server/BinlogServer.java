package dev.ryow.jdbc.server;

import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.gtid.BinlogPosition;
import dev.ryow.jdbc.gtid.Position;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link PhysicalConnection} asks a MySQL server that runs without GTIDs ({@code gtid_mode=OFF}): positions
 * in the primary's binary log ({@link BinlogPosition}) instead of GTID sets.
 *
 * <ul>
 *   <li>A writable server's position is its own binary log's end ({@code SHOW BINARY LOG STATUS}, MySQL 8.2 and
 *       later; {@code SHOW MASTER STATUS} before), named by its {@code server_uuid}.
 *   <li>A replica's is the place in its source's binary log its applier has executed up to
 *       ({@code SHOW REPLICA STATUS}: {@code Relay_Source_Log_File}, {@code Exec_Source_Log_Pos}), named by the
 *       source's {@code Source_UUID}: comparable with the primary's positions only when that source is the
 *       primary ({@code cluster.PositionWaitRule}). A replica with several channels has no one position. A
 *       multithreaded applier advances it only at its checkpoints ({@code replica_checkpoint_period}, 300 ms by
 *       default): transactions after it may be visible already. What the receiver has read
 *       ({@code Source_Log_File}, {@code Read_Source_Log_Pos}) bounds what can be visible: it is the "owned" part
 *       of the {@link ServerPosition}, as {@code gtid_owned} is with GTIDs, so monotonic reads count it.
 *   <li>Health: {@code SHOW REPLICA STATUS} (threads, {@code SQL_Delay}, last errors), {@code @@read_only}. The
 *       lag figure is 0: {@code Seconds_Behind_Source} is not a lag measure this driver trusts, and waits need
 *       none.
 * </ul>
 */
final class BinlogServer {
  private static final String IDENTITY_SQL = "SELECT @@server_uuid, @@global.read_only OR @@global.super_read_only";
  private static final String STATUS_SQL = "SELECT @@server_uuid, @@global.read_only OR @@global.super_read_only,"
      + " @@global.replica_parallel_workers, @@global.replica_checkpoint_period";
  private static final String LOG_STATUS_SQL = "SHOW BINARY LOG STATUS";
  /** Before MySQL 8.2 (error 1064 on the new spelling). */
  private static final String OLD_LOG_STATUS_SQL = "SHOW MASTER STATUS";
  private static final String REPLICA_STATUS_SQL = "SHOW REPLICA STATUS";
  private static final int PARSE_ERROR = 1064;

  private BinlogServer() {}

  /** The end of this server's own binary log, named by {@code serverUuid}; empty when binary logging is off. */
  static BinlogPosition readExecuted(Connection connection, String serverUuid) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = logStatus(s)) {
      if (!rs.next()) {
        return BinlogPosition.EMPTY;
      }
      return BinlogPosition.of(serverUuid, rs.getString(1), rs.getLong(2));
    }
  }

  private static ResultSet logStatus(Statement s) throws SQLException {
    try {
      return s.executeQuery(LOG_STATUS_SQL);
    } catch (SQLException e) {
      if (e.getErrorCode() != PARSE_ERROR) {
        throw e;
      }
      return s.executeQuery(OLD_LOG_STATUS_SQL);
    }
  }

  /**
   * What this server has executed: a primary's binary log end; a replica's place in its one source's log (empty
   * with no channel or several).
   */
  static ServerPosition readPosition(Connection connection, ServerRole role, String serverUuid) throws SQLException {
    if (role == ServerRole.PRIMARY) {
      return new ServerPosition(readExecuted(connection, serverUuid), BinlogPosition.EMPTY);
    }
    Channels channels = readChannels(connection);
    return new ServerPosition(channels.executed(), channels.received());
  }

  /** One poll: identity and {@code read_only}, the channels, and a writable server's own log end. */
  static ServerStatus readStatus(Connection connection) throws SQLException {
    String uuid;
    boolean readOnly;
    long checkpointMillis;
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(STATUS_SQL)) {
      rs.next();
      uuid = rs.getString(1);
      readOnly = rs.getBoolean(2);
      checkpointMillis = rs.getInt(3) > 1 ? rs.getLong(4) : 0;
    }
    Channels channels = readChannels(connection);
    // A writable server's position is its own log's (the primary, or a demoted one not yet read-only); a
    // replica's, the place it executed in its source's log, and what it received (what may be visible).
    boolean own = !readOnly || channels.count() == 0;
    Position executed = own ? readExecuted(connection, uuid) : channels.executed();
    Position received = own ? BinlogPosition.EMPTY : channels.received();
    return new ServerStatus(uuid, executed, received, readOnly, channels.count(), channels.ioRunning(),
        channels.sqlRunning(), 0, channels.lastError(), true, "", channels.sourceUuids(), channels.delaySeconds(),
        channels.count() == 0 ? 0 : checkpointMillis);
  }

  /**
   * The replication channels as {@code SHOW REPLICA STATUS} reports them.
   *
   * @param executed with exactly one channel whose source is known, the place executed in that source's log
   * @param received with exactly one such channel, the place its receiver read up to in that log
   */
  record Channels(int count, boolean ioRunning, boolean sqlRunning, String lastError, long delaySeconds,
      List<String> sourceUuids, Position executed, Position received) {}

  static Channels readChannels(Connection connection) throws SQLException {
    int count = 0;
    boolean io = true;
    boolean sql = true;
    long delay = 0;
    String error = "";
    List<String> sources = new ArrayList<>(1);
    Position executed = BinlogPosition.EMPTY;
    Position received = BinlogPosition.EMPTY;
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(REPLICA_STATUS_SQL)) {
      while (rs.next()) {
        count++;
        io &= "Yes".equalsIgnoreCase(rs.getString("Replica_IO_Running"));
        sql &= "Yes".equalsIgnoreCase(rs.getString("Replica_SQL_Running"));
        delay = Math.max(delay, rs.getLong("SQL_Delay"));
        error = ServerStatus.newestError(error, rs.getString("Last_SQL_Error"), rs.getString("Last_IO_Error"));
        String source = rs.getString("Source_UUID");
        String file = rs.getString("Relay_Source_Log_File");
        String readFile = rs.getString("Source_Log_File");
        if (source != null && !source.isEmpty()) {
          sources.add(source);
          executed = file != null && !file.isEmpty()
              ? BinlogPosition.of(source, file, rs.getLong("Exec_Source_Log_Pos")) : BinlogPosition.EMPTY;
          received = readFile != null && !readFile.isEmpty()
              ? BinlogPosition.of(source, readFile, rs.getLong("Read_Source_Log_Pos")) : BinlogPosition.EMPTY;
        }
      }
    }
    boolean one = count == 1;
    return new Channels(count, io, sql, error, delay, List.copyOf(sources), one ? executed : BinlogPosition.EMPTY,
        one ? received.union(executed) : BinlogPosition.EMPTY);
  }

  /**
   * {@link PhysicalConnection#splitByExecuted} without GTIDs: a position is executed here when this server's own
   * log contains it (same server, same or later place); anything else is missing.
   */
  static PhysicalConnection.ExecutedSplit splitByExecuted(Connection connection, Position watermark)
      throws SQLException {
    String uuid;
    boolean readOnly;
    try (PreparedStatement ps = connection.prepareStatement(IDENTITY_SQL); ResultSet rs = ps.executeQuery()) {
      rs.next();
      uuid = rs.getString(1);
      readOnly = rs.getBoolean(2);
    }
    BinlogPosition has = readExecuted(connection, uuid);
    return has.contains(watermark)
        ? new PhysicalConnection.ExecutedSplit(BinlogPosition.EMPTY, watermark, readOnly)
        : new PhysicalConnection.ExecutedSplit(watermark, BinlogPosition.EMPTY, readOnly);
  }
}
