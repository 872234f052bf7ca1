package dev.ryow.jdbc.it;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Real, intermittent replication lag: stops the appliers (SQL threads) of every replica for
 * {@code pauseMillis} in every {@code periodMillis}, until closed. Closing resumes the appliers
 * and waits until the replicas have caught up, and rethrows anything the pulsing thread hit.
 */
final class LagPulse implements AutoCloseable {
  private final Replicas replicas;
  private final Thread thread;
  private final AtomicReference<SQLException> failure = new AtomicReference<>();

  private LagPulse(Replicas replicas, long pauseMillis, long periodMillis) {
    this.replicas = replicas;
    thread = new Thread(() -> {
      try {
        while (!Thread.currentThread().isInterrupted()) {
          replicas.execAll(replicas.stopApplier());
          Thread.sleep(pauseMillis);
          replicas.execAll(replicas.startApplier());
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

  /** Starts pulsing the MySQL sandbox: appliers stopped {@code pauseMillis} out of every {@code periodMillis}. */
  static LagPulse start(long pauseMillis, long periodMillis) {
    return start(Topology.REPLICAS, pauseMillis, periodMillis);
  }

  /** Starts pulsing {@code replicas}: appliers stopped {@code pauseMillis} out of every {@code periodMillis}. */
  static LagPulse start(Replicas replicas, long pauseMillis, long periodMillis) {
    LagPulse pulse = new LagPulse(replicas, pauseMillis, periodMillis);
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
    replicas.resume().run();
    Exception e = failure.get();
    if (e != null) {
      throw new SQLException("the lag pulse failed", e);
    }
  }
}
