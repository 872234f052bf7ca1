package dev.ryow.jdbc.server;

import com.mysql.cj.MysqlConnection;
import com.mysql.cj.protocol.ServerSessionStateController;
import com.mysql.cj.protocol.ServerSessionStateController.ServerSessionStateChanges;
import com.mysql.cj.protocol.ServerSessionStateController.SessionStateChange;
import com.mysql.cj.protocol.ServerSessionStateController.SessionStateChangesListener;
import dev.ryow.jdbc.gtid.MalformedGtidSetException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receives the GTIDs the primary reports in its OK packets ({@code session_track_gtids=OWN_GTID})
 * through Connector/J's session-state listener and hands each, as text, to a sink that parses it (only
 * when it cannot extend a known set directly, see {@code JvmLedger.wroteNext}).
 *
 * <p>Connector/J holds listeners through a weak reference, so this object keeps the strong one; a
 * reconnect replaces the controller and drops the listener, which {@link #isAttached()} detects.
 */
final class GtidTracker implements SessionStateChangesListener {
  private static final Logger LOG = LoggerFactory.getLogger(GtidTracker.class);

  private final MysqlConnection connection;
  /** Takes each reported GTID text and parses it (a malformed one throws {@link MalformedGtidSetException}). */
  private final Consumer<String> sink;
  private final String clusterName;
  private @Nullable ServerSessionStateController controller;
  private volatile boolean damaged;

  private GtidTracker(MysqlConnection connection, Consumer<String> sink, String clusterName) {
    this.connection = connection;
    this.sink = sink;
    this.clusterName = clusterName;
  }

  /** Attaches a tracker to a physical primary connection. */
  static GtidTracker attach(Connection physical, Consumer<String> sink, String clusterName) throws SQLException {
    GtidTracker tracker = new GtidTracker(physical.unwrap(MysqlConnection.class), sink, clusterName);
    tracker.reattach();
    return tracker;
  }

  /** Whether the listener is still registered on the connection's current controller and saw no garbage. */
  boolean isAttached() {
    return !damaged && connection.getServerSessionStateController() == controller;
  }

  /** Registers again after a reconnect; GTIDs of the gap must be captured another way. */
  void reattach() {
    ServerSessionStateController current = connection.getServerSessionStateController();
    current.addSessionStateChangesListener(this);
    controller = current;
    damaged = false;
  }

  @Override
  public void handleSessionStateChanges(ServerSessionStateChanges changes) {
    List<SessionStateChange> list = changes.getSessionStateChangesList();
    for (int i = 0, n = list.size(); i < n; i++) {
      SessionStateChange change = list.get(i);
      if (change.getType() != ServerSessionStateController.SESSION_TRACK_GTIDS) {
        continue;
      }
      List<String> values = change.getValues();
      for (int v = 0, m = values.size(); v < m; v++) {
        String text = values.get(v);
        try {
          sink.accept(text);
        } catch (MalformedGtidSetException e) {
          // Never throw into Connector/J's packet reader; the owner falls back to a query capture.
          damaged = true;
          LOG.warn("[{}] unparseable GTID in the primary's OK packet, falling back to a query capture: {}",
              clusterName, e.getMessage());
        }
      }
    }
  }
}
