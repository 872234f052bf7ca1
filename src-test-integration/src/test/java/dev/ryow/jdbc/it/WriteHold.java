package dev.ryow.jdbc.it;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lets a test stop a workload's writers between two writes, and know when none is in flight: a writer
 * {@link #enter}s before each write (waiting while the writes are held) and {@link #exit}s after it;
 * {@link #hold} returns once every writer is outside. A test that kills the primary under a write load holds
 * the writes, waits until the replicas received everything the primary acknowledged, kills, then
 * {@link #release}s: on a busy machine a replica's receiver may be behind at the kill, and a read that must
 * see a write only the dead primary has (with the default scope, every read of the JVM) waits until the
 * primary returns, which is a consistency case of its own and not what such a test measures.
 */
final class WriteHold {
  private volatile boolean held;
  private final AtomicInteger inside = new AtomicInteger();

  /** Before a write: returns at once, or once the writes are released (or {@code stopping} says so). */
  void enter(java.util.function.BooleanSupplier stopping) throws InterruptedException {
    while (true) {
      inside.incrementAndGet(); // before the check: hold() either sees this writer or this writer sees the hold
      if (!held || stopping.getAsBoolean()) {
        return;
      }
      inside.decrementAndGet();
      Thread.sleep(2);
    }
  }

  /** After the write {@link #enter} let through. */
  void exit() {
    inside.decrementAndGet();
  }

  /** Writers wait before their next write; returns once no write is in flight (at most 60 s). */
  void hold() throws InterruptedException {
    held = true;
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (inside.get() != 0) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("a write was still in flight 60 s after the writers were held");
      }
      Thread.sleep(2);
    }
  }

  /** Writers go on. */
  void release() {
    held = false;
  }
}
