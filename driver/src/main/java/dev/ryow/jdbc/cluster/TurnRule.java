package dev.ryow.jdbc.cluster;

/**
 * "Whose turn is it to be the home of the JVM's monotonic reads for the next poll round?" The replica
 * that served the fewest reads, counted from the rounds it was eligible in: so every eligible replica
 * takes the same share of the reads, whatever the rate of reads or the length of a round.
 *
 * <p>{@code ahead[i]} is how many more reads server {@code i} served than the least served eligible
 * server (0 for that one). At the end of a round each eligible server's reads of that round are added,
 * the least is subtracted again, and the turn goes to the server least ahead; a tie goes to the first
 * after the current turn in index order, so equally loaded replicas alternate. A server that is not
 * eligible (the primary, a vacant place, out of rotation, behind, stalled) has no claim: its count is set
 * to 0, so when it becomes eligible again it starts level with the least served and is not owed the
 * reads it missed (it would otherwise take every round until it caught up).
 *
 * <p>The bound this gives, for replicas eligible throughout and rounds in which the replica whose turn it
 * is serves most of the round's reads (the others only the reads that began before the turn moved):
 * after any round, two of them differ by at most the reads of the largest round. The one behind by
 * {@code d} takes the next round of {@code r} reads, and the difference becomes {@code |d - r + s|} with
 * {@code s < r} the reads served elsewhere: no more than {@code max(d, r)}. So the share of each is within
 * one round of even, however fast or slow the rounds are. Pure: the arrays are the
 * caller's; the poller alone calls it.
 */
public final class TurnRule {
  /** No server may take the turn. */
  public static final int NONE = -1;

  private TurnRule() {}

  /**
   * Folds in the round that just ended and returns the index of the next turn, or {@link #NONE}.
   *
   * @param ahead per server, reads served beyond the least served eligible server; updated in place
   * @param served per server, reads it served in the round that just ended
   * @param eligible per server, whether it may take the turn
   * @param current the index whose turn it was, or {@link #NONE}
   */
  public static int next(long[] ahead, long[] served, boolean[] eligible, int current) {
    int n = ahead.length;
    long least = Long.MAX_VALUE;
    for (int i = 0; i < n; i++) {
      if (eligible[i]) {
        ahead[i] += served[i];
        least = Math.min(least, ahead[i]);
      } else {
        ahead[i] = 0;
      }
    }
    if (least == Long.MAX_VALUE) {
      return NONE;
    }
    int best = NONE;
    for (int k = 1; k <= n; k++) {
      int i = Math.floorMod(current + k, n);
      if (!eligible[i]) {
        continue;
      }
      ahead[i] -= least;
      if (best == NONE || ahead[i] < ahead[best]) {
        best = i;
      }
    }
    return best;
  }
}
