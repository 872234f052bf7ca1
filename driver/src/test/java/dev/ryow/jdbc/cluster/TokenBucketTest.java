package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenBucketTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  private int drain(TokenBucket bucket) {
    int taken = 0;
    while (bucket.tryAcquire()) {
      taken++;
    }
    return taken;
  }

  @Test
  void startsFullWithTheBurst() {
    assertThat(drain(new TokenBucket(5, 7, now::get))).isEqualTo(7);
  }

  @Test
  void refillsAtTheRateAndNeverBeyondTheBurst() {
    TokenBucket bucket = new TokenBucket(10, 3, now::get);
    drain(bucket);
    now.addAndGet(100_000_000L); // 0.1 s: one token at 10/s
    assertThat(drain(bucket)).isEqualTo(1);
    now.addAndGet(50_000_000L);
    assertThat(bucket.tryAcquire()).isFalse();
    now.addAndGet(50_000_000L);
    assertThat(bucket.tryAcquire()).isTrue();
    now.addAndGet(60_000_000_000L); // a minute idle: capped at the burst
    assertThat(drain(bucket)).isEqualTo(3);
  }

  @Test
  void overAPeriodGrantsAtMostBurstPlusRateTimesSeconds() {
    TokenBucket bucket = new TokenBucket(4, 6, now::get);
    int granted = 0;
    for (int ms = 0; ms <= 10_000; ms++) { // 10 s, a caller every millisecond
      if (bucket.tryAcquire()) {
        granted++;
      }
      now.addAndGet(1_000_000L);
    }
    assertThat(granted).isEqualTo(6 + 4 * 10);
  }

  @Test
  void rejectsNonPositiveSettings() {
    assertThatThrownBy(() -> new TokenBucket(0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TokenBucket(1, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
