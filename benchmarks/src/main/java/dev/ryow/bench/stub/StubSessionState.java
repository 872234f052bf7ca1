package dev.ryow.bench.stub;

import com.mysql.cj.protocol.ServerSessionStateController;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The session-state listeners of one stub connection, told of each GTID as Connector/J tells them of OK packets. */
final class StubSessionState implements ServerSessionStateController {
  private final List<SessionStateChangesListener> listeners = new ArrayList<>();
  private @Nullable ServerSessionStateChanges last;

  @Override
  public @Nullable ServerSessionStateChanges getSessionStateChanges() {
    return last;
  }

  @Override
  public void addSessionStateChangesListener(SessionStateChangesListener l) {
    listeners.add(l);
  }

  @Override
  public void removeSessionStateChangesListener(SessionStateChangesListener l) {
    listeners.remove(l);
  }

  /**
   * An OK packet that carries {@code gtid}: Connector/J allocates the same objects for it and keeps
   * them as the last changes ({@link #getSessionStateChanges()}) whether or not anyone listens, so the
   * stub keeps them too (otherwise the JIT could drop them on the raw side only).
   */
  void ok(String gtid) {
    SessionStateChange change = new SessionStateChange(SESSION_TRACK_GTIDS).addValue(gtid);
    List<SessionStateChange> list = List.of(change);
    ServerSessionStateChanges changes = () -> list;
    last = changes;
    for (int i = 0, n = listeners.size(); i < n; i++) {
      listeners.get(i).handleSessionStateChanges(changes);
    }
  }

}
