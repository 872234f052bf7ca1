package dev.ryow.jdbc.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Wait times in buckets: where a wait lands, and the percentiles read back (never below the truth, within 25 %). */
class WaitHistogramTest {
  @ParameterizedTest(name = "{0} ns -> bucket {1}")
  @CsvSource({
      "0, 0", "1, 1", "999, 1", // rounded up to 1 µs
      "1000, 1", "1001, 5", "1999, 5", "2000, 5", "3000, 7", // 1, 2, 3 µs
      "4000, 9", "5000, 10", "6000, 11", "7000, 12", "8000, 13", // a power of two in quarters
      "1000000, 40", // 1 ms: the last quarter of 2^9 µs
      "100000000, 67", // 100 ms: the third quarter of 2^16 µs
      "9223372036854775807, 96"}) // everything beyond the last edge stays in the last bucket
  void bucketOfAWait(long nanos, int bucket) {
    assertThat(WaitHistogram.bucket(nanos)).isEqualTo(bucket);
    if (bucket > 0 && bucket < WaitHistogram.BUCKETS - 1) {
      assertThat(WaitHistogram.upperMillis(bucket)).as("upper edge").isGreaterThan(nanos / 1e6);
      if (nanos % 1000 == 0) {
        assertThat(WaitHistogram.upperMillis(bucket - 1)).as("edge below").isLessThanOrEqualTo(nanos / 1e6);
      }
    }
  }

  @Test
  void percentilesAreTheUpperEdgeOfTheirBucketNeverBelowTheTruth() {
    WaitHistogram h = new WaitHistogram();
    assertThat(h.percentileMillis(50)).as("no waits").isZero();
    for (int i = 1; i <= 100; i++) {
      h.record(i * 1_000_000L); // 1 .. 100 ms
    }
    double p50 = h.percentileMillis(50);
    double p99 = h.percentileMillis(99);
    assertThat(p50).isGreaterThanOrEqualTo(50).isLessThanOrEqualTo(50 * 1.25);
    assertThat(p99).isGreaterThanOrEqualTo(99).isLessThanOrEqualTo(99 * 1.25);
    assertThat(h.percentileMillis(100)).isGreaterThanOrEqualTo(100).isLessThanOrEqualTo(125);
    assertThat(h.percentileMillis(0)).as("the smallest").isCloseTo(1.0, within(0.25));
  }
}
