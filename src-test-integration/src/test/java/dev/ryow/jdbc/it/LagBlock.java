package dev.ryow.jdbc.it;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Real replication lag with the appliers running, the way it looks in production: a plain session
 * on a replica holds {@code FLUSH TABLES WITH READ LOCK}, so the replica's replication threads report
 * running but cannot commit. {@link #start} blocks every replica {@code holdMillis} in every
 * {@code periodMillis}; {@link #hold} blocks one replica from now until closed. Closing always
 * unlocks and closes the sessions, waits until the replicas have caught up, and rethrows anything
 * the blocking thread hit. The stopped-applier equivalent is {@link LagPulse}.
 */
final class LagBlock implements AutoCloseable {
  /** How long the lock may wait for running statements: a hold that cannot start fails, never hangs. */
  private static final int LOCK_WAIT_SECONDS = 5;

  private final Replicas replicas;
  private final List<Connection> sessions;
  private final Thread thread;
  private final AtomicReference<SQLException> failure = new AtomicReference<>();

  private LagBlock(Replicas replicas, List<Connection> sessions, long holdMillis, long periodMillis) {
    this.replicas = replicas;
    this.sessions = sessions;
    if (periodMillis == 0) {
      thread = null;
      return;
    }
    thread = new Thread(() -> {
      try {
        while (!Thread.currentThread().isInterrupted()) {
          lockAll();
          Thread.sleep(holdMillis);
          unlockAll();
          Thread.sleep(periodMillis - holdMillis);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (SQLException e) {
        failure.set(e);
      }
    }, "lag-block");
    thread.setDaemon(true);
  }

  /** Starts blocking every MySQL sandbox replica's applier {@code holdMillis} out of every {@code periodMillis}. */
  static LagBlock start(long holdMillis, long periodMillis) throws SQLException {
    return start(Topology.REPLICAS, holdMillis, periodMillis);
  }

  /** Starts blocking the applier of each of {@code replicas} {@code holdMillis} out of every {@code periodMillis}. */
  static LagBlock start(Replicas replicas, long holdMillis, long periodMillis) throws SQLException {
    if (holdMillis <= 0 || holdMillis >= periodMillis) {
      throw new IllegalArgumentException("holdMillis must be more than 0 and less than periodMillis");
    }
    LagBlock block = new LagBlock(replicas, open(replicas, replicas.ports()), holdMillis, periodMillis);
    block.thread.start();
    return block;
  }

  /** Blocks the applier of the replica on {@code replicaPort} from now until closed (the lock is held on return). */
  static LagBlock hold(int replicaPort) throws SQLException {
    return holdAll(List.of(replicaPort));
  }

  /** Blocks the appliers of the replicas on {@code replicaPorts} from now until closed (the locks are held on return). */
  static LagBlock holdAll(List<Integer> replicaPorts) throws SQLException {
    return holdAll(Topology.REPLICAS, replicaPorts);
  }

  /** {@link #holdAll(List)} for the replicas on {@code replicaPorts} of {@code replicas}. */
  static LagBlock holdAll(Replicas replicas, List<Integer> replicaPorts) throws SQLException {
    LagBlock block = new LagBlock(replicas, open(replicas, replicaPorts), 0, 0);
    try {
      block.lockAll();
    } catch (SQLException e) {
      block.closeSessions();
      throw e;
    }
    return block;
  }

  private static List<Connection> open(Replicas replicas, List<Integer> ports) throws SQLException {
    List<Connection> sessions = new ArrayList<>();
    try {
      for (int port : ports) {
        Connection c = replicas.plain().open(port);
        sessions.add(c);
        run(c, "SET SESSION lock_wait_timeout = " + LOCK_WAIT_SECONDS);
      }
    } catch (SQLException e) {
      for (Connection c : sessions) {
        c.close();
      }
      throw e;
    }
    return sessions;
  }

  private void lockAll() throws SQLException {
    for (Connection c : sessions) {
      run(c, "FLUSH TABLES WITH READ LOCK");
    }
  }

  private void unlockAll() throws SQLException {
    for (Connection c : sessions) {
      run(c, "UNLOCK TABLES");
    }
  }

  private static void run(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** Unlocks where it can; closing a session releases its lock in any case. */
  private void closeSessions() throws SQLException {
    SQLException first = null;
    for (Connection c : sessions) {
      try (c) {
        run(c, "UNLOCK TABLES");
      } catch (SQLException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Override
  public void close() throws SQLException {
    if (thread != null) {
      thread.interrupt();
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    closeSessions();
    replicas.awaitCaughtUp().run();
    SQLException e = failure.get();
    if (e != null) {
      throw new SQLException("the lag block failed", e);
    }
  }
}
