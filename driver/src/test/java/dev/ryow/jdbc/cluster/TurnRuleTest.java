package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** "Whose turn is it to be the JVM's home next round?": one round as a table, then many rounds against the bound. */
class TurnRuleTest {
  private static final int N = TurnRule.NONE;

  static Stream<Arguments> rounds() {
    return Stream.of(
        // ahead before, served in the round, eligible, current turn -> ahead after, next turn
        // the primary (0) and two level replicas: the turn alternates
        Arguments.of(new long[] {0, 0, 0}, new long[] {0, 10, 0}, new boolean[] {false, true, true}, 1,
            new long[] {0, 10, 0}, 2),
        Arguments.of(new long[] {0, 10, 0}, new long[] {0, 0, 10}, new boolean[] {false, true, true}, 2,
            new long[] {0, 0, 0}, 1),
        // a tie goes to the first after the current turn, so equals alternate
        Arguments.of(new long[] {0, 0, 0}, new long[] {0, 0, 0}, new boolean[] {false, true, true}, 2,
            new long[] {0, 0, 0}, 1),
        // a short round does not hand the turn back: replica 2 is still 5 behind
        Arguments.of(new long[] {0, 10, 0}, new long[] {0, 0, 5}, new boolean[] {false, true, true}, 2,
            new long[] {0, 5, 0}, 2),
        // stragglers on the other replica count too
        Arguments.of(new long[] {0, 0, 0}, new long[] {0, 3, 9}, new boolean[] {false, true, true}, 2,
            new long[] {0, 0, 6}, 1),
        // an ineligible replica has no claim: it is reset and not owed the rounds it missed
        Arguments.of(new long[] {0, 0, 40}, new long[] {0, 20, 0}, new boolean[] {false, true, false}, 1,
            new long[] {0, 0, 0}, 1),
        // ...and when it comes back it starts level with the least served
        Arguments.of(new long[] {0, 0, 0}, new long[] {0, 20, 0}, new boolean[] {false, true, true}, 1,
            new long[] {0, 20, 0}, 2),
        // nobody eligible: no turn
        Arguments.of(new long[] {0, 4, 2}, new long[] {0, 1, 1}, new boolean[] {false, false, false}, 1,
            new long[] {0, 0, 0}, N),
        // no turn before: the least served, first in index order on a tie
        Arguments.of(new long[] {0, 0, 0, 0}, new long[] {0, 0, 0, 0}, new boolean[] {false, true, true, true}, N,
            new long[] {0, 0, 0, 0}, 1),
        // three replicas: the least served takes it
        Arguments.of(new long[] {0, 7, 3, 0}, new long[] {0, 0, 0, 8}, new boolean[] {false, true, true, true}, 3,
            new long[] {0, 4, 0, 5}, 2));
  }

  @ParameterizedTest(name = "[{index}] current {3} -> next {5}")
  @MethodSource("rounds")
  void oneRound(long[] ahead, long[] served, boolean[] eligible, int current, long[] after, int next) {
    assertThat(TurnRule.next(ahead, served, eligible, current)).isEqualTo(next);
    assertThat(ahead).containsExactly(after);
  }

  /**
   * The bound the share rests on: whatever the round sizes (here random, 1 to 100 reads, some of them
   * served by the replica whose turn it was not), two replicas eligible throughout never differ by more
   * than the largest round.
   */
  @Test
  void twoReplicasNeverDifferByMoreThanOneRound() {
    SplittableRandom random = new SplittableRandom(24);
    long[] ahead = new long[3];
    long[] served = new long[3];
    boolean[] eligible = {false, true, true};
    long[] total = new long[3];
    int turn = TurnRule.next(ahead, served, eligible, N);
    long largest = 0;
    for (int round = 0; round < 10_000; round++) {
      long reads = random.nextLong(1, 101);
      long elsewhere = random.nextLong(0, reads / 4 + 1);
      served[0] = 0;
      served[turn] = reads - elsewhere;
      served[3 - turn] = elsewhere;
      total[1] += served[1];
      total[2] += served[2];
      largest = Math.max(largest, reads);
      turn = TurnRule.next(ahead, served, eligible, turn);
      assertThat(Math.abs(total[1] - total[2])).as("after round " + round).isLessThanOrEqualTo(largest);
    }
    assertThat(turn).isIn(1, 2);
  }
}
