package dev.ryow.jdbc.server;

import dev.ryow.jdbc.gtid.BinlogPosition;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The replica wait for a binary-log position ({@code gtid_mode=OFF}), sent before the read in one multi-statement
 * packet as {@link PipelinedWait} is with GTIDs: {@code SOURCE_POS_WAIT(file, pos, timeout)} returns the number of
 * events it waited for (0 or more) once the applier executed up to the position, -1 on timeout and NULL when the
 * applier is not running or the position is not valid. A position names one primary's log, so the wait runs only
 * when the replica's default channel replicates from that very primary ({@code SOURCE_UUID}, checked in the same
 * statement): on any other replica (a chained one, one not yet pointed at a new primary) the file and offset would
 * be compared with another server's log. Anything but a result of 0 or more raises the error
 * {@link PipelinedWait}'s prefix raises ({@code GTID_SUBSET} of a malformed set, error 1772, which MySQL raises with
 * GTIDs off too), so the server skips the read and the caller falls back.
 */
public final class BinlogWait {
  private static final String GUARDED_WAIT = "CASE WHEN (SELECT SOURCE_UUID FROM"
      + " performance_schema.replication_connection_status WHERE CHANNEL_NAME = '') = ?"
      + " THEN SOURCE_POS_WAIT(?, ?, ?) END";

  /** Put before the read's SQL; binds the primary's uuid, the file, the offset and the timeout (seconds). */
  public static final String PREFIX = "DO CASE WHEN (" + GUARDED_WAIT + ") >= 0 THEN 0 ELSE GTID_SUBSET('"
      + PipelinedWait.NOT_REACHED + "', '') END;\n";

  /** The wait on its own ({@link PhysicalConnection#waitFor}): 0 or more when reached, -1 on timeout, else NULL. */
  static final String WAIT_SQL = "SELECT " + GUARDED_WAIT;

  /** Parameters {@link #PREFIX} and {@link #WAIT_SQL} bind before the read's own. */
  public static final int PARAMETERS = 4;

  private BinlogWait() {}

  /** Binds the four parameters of {@link #PREFIX} or {@link #WAIT_SQL}. */
  public static void bind(PreparedStatement ps, BinlogPosition position, BigDecimal seconds) throws SQLException {
    ps.setString(1, position.primaryUuid());
    ps.setString(2, position.file());
    ps.setLong(3, position.offset());
    ps.setBigDecimal(4, seconds);
  }
}
