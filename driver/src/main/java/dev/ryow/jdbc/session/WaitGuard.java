package dev.ryow.jdbc.session;

import dev.ryow.jdbc.cluster.wait.SharedWait;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.StatementTimeouts;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import org.jspecify.annotations.Nullable;

/**
 * What other threads may do to a logical connection's replica wait while it runs: a
 * {@code Statement.cancel()} of the statement that waits, or {@code Connection.close()}/{@code abort}.
 * Each ends the wait in progress at once ({@link PhysicalConnection#cancelWait()}, Connector/J's
 * {@code KILL QUERY}), or wakes it when it rides on another read's wait ({@link SharedWait}), and keeps the
 * next slice of a long wait from starting. Everything here is safe
 * to call from any thread; the waiting thread alone calls {@link #enter}, {@link #exit} and
 * {@link #waitingOn}.
 */
final class WaitGuard {
  private volatile @Nullable Object owner;
  private volatile @Nullable PhysicalConnection waitingOn;
  private volatile @Nullable SharedWait ridingOn;
  private volatile boolean cancelled;
  private volatile boolean closed;

  /** {@code statement} starts looking for a replica (and may wait). */
  void enter(Object statement) {
    cancelled = false;
    owner = statement;
  }

  /** The statement is done with admission. */
  void exit() {
    owner = null;
    waitingOn = null;
    ridingOn = null;
  }

  /** The waiting thread is about to wait on {@code c} (null: between waits). */
  void waitingOn(@Nullable PhysicalConnection c) {
    waitingOn = c;
  }

  /** The waiting thread is about to ride on {@code w}, another read's wait (null: done riding). */
  void ridingOn(@Nullable SharedWait w) {
    ridingOn = w;
  }

  /** {@code Statement.cancel()} of {@code statement}: ends its wait, if it is the one waiting; returns whether it was. */
  boolean cancel(Object statement) {
    if (owner != statement) {
      return false;
    }
    cancelled = true;
    kick();
    return true;
  }

  /** The logical connection is being closed or aborted: any wait ends now, and none starts again. */
  void close() {
    closed = true;
    kick();
  }

  private void kick() {
    PhysicalConnection c = waitingOn;
    if (c != null) {
      c.cancelWait();
    }
    SharedWait w = ridingOn;
    if (w != null) {
      w.wake();
    }
  }

  /** Whether the logical connection was closed or aborted. */
  boolean closed() {
    return closed;
  }

  /** Whether the wait must end: cancelled, or the connection closed. */
  boolean stopRequested() {
    return cancelled || closed;
  }

  /**
   * What the statement throws when its wait was ended by another thread: Connector/J's cancel exception,
   * or "Connection is closed" when the connection was closed or aborted meanwhile.
   */
  SQLException stopped() {
    return closed
        ? new SQLNonTransientConnectionException("Connection is closed (closed or aborted while this statement"
            + " waited for a replica)", "08003")
        : StatementTimeouts.cancelled();
  }
}
