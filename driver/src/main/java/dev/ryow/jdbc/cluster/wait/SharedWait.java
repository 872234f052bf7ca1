package dev.ryow.jdbc.cluster.wait;

import dev.ryow.jdbc.gtid.Position;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * One read's wait for a set on one replica, which other reads of the JVM that need no more than that set ride
 * on instead of sending a wait of their own: the replica serves one {@code WAIT_FOR_EXECUTED_GTID_SET} for them
 * all, and they read there once it {@linkplain #end ended} having reached its set. Readers may join it while
 * its own wait may still be running on the server ({@link #covers}: no later than its budget), and wait for
 * its end in the JVM ({@link #await}), bounded by their own budget. The wait that started it ends it, once,
 * whatever became of it; a reader that rode it for nothing goes on to wait on its own.
 */
public final class SharedWait {
  private static final int PENDING = 0;
  private static final int REACHED = 1;
  private static final int NOT_REACHED = 2;

  private final Position set;
  /** After this ({@link System#nanoTime()}) the server's wait is over, reached or not: nobody joins any more. */
  private final long joinableUntilNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition ended = lock.newCondition();
  private volatile int state = PENDING;

  /** A wait for {@code set} sent at {@code startNanos} with a budget of {@code budgetMillis}. */
  public SharedWait(Position set, long startNanos, long budgetMillis) {
    this.set = set;
    this.joinableUntilNanos = startNanos + TimeUnit.MILLISECONDS.toNanos(Math.max(0, budgetMillis));
  }

  /**
   * Whether a read needing {@code needed} at {@code nowNanos} may ride on it: it waits for no less, it has not
   * ended, and its wait may still be running on the server.
   */
  public boolean covers(Position needed, long nowNanos) {
    return state == PENDING && nowNanos - joinableUntilNanos < 0 && set.contains(needed);
  }

  /** Whether it ended having reached its set (riders judge what is known instead: this is for its tests). */
  boolean reached() {
    return state == REACHED;
  }

  /**
   * Its wait ended ({@code reached}: the replica has the set, and the caller made that known first): its riders
   * go on. Only the first call counts.
   */
  public void end(boolean reached) {
    lock.lock();
    try {
      if (state == PENDING) {
        state = reached ? REACHED : NOT_REACHED;
      }
      ended.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Wakes its riders so that each checks whether it must stop ({@code stop} of {@link #await}). */
  public void wake() {
    lock.lock();
    try {
      ended.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until it ends, {@code stop} says to stop (checked whenever {@link #wake} is called), or {@code nanos}
   * passed. Returns whether it ended.
   *
   * @throws InterruptedException the thread was interrupted
   */
  public boolean await(long nanos, BooleanSupplier stop) throws InterruptedException {
    if (state != PENDING) {
      return true;
    }
    long left = nanos;
    lock.lockInterruptibly();
    try {
      while (state == PENDING && left > 0 && !stop.getAsBoolean()) {
        left = ended.awaitNanos(left);
      }
      return state != PENDING;
    } finally {
      lock.unlock();
    }
  }
}
