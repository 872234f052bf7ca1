package dev.ryow.jdbc.cluster;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the changes of shared routing state that read plans are made from (a server's health,
 * known position, last poll, {@linkplain ReplicaEndpoint#behind() behind} flag; the primary and its
 * polled position; a {@link ReadWatermark}'s bound and which servers it has reads pending on). A writer
 * changes the state first and then {@linkplain #bump() bumps}; a reader reads {@link #current()} before
 * it reads the state, so a plan made from that state holds while the version is still the one it read.
 * Safe for many threads.
 */
public final class StateVersion {
  private final AtomicLong version = new AtomicLong();

  /** The current version (a volatile read). */
  public long current() {
    return version.get();
  }

  /** The state changed: plans made before now no longer hold. */
  public void bump() {
    version.incrementAndGet();
  }
}
