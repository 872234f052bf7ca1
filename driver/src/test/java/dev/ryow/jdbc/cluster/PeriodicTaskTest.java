package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The periodic task of the poller and of the cluster release check: a throwable that ends it is handed
 * over (not lost in its future), a task stopped by its owner ends without one, and it runs on a daemon
 * thread of the given name.
 */
class PeriodicTaskTest {
  private static final long WAIT_SECONDS = 30;

  @Test
  void aThrowableThatEndsTheTaskIsHandedOverAndTheTaskNoLongerRuns() throws Exception {
    CompletableFuture<Throwable> ended = new CompletableFuture<>();
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    PeriodicTask task = new PeriodicTask("ryow-test-periodic", () -> {
      ranOn.set(Thread.currentThread());
      throw new StackOverflowError("deep");
    }, 0, 10, ended::complete);
    try {
      assertThat(ended.get(WAIT_SECONDS, TimeUnit.SECONDS)).isInstanceOf(StackOverflowError.class).hasMessage("deep");
      assertThat(task.running()).as("running after the task ended").isFalse();
      assertThat(ranOn.get().getName()).isEqualTo("ryow-test-periodic");
      assertThat(ranOn.get().isDaemon()).as("daemon thread").isTrue();
    } finally {
      task.stop();
    }
  }

  @Test
  void aTaskThatReturnsRunsAgainAndEndsWithoutAFailureWhenStoppedFromItsOwnRun() throws Exception {
    List<Throwable> ended = new CopyOnWriteArrayList<>();
    CountDownLatch threeRuns = new CountDownLatch(3);
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    AtomicReference<PeriodicTask> self = new AtomicReference<>();
    CountDownLatch created = new CountDownLatch(1);
    PeriodicTask task = new PeriodicTask("ryow-test-periodic", () -> {
      ranOn.set(Thread.currentThread());
      threeRuns.countDown();
      if (threeRuns.getCount() == 0) {
        awaitQuietly(created);
        self.get().stop(); // as the poller stops itself when idle
      }
    }, 0, 1, ended::add);
    self.set(task);
    created.countDown();
    assertThat(threeRuns.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("three runs").isTrue();
    ranOn.get().join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
    assertThat(ranOn.get().isAlive()).as("the thread ended after stop").isFalse();
    assertThat(task.running()).isFalse();
    assertThat(ended).as("failures handed over for a stopped task").isEmpty();
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
