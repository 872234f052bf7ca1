package dev.ryow.jdbc.server;

import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.gtid.MariaDbGtidPosition;
import dev.ryow.jdbc.gtid.Position;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What {@link PhysicalConnection} asks a MariaDB server, where MySQL's questions do not exist there: MariaDB has
 * no {@code server_uuid}, no {@code gtid_executed}/{@code gtid_owned}, no {@code GTID_SUBSET} and (by default)
 * no {@code performance_schema}.
 *
 * <ul>
 *   <li>Identity: a name-based UUID of {@code @@hostname}, {@code @@port} and {@code @@server_id}
 *       ({@link #identityUuid}): stable across connections and JVMs, different for each server of a
 *       topology (server ids are unique in one), so it keys what MySQL keys by {@code server_uuid}.
 *   <li>Positions: a primary's is {@code @@gtid_binlog_pos} (written to the binary log before the storage
 *       engine commits, so it covers everything visible); a replica has executed its {@code @@gtid_slave_pos}
 *       (what {@code MASTER_GTID_WAIT} compares against, updated after the applier's commit), and may have
 *       made visible up to its {@code @@gtid_binlog_pos} too ({@code log_slave_updates}): that is the
 *       "owned" part of its {@link ServerPosition}, an upper bound for monotonic reads.
 *   <li>Health: {@code SHOW ALL SLAVES STATUS} (every connection of a multi-source replica; the spelling
 *       both 10.11 and 11.8 accept): IO and SQL threads, {@code Seconds_Behind_Master} (MariaDB's own lag
 *       figure), {@code SQL_Delay} and the last errors; {@code @@read_only}.
 * </ul>
 */
final class MariaDbServer {
  static final String PROBE_SQL = "SELECT @@hostname, @@port, @@server_id, @@global.read_only";
  private static final String POSITIONS_SQL =
      "SELECT @@hostname, @@port, @@server_id, @@global.gtid_binlog_pos, @@global.gtid_slave_pos, @@global.read_only";
  private static final String CHANNELS_SQL = "SHOW ALL SLAVES STATUS";
  static final String WAIT_SQL = "SELECT MASTER_GTID_WAIT(?, ?)";
  /** {@code MASTER_GTID_WAIT}'s answer on timeout (MySQL's {@code WAIT_FOR_EXECUTED_GTID_SET} says 1). */
  static final int WAIT_TIMED_OUT = -1;
  /** Longest position text accepted from the server (one GTID per domain). */
  private static final int MAX_TEXT = 1 << 20;

  private MariaDbServer() {}

  /** The stand-in for {@code server_uuid}: a name-based (version 3) UUID of the server's host name, port and id. */
  static String identityUuid(String hostname, int port, long serverId) {
    return UUID.nameUUIDFromBytes(("mariadb:" + hostname + ":" + port + ":" + serverId).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  static ServerIdentity identity(ResultSet probe) throws SQLException {
    return new ServerIdentity(identityUuid(probe.getString(1), probe.getInt(2), probe.getLong(3)), probe.getInt(2),
        probe.getBoolean(4), ServerFlavor.MARIADB, true);
  }

  static MariaDbGtidPosition position(@Nullable String text) {
    return text == null || text.isBlank() ? MariaDbGtidPosition.EMPTY : MariaDbGtidPosition.parse(text, MAX_TEXT);
  }

  /** {@code @@gtid_binlog_pos}: asked of the primary only. */
  static MariaDbGtidPosition readExecuted(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@global.gtid_binlog_pos")) {
      rs.next();
      return position(rs.getString(1));
    }
  }

  /** What a server at this moment has executed and may have made visible (see the class comment). */
  static ServerPosition readPosition(Connection connection, ServerRole role) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(POSITIONS_SQL)) {
      rs.next();
      MariaDbGtidPosition binlog = position(rs.getString(4));
      MariaDbGtidPosition slave = position(rs.getString(5));
      return role == ServerRole.PRIMARY
          ? new ServerPosition(binlog, MariaDbGtidPosition.EMPTY)
          : new ServerPosition(slave, binlog);
    }
  }

  /** One poll: positions and {@code read_only}, then every replication connection's state. */
  static ServerStatus readStatus(Connection connection) throws SQLException {
    String uuid;
    MariaDbGtidPosition binlog;
    MariaDbGtidPosition slave;
    boolean readOnly;
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(POSITIONS_SQL)) {
      rs.next();
      uuid = identityUuid(rs.getString(1), rs.getInt(2), rs.getLong(3));
      binlog = position(rs.getString(4));
      slave = position(rs.getString(5));
      readOnly = rs.getBoolean(6);
    }
    Channels channels = readChannels(connection);
    // A server that replicates has executed what its appliers committed; one that does not (the primary), its
    // binary log. A replica's binary log (log_slave_updates) may be ahead of gtid_slave_pos: the in-flight part.
    Position executed = channels.count > 0 ? slave : binlog;
    Position owned = channels.count > 0 ? binlog : MariaDbGtidPosition.EMPTY;
    return new ServerStatus(uuid, executed, owned, readOnly, channels.count, channels.ioRunning, channels.sqlRunning,
        channels.lagSeconds * 1000, channels.lastError, true, "", List.of(), channels.delaySeconds);
  }

  /** The replication connections as {@code SHOW ALL SLAVES STATUS} reports them. */
  record Channels(int count, boolean ioRunning, boolean sqlRunning, long lagSeconds, String lastError,
      long delaySeconds) {}

  static Channels readChannels(Connection connection) throws SQLException {
    int count = 0;
    boolean io = true;
    boolean sql = true;
    long lag = 0;
    long delay = 0;
    String error = "";
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(CHANNELS_SQL)) {
      while (rs.next()) {
        count++;
        io &= "Yes".equalsIgnoreCase(rs.getString("Slave_IO_Running"));
        sql &= "Yes".equalsIgnoreCase(rs.getString("Slave_SQL_Running"));
        long behind = rs.getLong("Seconds_Behind_Master");
        if (!rs.wasNull()) {
          lag = Math.max(lag, behind);
        }
        delay = Math.max(delay, rs.getLong("SQL_Delay"));
        error = ServerStatus.newestError(error, rs.getString("Last_SQL_Error"), rs.getString("Last_IO_Error"));
      }
    }
    return new Channels(count, io, sql, lag, error, delay);
  }

  /**
   * {@link PhysicalConnection#splitByExecuted} on MariaDB: compared here against the primary's
   * {@code @@gtid_binlog_pos} per domain (MariaDB has no {@code GTID_SUBSET}).
   */
  static PhysicalConnection.ExecutedSplit splitByExecuted(Connection connection, MariaDbGtidPosition watermark)
      throws SQLException {
    MariaDbGtidPosition has;
    boolean readOnly;
    try (PreparedStatement ps = connection.prepareStatement("SELECT @@global.gtid_binlog_pos, @@global.read_only");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      has = position(rs.getString(1));
      readOnly = rs.getBoolean(2);
    }
    if (has.contains(watermark)) {
      return new PhysicalConnection.ExecutedSplit(MariaDbGtidPosition.EMPTY, watermark, readOnly);
    }
    return new PhysicalConnection.ExecutedSplit(watermark.notCoveredBy(has), watermark.coveredPartOf(has), readOnly);
  }
}
