package dev.ryow.jdbc.route;

import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.gtid.GtidSet;
import java.util.concurrent.atomic.AtomicReference;

/** One replica of a cluster and what the cluster knows of it: the GTIDs it is known to have executed. */
public final class ReplicaEndpoint {
  private final HostSpec host;
  private final AtomicReference<GtidSet> knownExecuted = new AtomicReference<>(GtidSet.EMPTY);

  ReplicaEndpoint(HostSpec host) {
    this.host = host;
  }

  /** The replica's address. */
  public HostSpec host() {
    return host;
  }

  /** A set the replica has certainly executed (it only lags behind the truth). */
  public GtidSet knownExecuted() {
    return knownExecuted.get();
  }

  /** Records that the replica has executed {@code executed} (learned from a successful wait). */
  public void learn(GtidSet executed) {
    GtidSet prev;
    GtidSet next;
    do {
      prev = knownExecuted.get();
      next = prev.union(executed);
      if (next == prev) {
        return;
      }
    } while (!knownExecuted.compareAndSet(prev, next));
  }

  @Override
  public String toString() {
    return host.toString();
  }
}
