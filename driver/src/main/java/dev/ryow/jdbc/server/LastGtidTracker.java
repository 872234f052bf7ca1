package dev.ryow.jdbc.server;

import com.mysql.cj.MysqlConnection;
import com.mysql.cj.protocol.ServerSessionStateController;
import com.mysql.cj.protocol.ServerSessionStateController.ServerSessionStateChanges;
import com.mysql.cj.protocol.ServerSessionStateController.SessionStateChange;
import com.mysql.cj.protocol.ServerSessionStateController.SessionStateChangesListener;
import dev.ryow.jdbc.gtid.MalformedGtidSetException;
import dev.ryow.jdbc.gtid.MariaDbGtidPosition;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Captures the GTIDs a MariaDB primary gives one session's writes. MariaDB has no GTID tracker: with
 * {@code last_gtid} added to {@code session_track_system_variables}, the OK packet of a write that
 * logged a transaction carries the system-variable change {@code last_gtid = D-S-N}.
 *
 * <p>The trap: the server marks {@code last_gtid} changed only when the sequence number differs from the
 * session's previous GTID, so a commit in another domain that repeats the sequence number is not reported.
 * The listener alone would then miss a write. {@link CaptureRule} decides after each write whether a
 * report may be missing; then {@link #afterWrite} reads {@code @@last_gtid} on the same session (one round
 * trip, only after a write whose OK carried no report once the session has a GTID).
 *
 * <p>Connector/J holds listeners through a weak reference: this object keeps the strong one.
 * Not thread-safe: one physical connection, used by one thread at a time.
 */
public final class LastGtidTracker implements SessionStateChangesListener {
  private static final String TRACK = "SET SESSION session_track_system_variables ="
      + " CONCAT_WS(',', NULLIF(@@session.session_track_system_variables, ''), 'last_gtid')";

  private final Connection connection;
  private @Nullable ServerSessionStateController controller;
  private MariaDbGtidPosition captured = MariaDbGtidPosition.EMPTY;
  /** Reports since the last {@link #afterWrite}. */
  private int reports;
  private boolean damaged;

  private LastGtidTracker(Connection connection) {
    this.connection = connection;
  }

  /**
   * Adds {@code last_gtid} to the session's tracked variables and listens on the connection (opened with
   * {@code trackSessionState=true}).
   */
  public static LastGtidTracker attach(Connection physical) throws SQLException {
    LastGtidTracker tracker = new LastGtidTracker(physical);
    tracker.listen();
    return tracker;
  }

  private void listen() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(TRACK);
    }
    ServerSessionStateController current = connection.unwrap(MysqlConnection.class).getServerSessionStateController();
    current.addSessionStateChangesListener(this);
    controller = current;
  }

  /**
   * Whether the listener is still registered on the connection's current session (a reconnect inside
   * Connector/J replaces the controller and starts a session without {@code last_gtid} tracking). When it is
   * not, it tracks again and returns false: the writes of the gap must be captured another way.
   */
  boolean intact() throws SQLException {
    if (connection.unwrap(MysqlConnection.class).getServerSessionStateController() == controller) {
      return true;
    }
    listen();
    return false;
  }

  @Override
  public void handleSessionStateChanges(ServerSessionStateChanges changes) {
    List<SessionStateChange> list = changes.getSessionStateChangesList();
    for (int i = 0, n = list.size(); i < n; i++) {
      SessionStateChange change = list.get(i);
      List<String> values = change.getValues();
      if (change.getType() != ServerSessionStateController.SESSION_TRACK_SYSTEM_VARIABLES || values.size() != 2
          || !"last_gtid".equalsIgnoreCase(values.get(0))) {
        continue;
      }
      try {
        captured = captured.union(MariaDbGtidPosition.parse(values.get(1), 200));
        reports++;
      } catch (MalformedGtidSetException e) {
        // Never throw into Connector/J's packet reader; afterWrite reads @@last_gtid instead.
        damaged = true;
      }
    }
  }

  /**
   * Call after every autocommit write and every commit on this session (not inside a transaction):
   * queries {@code @@last_gtid} when
   * {@link CaptureRule#mayHaveMissed} says a report may be missing.
   *
   * @return everything this session wrote so far, as a position
   */
  public MariaDbGtidPosition afterWrite() throws SQLException {
    boolean reported = reports > 0;
    reports = 0;
    if (CaptureRule.mayHaveMissed(reported, !captured.isEmpty(), damaged)) {
      damaged = false;
      try (Statement s = connection.createStatement();
          ResultSet rs = s.executeQuery("SELECT @@session.last_gtid")) {
        rs.next();
        String text = rs.getString(1);
        if (text != null) {
          captured = captured.union(MariaDbGtidPosition.parse(text, 200));
        }
      }
    }
    return captured;
  }

  /** What the session wrote as far as the listener reported, without a fallback query. */
  public MariaDbGtidPosition reported() {
    return captured;
  }

  /**
   * When a write's GTID may have gone unreported: the OK carried no {@code last_gtid} although the session
   * already has a GTID (the next one may repeat its sequence number in another domain), or a report could not
   * be read. A session's first GTID is always reported (its sequence number differs from none), so a write
   * with no report and no earlier GTID logged nothing (a no-op, {@code sql_log_bin=0}, a transaction still
   * open) and costs no query.
   */
  public static final class CaptureRule {
    private CaptureRule() {}

    /** Whether {@code @@last_gtid} must be read after a write. */
    public static boolean mayHaveMissed(boolean reported, boolean sessionHasGtid, boolean reportDamaged) {
      return reportDamaged || (!reported && sessionHasGtid);
    }
  }
}
