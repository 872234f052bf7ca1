package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
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
        // ahead before, served in the round, eligible, largest recent round, current turn -> ahead after, next turn
        // the primary (0) and two level replicas: the turn alternates
        Arguments.of(new long[] {0, 0, 0}, new long[] {0, 10, 0}, new boolean[] {false, true, true}, 10, 1,
            new long[] {0, 10, 0}, 2),
        // (the primary, never eligible, is owed what the replicas served, within the clamp)
        Arguments.of(new long[] {0, 10, 0}, new long[] {0, 0, 10}, new boolean[] {false, true, true}, 10, 2,
            new long[] {-10, 0, 0}, 1),
        // a tie goes to the first after the current turn, so equals alternate
        Arguments.of(new long[] {0, 0, 0}, new long[] {0, 0, 0}, new boolean[] {false, true, true}, 0, 2,
            new long[] {0, 0, 0}, 1),
        // a short round does not hand the turn back: replica 2 is still 5 behind
        Arguments.of(new long[] {0, 10, 0}, new long[] {0, 0, 5}, new boolean[] {false, true, true}, 10, 2,
            new long[] {-5, 5, 0}, 2),
        // stragglers on the other replica count too
        Arguments.of(new long[] {0, 0, 0}, new long[] {0, 3, 9}, new boolean[] {false, true, true}, 12, 2,
            new long[] {-3, 0, 6}, 1),
        // a replica that may not take the turn (behind, stalled, out of rotation) is owed what the other served
        Arguments.of(new long[] {0, 0, 0}, new long[] {0, 20, 0}, new boolean[] {false, true, false}, 20, 2,
            new long[] {-20, 0, -20}, 1),
        // ...a second round out too
        Arguments.of(new long[] {-20, 0, -20}, new long[] {0, 20, 0}, new boolean[] {false, true, false}, 20, 1,
            new long[] {-40, 0, -40}, 1),
        // ...but never more than twice the largest round: a third round out does not add to it
        Arguments.of(new long[] {-40, 0, -40}, new long[] {0, 20, 0}, new boolean[] {false, true, false}, 20, 1,
            new long[] {-40, 0, -40}, 1),
        // ...and when it comes back it takes the next round, to be paid what it is owed
        Arguments.of(new long[] {-40, 0, -40}, new long[] {0, 20, 0}, new boolean[] {false, true, true}, 20, 1,
            new long[] {0, 40, 0}, 2),
        // reads older than the window are forgotten: the last rounds had 10 reads, so 290 ahead counts as 20
        Arguments.of(new long[] {0, 300, 0}, new long[] {0, 0, 10}, new boolean[] {false, true, true}, 10, 2,
            new long[] {-10, 20, 0}, 2),
        // after a quiet window (no reads) every server is level again
        Arguments.of(new long[] {-40, 40, 0}, new long[] {0, 0, 0}, new boolean[] {false, true, true}, 0, 2,
            new long[] {0, 0, 0}, 1),
        // nobody eligible: no turn; the counts only take the round's reads, within the cap
        Arguments.of(new long[] {0, 4, 2}, new long[] {0, 1, 1}, new boolean[] {false, false, false}, 1, 1,
            new long[] {0, 2, 2}, N),
        // no turn before: the least served, first in index order on a tie
        Arguments.of(new long[] {0, 0, 0, 0}, new long[] {0, 0, 0, 0}, new boolean[] {false, true, true, true}, 0,
            N, new long[] {0, 0, 0, 0}, 1),
        // three replicas: the least served takes it
        Arguments.of(new long[] {0, 7, 3, 0}, new long[] {0, 0, 0, 8}, new boolean[] {false, true, true, true}, 8,
            3, new long[] {-3, 4, 0, 5}, 2));
  }

  @ParameterizedTest(name = "[{index}] current {4} -> next {6}")
  @MethodSource("rounds")
  void oneRound(long[] ahead, long[] served, boolean[] eligible, long largestRound, int current, long[] after,
      int next) {
    assertThat(TurnRule.next(ahead, served, eligible, largestRound, current)).isEqualTo(next);
    assertThat(ahead).containsExactly(after);
  }

  /**
   * The bound the share rests on: whatever the round sizes (here random, 1 to 100 reads, some of them
   * served by the replica whose turn it was not), two replicas eligible throughout never differ by more
   * than the largest round; the clamp, taken over the poller's window, never forgets a read of theirs.
   */
  @Test
  void twoReplicasNeverDifferByMoreThanOneRound() {
    Run run = new Run(24);
    for (int round = 0; round < 10_000; round++) {
      run.round(true, true);
      assertThat(run.difference()).as("after round " + round).isLessThanOrEqualTo(run.largest);
    }
  }

  /**
   * A replica that misses a round now and then (it fell behind, it stalled) is paid the reads it missed:
   * with one round in three at most missed by one replica or the other, over 10,000 rounds, the two never
   * differ by more than three rounds, and end within one.
   */
  @Test
  void aReplicaThatMissesARoundIsPaidItBack() {
    Run run = new Run(7);
    SplittableRandom misses = new SplittableRandom(11);
    int lastMiss = -3;
    for (int round = 0; round < 10_000; round++) {
      boolean miss = round - lastMiss >= 3 && misses.nextInt(3) == 0;
      boolean firstMisses = misses.nextBoolean();
      lastMiss = miss ? round : lastMiss;
      run.round(!miss || !firstMisses, !miss || firstMisses);
      assertThat(run.difference()).as("after round " + round).isLessThanOrEqualTo(3 * run.largest);
    }
    for (int round = 0; round < 3; round++) {
      run.round(true, true);
    }
    assertThat(run.difference()).isLessThanOrEqualTo(run.largest);
  }

  /** The primary (0) and two replicas, rounds of random size, the window kept as {@link HomeTurns} keeps it. */
  private static final class Run {
    private final SplittableRandom random;
    private final long[] ahead = new long[3];
    private final long[] served = new long[3];
    private final long[] total = new long[3];
    private final long[] window = new long[HomeTurns.WINDOW_ROUNDS];
    private int rounds;
    private int turn = TurnRule.next(ahead, served, new boolean[] {false, true, true}, 0, N);
    private long largest;

    Run(long seed) {
      this.random = new SplittableRandom(seed);
    }

    void round(boolean firstEligible, boolean secondEligible) {
      long reads = random.nextLong(1, 101);
      long elsewhere = random.nextLong(0, reads / 4 + 1);
      served[turn] = reads - elsewhere;
      served[3 - turn] = elsewhere;
      total[1] += served[1];
      total[2] += served[2];
      largest = Math.max(largest, reads);
      window[rounds++ % window.length] = reads;
      long largestRecent = Arrays.stream(window).max().orElse(0);
      int next = TurnRule.next(ahead, served, new boolean[] {false, firstEligible, secondEligible}, largestRecent,
          turn);
      assertThat(next).isIn(1, 2);
      turn = next;
    }

    long difference() {
      return Math.abs(total[1] - total[2]);
    }
  }
}
