package dev.ryow.jdbc.server;

import dev.ryow.jdbc.gtid.BinlogPosition;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.PositionKind;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLNonTransientException;

/**
 * The replica wait sent with the read in one round trip: a statement placed before the read in the
 * same multi-statement packet (replica connections allow multi-statements), which waits for the GTID
 * set (parameter 1, always a parsed and re-printed set) up to the timeout (parameter 2, seconds) and,
 * when the wait does not succeed, fails with an error no read can produce. The server stops a
 * multi-statement at its first error, so the read then never runs and falls back as after a wait of
 * its own; when the wait succeeds, the read runs right after it on the same session.
 */
public final class PipelinedWait {
  /** Appears in the error of a wait that did not reach its set in time (or returned NULL). */
  static final String NOT_REACHED = "ryow-wait-not-reached";

  /** Put before the read's SQL; binds the set as parameter 1 and the timeout as parameter 2. */
  public static final String PREFIX =
      "DO CASE WHEN WAIT_FOR_EXECUTED_GTID_SET(?, ?) = 0 THEN 0 ELSE GTID_SUBSET('" + NOT_REACHED + "', '') END;\n";

  /** Parameters {@link #PREFIX} (and MariaDB's, {@link MariaDbWait#PREFIX}) binds before the read's own. */
  public static final int PARAMETERS = 2;

  /**
   * The prefix for a read on {@code replica}: {@link #PREFIX}, {@link MariaDbWait#PREFIX} on MariaDB, or
   * {@link BinlogWait#PREFIX} on a server without GTIDs.
   */
  public static String prefix(PhysicalConnection replica) {
    return switch (replica.positionKind()) {
      case GTID_SET -> PREFIX;
      case MARIADB_GTID -> MariaDbWait.PREFIX;
      case BINLOG_POSITION -> BinlogWait.PREFIX;
    };
  }

  private PipelinedWait() {}

  /** What one pipelined read waits for: the set, and the seconds the wait may take. */
  public interface Request {
    /** The GTID set the replica must have executed before the read runs. */
    Position waitFor();

    /** The wait's timeout in seconds ({@code ryow.waitTimeout}, or what is left of the query timeout). */
    BigDecimal waitSeconds();
  }

  /**
   * Binds the parameters of {@code replica}'s {@link #prefix} from {@code request}; returns how many (the read's own
   * follow them).
   */
  public static int bind(PreparedStatement ps, Request request, PhysicalConnection replica) throws SQLException {
    if (replica.positionKind() == PositionKind.BINLOG_POSITION) {
      if (!(request.waitFor() instanceof BinlogPosition p)) {
        throw new SQLNonTransientException("A " + request.waitFor().kind().displayName() + " cannot be waited for on "
            + replica.host() + ", which runs without GTIDs", "HY000");
      }
      BinlogWait.bind(ps, p, request.waitSeconds());
      return BinlogWait.PARAMETERS;
    }
    ps.setString(1, request.waitFor().toString());
    ps.setBigDecimal(2, request.waitSeconds());
    return PARAMETERS;
  }

  /**
   * Whether {@code e} is the prefix saying the wait did not reach its set (the read did not run): MySQL's or
   * MariaDB's ({@link MariaDbWait#notReached}).
   */
  public static boolean notReached(SQLException e) {
    String message = e.getMessage();
    return (e.getErrorCode() == 1772 && message != null && message.contains(NOT_REACHED)) || MariaDbWait.notReached(e);
  }

  /**
   * What a pipelined query that failed with {@code e} throws when its caller ended it: Connector/J's
   * exception for a cancel requested during the execution ({@code cancelRequested}), or for its query
   * timeout once that expired ({@code deadline}), whatever ended the packet on the server. A cancel's
   * {@code KILL QUERY} may arrive after the wait gave up on its own ({@link #notReached}): the statement
   * must not then fall back and run elsewhere; and the server's 1317 may reach this thread before
   * Connector/J marks its statement cancelled. Any other failure is {@code e}.
   */
  public static SQLException endedByCaller(SQLException e, boolean cancelRequested, long deadline) {
    if (!notReached(e) && !Sql.isCancellation(e)) {
      return e;
    }
    SQLException ended;
    if (cancelRequested) {
      ended = StatementTimeouts.cancelled();
    } else if (deadline != 0 && System.nanoTime() - deadline >= 0) {
      ended = StatementTimeouts.timedOut();
    } else {
      return e;
    }
    ended.initCause(e);
    return ended;
  }
}
