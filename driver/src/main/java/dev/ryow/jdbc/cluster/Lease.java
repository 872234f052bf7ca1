package dev.ryow.jdbc.cluster;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.management.ObjectName;
import org.jspecify.annotations.Nullable;

/**
 * A cluster's life in its {@link ClusterRegistry}: the connections open or opening that keep it, since when
 * it is idle, its MBean's name, and, once released, how to find the cluster that replaced it.
 */
final class Lease {
  /** Connections open or opening (reserved through {@link ClusterRegistry}); the cluster is kept while there are any. */
  private final AtomicInteger users = new AtomicInteger();
  private volatile long idleSinceNanos = System.nanoTime();
  private final long idleTimeoutNanos;
  /** Set when released: finds the cluster that replaced this one, if any. */
  private volatile @Nullable Supplier<@Nullable Cluster> successor;
  private volatile @Nullable ObjectName mbean;

  Lease(long idleTimeoutMillis) {
    this.idleTimeoutNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(idleTimeoutMillis);
  }

  /** One more connection is opening: the cluster is not released meanwhile. */
  void reserve() {
    users.incrementAndGet();
  }

  /** A connection that reserved the cluster failed to open, or closed. */
  void cancelReservation() {
    if (users.updateAndGet(n -> Math.max(0, n - 1)) == 0) {
      idleSinceNanos = System.nanoTime();
    }
  }

  /** Whether no connection holds the cluster and it has been idle for its timeout at {@code nowNanos}. */
  boolean idle(long nowNanos) {
    return users.get() == 0 && nowNanos - idleSinceNanos >= idleTimeoutNanos;
  }

  /** Released: {@code next} finds the cluster created after it. */
  void released(Supplier<@Nullable Cluster> next) {
    this.successor = next;
  }

  /** Null until released. */
  @Nullable Supplier<@Nullable Cluster> successor() {
    return successor;
  }

  /** The name its MBean was registered under, null when none is. */
  @Nullable ObjectName mbean() {
    return mbean;
  }

  void registeredAs(@Nullable ObjectName name) {
    mbean = name;
  }
}
