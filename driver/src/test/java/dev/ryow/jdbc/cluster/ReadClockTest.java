package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The order monotonic reads rely on: a start published after a read completed is greater than its time. */
class ReadClockTest {

  @Test
  void everyStartIsOddAndGreaterThanTheOnesBefore() {
    long previous = ReadClock.start();
    for (int i = 0; i < 100_000; i++) {
      long s = ReadClock.start();
      assertThat(s - previous).isPositive();
      assertThat(s & 1).isEqualTo(1);
      previous = s;
    }
  }

  @Test
  void aReadCompletedBetweenTwoStartsIsBoundedByTheSecondOnly() {
    long before = ReadClock.start();
    long completed = ReadClock.completed();
    long after = ReadClock.start();
    assertThat(completed - before).isGreaterThanOrEqualTo(0); // the first start does not bound the read
    assertThat(after - completed).isPositive(); // the second does
    assertThat(ReadClock.completed()).isEqualTo(after);
  }

  @Test
  void startsFollowTheNanoClock() {
    long now = System.nanoTime();
    assertThat(ReadClock.start() - now).isGreaterThanOrEqualTo(0);
  }

  /** Threads racing: each read's time is below every start taken after it, on any thread. */
  @Test
  void startsTakenAfterAReadOnOtherThreadsExceedItsTime() throws InterruptedException {
    int threads = 4;
    CountDownLatch go = new CountDownLatch(1);
    ConcurrentLinkedQueue<String> broken = new ConcurrentLinkedQueue<>();
    List<Thread> all = new ArrayList<>();
    long[] lastCompleted = new long[threads];
    for (int t = 0; t < threads; t++) {
      int me = t;
      Thread th = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        for (int i = 0; i < 20_000; i++) {
          long c = ReadClock.completed();
          long s = ReadClock.start();
          if (s - c <= 0) {
            broken.add("start " + s + " after completed " + c);
          }
          lastCompleted[me] = c;
        }
      });
      all.add(th);
      th.start();
    }
    go.countDown();
    for (Thread th : all) {
      th.join();
    }
    long end = ReadClock.start();
    assertThat(broken).isEmpty();
    for (long c : lastCompleted) {
      assertThat(end - c).isPositive();
    }
  }
}
