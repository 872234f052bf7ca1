package dev.ryow.jdbc.server;

import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.gtid.GtidSet;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One Connector/J connection to one server, with what ryow needs from it: the GTIDs its writes
 * produced (primary) or a way to wait for a GTID set (replica).
 */
public final class PhysicalConnection implements AutoCloseable {
  private static final String WAIT_SQL = "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)";
  private static final String EXECUTED_SQL = "SELECT @@global.gtid_executed";
  private static final String SUBSET_SQL = "SELECT GTID_SUBSET(?, @@global.gtid_executed)";

  private final Connection connection;
  private final HostSpec host;
  private final ServerRole role;
  private final ServerIdentity identity;
  private final @Nullable GtidTracker tracker;
  private @Nullable PreparedStatement waitStatement;
  private @Nullable PreparedStatement subsetStatement;

  PhysicalConnection(
      Connection connection,
      HostSpec host,
      ServerRole role,
      ServerIdentity identity,
      @Nullable Consumer<GtidSet> ownGtidSink,
      String clusterName)
      throws SQLException {
    this.connection = connection;
    this.host = host;
    this.role = role;
    this.identity = identity;
    this.tracker = ownGtidSink == null ? null : GtidTracker.attach(connection, ownGtidSink, clusterName);
  }

  /** The JDBC connection; statements of the application run on it. */
  public Connection jdbc() {
    return connection;
  }

  /** Where this connection goes, as written in the URL. */
  public HostSpec host() {
    return host;
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
  public boolean ownGtidTrackingIntact() {
    GtidTracker t = tracker;
    if (t == null || t.isAttached()) {
      return true;
    }
    t.reattach();
    return false;
  }

  /** {@code SELECT @@global.gtid_executed} on this connection. */
  public GtidSet readExecutedGtids() throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(EXECUTED_SQL)) {
      rs.next();
      String text = rs.getString(1);
      return text == null ? GtidSet.EMPTY : GtidSet.parse(text);
    }
  }

  /** Whether this server has executed all of {@code set}: {@code GTID_SUBSET(?, @@global.gtid_executed)}, bound. */
  public boolean hasExecuted(GtidSet set) throws SQLException {
    PreparedStatement ps = subsetStatement;
    if (ps == null) {
      ps = connection.prepareStatement(SUBSET_SQL);
      subsetStatement = ps;
    }
    ps.setString(1, set.toString());
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() && rs.getInt(1) == 1;
    }
  }

  /**
   * Runs {@code WAIT_FOR_EXECUTED_GTID_SET(set, timeout)} with both values bound as parameters.
   *
   * @throws SQLException only when the connection itself failed; other errors are {@link WaitOutcome#FAILED}
   */
  public WaitOutcome waitFor(GtidSet set, BigDecimal timeoutSeconds) throws SQLException {
    try {
      PreparedStatement ps = waitStatement;
      if (ps == null) {
        ps = connection.prepareStatement(WAIT_SQL);
        waitStatement = ps;
      }
      ps.setString(1, set.toString());
      ps.setBigDecimal(2, timeoutSeconds);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return WaitOutcome.FAILED;
        }
        int answer = rs.getInt(1);
        if (rs.wasNull()) {
          return WaitOutcome.FAILED;
        }
        return answer == 0 ? WaitOutcome.REACHED : answer == 1 ? WaitOutcome.TIMED_OUT : WaitOutcome.FAILED;
      }
    } catch (SQLException e) {
      if (Sql.isConnectionFailure(e)) {
        throw e;
      }
      return WaitOutcome.FAILED;
    }
  }

  /** Whether the connection was closed by us or found broken. */
  public boolean isClosed() {
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
