package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** "How long may this read's wait take?" as a table: one computation and one rounding for both wait paths. */
class WaitBudgetTest {
  private static final long NOW = 5_000_000_000L;

  static Stream<Arguments> table() {
    return Stream.of(
        // bound ms, query timeout left (ns; -1: no query timeout) -> budget ms, cut by the deadline
        // no query timeout: the bound, learned or ryow.waitTimeout
        Arguments.of(100, -1, 100, false),
        Arguments.of(4, -1, 4, false),
        Arguments.of(20_000, -1, 20_000, false),
        // a query timeout that ends later than the bound leaves the bound
        Arguments.of(100, 1_000_000_000L, 100, false),
        Arguments.of(100, 100_000_000L, 100, false),
        // one that ends sooner cuts it, in whole milliseconds rounded up
        Arguments.of(100, 50_000_000L, 50, true),
        Arguments.of(100, 50_000_001L, 51, true),
        Arguments.of(100, 49_999_999L, 50, true),
        Arguments.of(100, 1L, 1, true),
        Arguments.of(4, 3_200_000L, 4, false),
        Arguments.of(4, 2_200_000L, 3, true),
        // a deadline already passed: expired, whatever the bound
        Arguments.of(100, 0L, WaitBudget.EXPIRED, true),
        Arguments.of(100, -7_000_000L, WaitBudget.EXPIRED, true));
  }

  @ParameterizedTest(name = "bound {0} ms, {1} ns left -> {2} ms, cut by the deadline {3}")
  @MethodSource("table")
  void budget(long bound, long leftNanos, long expected, boolean cut) {
    long deadline = leftNanos == -1 ? 0 : NOW + leftNanos;
    long budget = WaitBudget.millis(bound, deadline, NOW);
    assertThat(budget).isEqualTo(expected);
    assertThat(WaitBudget.cutByDeadline(budget, bound)).isEqualTo(cut);
  }
}
