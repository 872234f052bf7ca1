package dev.ryow.jdbc.cluster.wait;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * A thread that rides on a {@link SharedWait} for up to 5 minutes, for tests: what {@link SharedWait#await}
 * returned, and a wait until the thread is parked in it.
 */
public final class Rider {
  private final Thread thread;
  private final AtomicReference<Boolean> ended = new AtomicReference<>();

  private Rider(SharedWait wait, BooleanSupplier stop, Runnable first) {
    thread = new Thread(() -> {
      first.run();
      try {
        ended.set(wait.await(TimeUnit.MINUTES.toNanos(5), stop));
      } catch (InterruptedException e) {
        ended.set(null);
      }
    });
  }

  /** Starts a thread that runs {@code first}, then rides on {@code wait} until it ends or {@code stop} says so. */
  public static Rider start(SharedWait wait, BooleanSupplier stop, Runnable first) {
    Rider r = new Rider(wait, stop, first);
    r.thread.start();
    return r;
  }

  /** Returns once the thread is parked in its ride (or has ended). */
  public Rider parked() {
    while (thread.getState() != Thread.State.TIMED_WAITING && thread.isAlive()) {
      Thread.onSpinWait();
    }
    return this;
  }

  /** Waits for the thread to end (at most 5 minutes) and returns what its ride returned: null if it did not end. */
  public Boolean ended() throws InterruptedException {
    thread.join(TimeUnit.MINUTES.toMillis(5));
    return thread.isAlive() ? null : ended.get();
  }
}
