package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

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
}
