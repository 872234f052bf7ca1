package dev.ryow.bench.stub;

import com.mysql.cj.protocol.ServerSessionStateController;
import java.util.ArrayList;
import java.util.List;

/** The session-state listeners of one stub connection, told of each GTID as Connector/J tells them of OK packets. */
final class StubSessionState implements ServerSessionStateController {
  private final List<SessionStateChangesListener> listeners = new ArrayList<>();

  @Override
  public void addSessionStateChangesListener(SessionStateChangesListener l) {
    listeners.add(l);
  }

  @Override
  public void removeSessionStateChangesListener(SessionStateChangesListener l) {
    listeners.remove(l);
  }

  /** An OK packet that carries {@code gtid} (Connector/J allocates the same objects for it). */
  void ok(String gtid) {
    SessionStateChange change = new SessionStateChange(SESSION_TRACK_GTIDS).addValue(gtid);
    List<SessionStateChange> list = List.of(change);
    ServerSessionStateChanges changes = () -> list;
    for (int i = 0, n = listeners.size(); i < n; i++) {
      listeners.get(i).handleSessionStateChanges(changes);
    }
  }

}
