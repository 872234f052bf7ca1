package dev.ryow.jdbc.cluster;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One task run with a fixed delay on a daemon thread of its own (the poller, the cluster release check).
 * How the task ends is observed: a throwable that escapes a run ends the task (the owners catch
 * {@code RuntimeException}, so an {@code Error}), and is handed to {@code ended} at once instead of staying
 * unread in the task's future; {@link #running()} is then false, so the owner starts a new one.
 */
final class PeriodicTask {
  private final ScheduledThreadPoolExecutor executor;
  private final ScheduledFuture<?> future;

  PeriodicTask(String threadName, Runnable task, long initialDelayMillis, long delayMillis, Consumer<Throwable> ended) {
    executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    }) {
      @Override
      protected void afterExecute(Runnable r, @Nullable Throwable t) {
        // A periodic run that returned normally is queued again (not done); one that threw is done.
        if (r instanceof Future<?> f && f.isDone() && !f.isCancelled()) {
          try {
            f.get();
          } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            ended.accept(cause != null ? cause : e);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
    };
    future = executor.scheduleWithFixedDelay(task, initialDelayMillis, delayMillis, TimeUnit.MILLISECONDS);
  }

  /** Whether the task still runs: neither stopped nor ended by a throwable. */
  boolean running() {
    return !future.isDone();
  }

  /** Stops the task (the run under way, if any, completes) and its thread. */
  void stop() {
    future.cancel(false);
    executor.shutdown();
  }
}
