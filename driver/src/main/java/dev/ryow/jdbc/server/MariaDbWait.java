package dev.ryow.jdbc.server;

import dev.ryow.jdbc.gtid.MariaDbGtidPosition;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * MariaDB's replica wait, sent before the read in one multi-statement packet as {@link PipelinedWait} is on
 * MySQL: {@code MASTER_GTID_WAIT(pos, timeout)} returns 0 once the replica's {@code gtid_slave_pos} reached
 * {@code pos} in every domain, -1 on timeout and NULL for a NULL position; anything but 0 raises an error
 * (SQLSTATE 45000, {@value #NOT_REACHED}) that no read produces, so the server skips the read and the
 * caller falls back. {@code <=>} makes a NULL result fail too ({@code NULL <> 0} would let the read run).
 *
 * <p>The timeout is bound as a decimal: MariaDB honours fractions of a second (0.4 waits 0.4 s; truncating to
 * an integer would turn sub-second timeouts into the immediate check {@code 0}). A timeout of 0 is an
 * immediate check on MariaDB (MySQL's 0 waits forever); callers never bind NULL or a negative timeout, which
 * wait forever.
 */
public final class MariaDbWait {
  /** The message of the error the prefix raises when the wait did not succeed. */
  static final String NOT_REACHED = "ryow-wait-not-reached";

  /** Put before the read's SQL; binds the position as parameter 1 and the timeout (seconds) as parameter 2. */
  public static final String PREFIX = "IF NOT (MASTER_GTID_WAIT(?, ?) <=> 0) THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = '"
      + NOT_REACHED + "'; END IF;\n";

  /** Parameters {@link #PREFIX} binds before the read's own. */
  public static final int PARAMETERS = 2;

  private MariaDbWait() {}

  /** Binds {@link #PREFIX}'s parameters: the canonical text of {@code position}, and {@code seconds}. */
  public static void bind(PreparedStatement ps, MariaDbGtidPosition position, BigDecimal seconds) throws SQLException {
    if (seconds.signum() < 0) {
      throw new IllegalArgumentException("a negative timeout waits forever on MariaDB: " + seconds);
    }
    ps.setString(1, position.toString());
    ps.setBigDecimal(2, seconds);
  }

  /** Whether {@code e} is the prefix saying the wait did not reach its position (the read did not run). */
  public static boolean notReached(SQLException e) {
    return e.getErrorCode() == 1644 && "45000".equals(e.getSQLState()) && NOT_REACHED.equals(e.getMessage());
  }
}
