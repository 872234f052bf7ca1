package dev.ryow.jdbc.cluster.wait;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** "How long may a read wait on this replica?" as a table (microseconds). */
class WaitBoundTest {

  static Stream<Arguments> table() {
    return Stream.of(
        // primary takes it uncapped, timeout, smoothed wait, deviation, primary cost, waits cut since the last success -> bound
        // nothing known yet: the configured timeout
        Arguments.of(true, 100_000, 0, 0, 0, 0, 100_000),
        Arguments.of(true, 100_000, 2_000, 500, 0, 0, 100_000),
        Arguments.of(true, 100_000, 0, 0, 800, 0, 100_000),
        // known: the normal wait (smoothed + 4 x deviation) plus what the primary costs
        Arguments.of(true, 100_000, 2_000, 500, 800, 0, 4_800),
        Arguments.of(true, 100_000, 10_000, 5_000, 1_000, 0, 31_000),
        // never longer than the timeout
        Arguments.of(true, 100_000, 60_000, 20_000, 1_000, 0, 100_000),
        Arguments.of(true, 5_000, 2_000, 500, 800, 0, 4_800),
        Arguments.of(true, 4_000, 2_000, 500, 800, 0, 4_000),
        // never shorter than the floor
        Arguments.of(true, 100_000, 200, 50, 300, 0, WaitBound.FLOOR_MICROS),
        // a timeout below the floor stays the timeout
        Arguments.of(true, 500, 200, 50, 300, 0, 500),
        // the primary does not take every read (ryow.fallback other than primary, or a fallbackRate cap): never cut
        Arguments.of(false, 100_000, 2_000, 500, 800, 0, 100_000),
        Arguments.of(false, 100_000, 200, 50, 300, 0, 100_000),
        // each wait the bound cut doubles it (Karn), up to the timeout
        Arguments.of(true, 100_000, 2_000, 500, 800, 1, 9_600),
        Arguments.of(true, 100_000, 2_000, 500, 800, 3, 38_400),
        Arguments.of(true, 100_000, 2_000, 500, 800, 5, 100_000),
        Arguments.of(true, 100_000, 200, 50, 300, 2, 4_000),
        Arguments.of(true, 100_000, 2_000, 500, 800, Smoothed.MAX_BACKOFF, 100_000),
        Arguments.of(true, Long.MAX_VALUE, 2_000, 500, 800, Smoothed.MAX_BACKOFF, 4_800L << Smoothed.MAX_BACKOFF),
        // nothing known: nothing to back off
        Arguments.of(true, 100_000, 0, 0, 0, 4, 100_000),
        Arguments.of(false, 100_000, 2_000, 500, 800, 4, 100_000));
  }

  @ParameterizedTest(name = "uncapped {0}, timeout {1}, wait {2}±{3}, primary {4}, cut {5} -> {6}")
  @MethodSource("table")
  void bound(boolean uncapped, long timeout, long smoothed, long deviation, long primary, int cut, long expected) {
    assertThat(WaitBound.micros(uncapped, timeout, smoothed, deviation, primary, cut)).isEqualTo(expected);
  }
}
