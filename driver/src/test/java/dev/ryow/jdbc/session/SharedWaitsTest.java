package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** "How long may a read ride on another's wait, and what is left for its own?" as a table. */
class SharedWaitsTest {
  static Stream<Arguments> table() {
    return Stream.of(
        // budget ms -> longest ride ns; then bound ms, rode ns -> own wait's bound ms
        Arguments.of(100, 50_000_000L, 100, 50_000_000L, 50),
        Arguments.of(100, 50_000_000L, 100, 3_000_000L, 97),
        // a ride is rounded up to whole milliseconds: the two never exceed the budget
        Arguments.of(100, 50_000_000L, 100, 3_000_001L, 96),
        Arguments.of(7, 3_500_000L, 7, 3_500_000L, 3),
        Arguments.of(1, 500_000L, 1, 500_000L, 1),
        // nothing left: no ride; the own wait keeps its 1 ms minimum (a 0 would not wait)
        Arguments.of(WaitBudget.EXPIRED, 0L, 1, 0L, 1),
        Arguments.of(20_000, 10_000_000_000L, 20_000, 10_000_000_000L, 10_000));
  }

  @ParameterizedTest(name = "budget {0} ms: ride at most {1} ns; bound {2} ms after riding {3} ns: {4} ms")
  @MethodSource("table")
  void ride(long budgetMillis, long rideNanos, long boundMillis, long rodeNanos, long after) {
    assertThat(SharedWaits.rideNanos(budgetMillis)).isEqualTo(rideNanos);
    assertThat(SharedWaits.afterRide(boundMillis, rodeNanos)).isEqualTo(after);
    assertThat(SharedWaits.rideNanos(budgetMillis) / 1_000_000 + SharedWaits.afterRide(budgetMillis,
        SharedWaits.rideNanos(budgetMillis))).isLessThanOrEqualTo(Math.max(1, budgetMillis));
  }
}
