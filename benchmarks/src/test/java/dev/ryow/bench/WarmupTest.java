package dev.ryow.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A warm-up ends when two successive windows' client CPU per page are within 5 %, and says so. */
class WarmupTest {

  @Test
  void stableOnlyWhenTheLastTwoWindowsAreMeasuredAndWithinTheTolerance() {
    assertThat(Warmup.stable(List.of(), 0.05)).isFalse();
    assertThat(Warmup.stable(List.of(1.0), 0.05)).isFalse();
    assertThat(Warmup.stable(List.of(1.8, 1.4), 0.05)).isFalse();
    assertThat(Warmup.stable(List.of(1.8, 1.4, 1.34), 0.05)).isTrue(); // 4.3 % apart
    assertThat(Warmup.stable(List.of(1.34, 1.41), 0.05)).isTrue(); // 5 % of the larger, 1.41, is 0.0705: 0.07 is inside
    assertThat(Warmup.stable(List.of(1.30, 1.40), 0.05)).isFalse(); // 7.1 % apart
    assertThat(Warmup.stable(List.of(1.0, Double.NaN), 0.05)).isFalse();
    assertThat(Warmup.stable(List.of(0.0, 0.0), 0.05)).isFalse();
  }

  @Test
  void theReportListsEveryWindowAndWhetherItSettled() {
    Warmup w = new Warmup();
    w.add(1.8);
    w.add(1.4);
    assertThat(w.stable()).isFalse();
    assertThat(w.describe("ryow-pooled", 5)).isEqualTo("ryow-pooled: 2 windows of 5 s, client CPU per page 1.800, "
        + "1.400 ms: **not stable** (the limit of windows was reached first)");
    w.add(1.38);
    assertThat(w.stable()).isTrue();
    assertThat(w.describe("ryow-pooled", 5)).isEqualTo("ryow-pooled: 3 windows of 5 s, client CPU per page 1.800, "
        + "1.400, 1.380 ms: stable (last two within 5 %)");
  }
}
