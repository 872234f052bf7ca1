package dev.ryow.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The open loop's schedule, and latency counted from when a page was due. */
class OpenLoopTest {

  @Test
  void pagesAreDueAtEvenIntervalsFromTheStartWithoutDrift() {
    OpenLoop loop = new OpenLoop(1_000, 300); // 300 pages/s: one every 3.333 ms
    assertThat(loop.dueNanos(0)).isEqualTo(1_000);
    assertThat(loop.dueNanos(1)).isEqualTo(1_000 + 3_333_333);
    assertThat(loop.dueNanos(3)).isEqualTo(1_000 + 10_000_000);
    // Rounded per page from the start, not summed: no drift after many pages.
    assertThat(loop.dueNanos(300_000)).isEqualTo(1_000 + 1_000_000_000_000L);
  }

  @Test
  void aPageThatStartedLateCountsItsWaitAndAnEarlyStartCountsFromItsStart() {
    // Due at 10, started at 25 (every thread was busy), ended at 40: 30, not 15.
    assertThat(OpenLoop.latencyNanos(10, 25, 40)).isEqualTo(30);
    assertThat(OpenLoop.latencyNanos(10, 10, 40)).isEqualTo(30);
    assertThat(OpenLoop.latencyNanos(10, 5, 40)).isEqualTo(35);
  }

  @Test
  void aRateMustBePositive() {
    assertThatThrownBy(() -> new OpenLoop(0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new OpenLoop(0, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
