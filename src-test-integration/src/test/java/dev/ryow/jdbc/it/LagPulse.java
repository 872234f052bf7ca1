package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Real, intermittent replication lag: stops the appliers (SQL threads) of every replica for
 * {@code pauseMillis} in every {@code periodMillis}, until closed. Closing resumes the appliers
 * and waits until the replicas have caught up, and rethrows anything the pulsing thread hit.
 */
final class LagPulse implements AutoCloseable {
  private final Thread thread;
  private final AtomicReference<SQLException> failure = new AtomicReference<>();

  private LagPulse(long pauseMillis, long periodMillis) {
    thread = new Thread(() -> {
      try {
        while (!Thread.currentThread().isInterrupted()) {
          Topology.pauseAppliers();
          Thread.sleep(pauseMillis);
          for (int port : REPLICA_PORTS) {
            Topology.exec(port, "START REPLICA SQL_THREAD");
          }
          Thread.sleep(periodMillis - pauseMillis);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (SQLException e) {
        failure.set(e);
      }
    }, "lag-pulse");
    thread.setDaemon(true);
  }

  /** Starts pulsing: appliers stopped {@code pauseMillis} out of every {@code periodMillis}. */
  static LagPulse start(long pauseMillis, long periodMillis) {
    LagPulse pulse = new LagPulse(pauseMillis, periodMillis);
    pulse.thread.start();
    return pulse;
  }

  @Override
  public void close() throws SQLException {
    thread.interrupt();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Topology.resumeAppliers();
    Exception e = failure.get();
    if (e != null) {
      throw new SQLException("the lag pulse failed", e);
    }
  }
}
