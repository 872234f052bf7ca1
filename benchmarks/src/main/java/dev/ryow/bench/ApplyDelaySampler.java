package dev.ryow.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Samples the replicas' apply delay from their own timestamps while a cell runs: every
 * {@link #INTERVAL_MS} ms, each replica's {@code performance_schema.replication_applier_status_by_worker}
 * row per applier worker gives the last transaction it applied, with
 * {@code LAST_APPLIED_TRANSACTION_ORIGINAL_COMMIT_TIMESTAMP} (when the original source, the primary, wrote
 * it to its binary log, on the primary's clock) and {@code LAST_APPLIED_TRANSACTION_END_APPLY_TIMESTAMP}
 * (when this worker finished applying it, on the replica's clock); the difference, in microseconds, is
 * how long after the primary committed the write the replica had applied it. Each transaction counts
 * once per replica (by GTID); transactions already applied at the first sample are left out. It is a
 * sample (the last transaction per worker at each instant), not every transaction. Runs on the
 * admin user's connections, so the workload user's statement counts are unaffected.
 */
final class ApplyDelaySampler implements AutoCloseable {
  static final int INTERVAL_MS = 25;
  private static final String QUERY = "SELECT LAST_APPLIED_TRANSACTION, TIMESTAMPDIFF(MICROSECOND,"
      + " LAST_APPLIED_TRANSACTION_ORIGINAL_COMMIT_TIMESTAMP, LAST_APPLIED_TRANSACTION_END_APPLY_TIMESTAMP)"
      + " FROM performance_schema.replication_applier_status_by_worker WHERE LAST_APPLIED_TRANSACTION <> ''"
      + " AND LAST_APPLIED_TRANSACTION_ORIGINAL_COMMIT_TIMESTAMP > '1970-01-02'";

  private final List<Connection> replicas = new ArrayList<>();
  private final List<Set<String>> seen = new ArrayList<>();
  private final Workload.LongList micros = new Workload.LongList();
  private final Thread thread;
  private volatile boolean running = true;
  private volatile SQLException failure;

  private ApplyDelaySampler(List<String> adminUrls) throws SQLException {
    try {
      for (String url : adminUrls) {
        replicas.add(DriverManager.getConnection(url));
        seen.add(new HashSet<>());
      }
      sample(false);
    } catch (SQLException e) {
      closeConnections();
      throw e;
    }
    thread = new Thread(this::loop, "apply-delay-sampler");
    thread.setDaemon(true);
  }

  /** Opens one connection per replica, takes the baseline sample and starts sampling. */
  static ApplyDelaySampler start(List<String> adminUrls) throws SQLException {
    ApplyDelaySampler s = new ApplyDelaySampler(adminUrls);
    s.thread.start();
    return s;
  }

  private void loop() {
    try {
      while (running) {
        Thread.sleep(INTERVAL_MS);
        sample(true);
      }
    } catch (SQLException e) {
      failure = e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void sample(boolean record) throws SQLException {
    for (int i = 0; i < replicas.size(); i++) {
      Set<String> s = seen.get(i);
      try (Statement st = replicas.get(i).createStatement(); ResultSet rs = st.executeQuery(QUERY)) {
        while (rs.next()) {
          long delay = rs.getLong(2);
          boolean valid = !rs.wasNull();
          if (s.add(rs.getString(1)) && record && valid) {
            micros.add(delay);
          }
        }
      }
    }
  }

  /** Stops sampling (with a last sample) and returns the delays seen, in microseconds, sorted. */
  long[] stop() throws Exception {
    running = false;
    thread.join();
    if (failure != null) {
      throw new IllegalStateException("sampling the replicas' apply delay failed", failure);
    }
    sample(true);
    return micros.toSortedArray();
  }

  @Override
  public void close() {
    running = false;
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closeConnections();
  }

  private void closeConnections() {
    for (Connection c : replicas) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // closing an admin connection: nothing to do
      }
    }
  }
}
