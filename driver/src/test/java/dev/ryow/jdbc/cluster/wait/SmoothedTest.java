package dev.ryow.jdbc.cluster.wait;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** RFC 6298's smoothing, packed in one long. */
class SmoothedTest {

  @Test
  void theFirstSampleSetsTheValueAndHalfOfItAsTheDeviation() {
    long s = Smoothed.next(Smoothed.NONE, 2_000_000);
    assertThat(Smoothed.smoothedMicros(s)).isEqualTo(2_000);
    assertThat(Smoothed.deviationMicros(s)).isEqualTo(1_000);
  }

  @Test
  void laterSamplesMoveItByAnEighthAndTheDeviationByAQuarter() {
    long s = Smoothed.next(Smoothed.NONE, 2_000_000);
    s = Smoothed.next(s, 10_000_000);
    assertThat(Smoothed.smoothedMicros(s)).isEqualTo(3_000); // (7 x 2000 + 10000) / 8
    assertThat(Smoothed.deviationMicros(s)).isEqualTo(2_750); // (3 x 1000 + 8000) / 4
  }

  @Test
  void steadySamplesConvergeAndTheDeviationFades() {
    long s = Smoothed.NONE;
    for (int i = 0; i < 200; i++) {
      s = Smoothed.next(s, 1_500_000);
    }
    assertThat(Smoothed.smoothedMicros(s)).isEqualTo(1_500);
    assertThat(Smoothed.deviationMicros(s)).isZero();
  }

  @Test
  void aSampleBelowAMicrosecondCountsAsOneAndNothingOverflows() {
    long s = Smoothed.next(Smoothed.NONE, 10);
    assertThat(s).isNotEqualTo(Smoothed.NONE);
    assertThat(Smoothed.smoothedMicros(s)).isEqualTo(1);
    long big = Smoothed.next(Smoothed.NONE, Long.MAX_VALUE);
    assertThat(Smoothed.smoothedMicros(big)).isEqualTo(0xFFFF_FFFFL);
    assertThat(Smoothed.smoothedMicros(Smoothed.next(big, Long.MAX_VALUE))).isEqualTo(0xFFFF_FFFFL);
  }

  @Test
  void anExpiredTimerBacksOffUntilTheNextSampleWhichKeepsTheEstimate() {
    long s = Smoothed.next(Smoothed.NONE, 2_000_000);
    assertThat(Smoothed.backoff(s)).isZero();
    long once = Smoothed.backedOff(s);
    long twice = Smoothed.backedOff(once);
    assertThat(Smoothed.backoff(once)).isEqualTo(1);
    assertThat(Smoothed.backoff(twice)).isEqualTo(2);
    assertThat(Smoothed.smoothedMicros(twice)).isEqualTo(2_000);
    assertThat(Smoothed.deviationMicros(twice)).isEqualTo(1_000);
    long measured = Smoothed.next(twice, 10_000_000);
    assertThat(Smoothed.backoff(measured)).isZero();
    assertThat(Smoothed.smoothedMicros(measured)).isEqualTo(3_000);
    assertThat(Smoothed.deviationMicros(measured)).isEqualTo(2_750);
  }

  @Test
  void theBackOffStopsAtItsMaximumAndNeverTouchesTheOtherFields() {
    long start = Smoothed.next(Smoothed.next(Smoothed.NONE, Long.MAX_VALUE), 1_000);
    long s = start;
    for (int i = 0; i < 40; i++) {
      s = Smoothed.backedOff(s);
    }
    assertThat(Smoothed.backoff(s)).isEqualTo(Smoothed.MAX_BACKOFF);
    assertThat(Smoothed.deviationMicros(s)).isEqualTo(Smoothed.deviationMicros(start));
    assertThat(Smoothed.smoothedMicros(s)).isEqualTo(Smoothed.smoothedMicros(start));
  }

  @Test
  void nothingToBackOffBeforeTheFirstSample() {
    assertThat(Smoothed.backedOff(Smoothed.NONE)).isEqualTo(Smoothed.NONE);
  }

  @Test
  void racingSamplesAndBackOffsLoseNone() throws InterruptedException {
    AtomicLong target = new AtomicLong(Smoothed.next(Smoothed.NONE, 1_000_000));
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      threads[t] = new Thread(() -> {
        for (int i = 0; i < 10_000; i++) {
          Smoothed.backOff(target);
        }
      });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(Smoothed.backoff(target.get())).isEqualTo(Smoothed.MAX_BACKOFF);
    Smoothed.add(target, 1_000_000);
    assertThat(Smoothed.backoff(target.get())).isZero();
    assertThat(Smoothed.smoothedMicros(target.get())).isEqualTo(1_000);
  }
}
