package dev.ryow.jdbc.cluster;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs replicas leaving and re-entering rotation like a good neighbour: a replica's first departure
 * in a quiet period is a WARN (and its return an INFO); further flaps of the same replica within
 * {@link #QUIET_NANOS} go to DEBUG and are counted, and the next WARN says how many there were. So a
 * replica that flaps under routine lag costs at most one WARN and one INFO a minute.
 */
final class RotationLog {
  private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);
  static final long QUIET_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final String cluster;
  private final ReentrantLock lock = new ReentrantLock();
  private final long[] lastWarnNanos;
  private final boolean[] warned;
  private final int[] unlogged;

  RotationLog(String cluster, int servers) {
    this.cluster = cluster;
    this.lastWarnNanos = new long[servers];
    this.warned = new boolean[servers];
    this.unlogged = new int[servers];
  }

  /** {@code server} left rotation ({@code why} may be empty). */
  void out(ReplicaEndpoint server, Health next, String why, long nowNanos) {
    int i = server.index();
    int flaps;
    lock.lock();
    try {
      boolean loud = !warned[i] && (lastWarnNanos[i] == 0 || nowNanos - lastWarnNanos[i] >= QUIET_NANOS);
      if (!loud) {
        unlogged[i]++;
        warned[i] = false;
        flaps = -1;
      } else {
        flaps = unlogged[i];
        unlogged[i] = 0;
        lastWarnNanos[i] = nowNanos | 1;
        warned[i] = true;
      }
    } finally {
      lock.unlock();
    }
    String reason = why.isEmpty() ? "" : ": " + why;
    if (flaps < 0) {
      LOG.debug("[{}] replica {} out of rotation ({}){}", cluster, server, next, reason);
    } else if (flaps == 0) {
      LOG.warn("[{}] replica {} out of rotation ({}){}", cluster, server, next, reason);
    } else {
      LOG.warn("[{}] replica {} out of rotation ({}){} (and {} more rotation changes in the last minute, logged at"
          + " DEBUG)", cluster, server, next, reason, flaps);
    }
  }

  /** {@code server} is back in rotation. */
  void back(ReplicaEndpoint server, Health previous) {
    int i = server.index();
    boolean loud;
    lock.lock();
    try {
      loud = warned[i];
      warned[i] = false;
      if (!loud) {
        unlogged[i]++;
      }
    } finally {
      lock.unlock();
    }
    if (loud) {
      LOG.info("[{}] replica {} back in rotation (was {})", cluster, server, previous);
    } else {
      LOG.debug("[{}] replica {} back in rotation (was {})", cluster, server, previous);
    }
  }
}
