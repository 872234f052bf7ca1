package dev.ryow.jdbc.cluster;

/**
 * "Whose turn is it to be the home of the JVM's monotonic reads for the next poll round?" The eligible
 * replica that served the fewest reads: so every eligible replica takes the same share of the reads,
 * whatever the rate of reads or the length of a round.
 *
 * <p>{@code ahead[i]} is how many more reads server {@code i} served than the least served eligible
 * server: 0 for that one, below 0 for a server that is not eligible (the primary, a vacant place, out of
 * rotation, behind, stalled) and is owed reads the others served while it could not. At the end of a
 * round every server's reads of that round are added, the least of the eligible ones is subtracted from
 * all, and every count is clamped to twice the reads of the largest recent round (the caller's window),
 * either way. The turn goes to the eligible server least ahead; a tie goes to the first after the current
 * turn in index order, so equally loaded replicas alternate.
 *
 * <p>What the clamp means: a server is owed at most two rounds of reads (the one round two eligible
 * replicas may differ by, below, and one round missed), so a replica that fell behind or stalled for a
 * round is paid that round back when it takes the next one, while a replica back from a blocked applier
 * or an outage takes a round or two, not every round until it caught up with all it missed. And history
 * older than the window does not count: after a burst of reads and a quiet spell the balance starts again
 * from level.
 *
 * <p>The bound this gives, for replicas eligible throughout and rounds in which the replica whose turn it
 * is serves most of the round's reads (the others only the reads that began before the turn moved):
 * after any round, two of them differ by at most the reads of the largest round. The one behind by
 * {@code d} takes the next round of {@code r} reads, and the difference becomes {@code |d - r + s|} with
 * {@code s < r} the reads served elsewhere: no more than {@code max(d, r)}, well within the clamp, which
 * therefore forgets none of their reads. A round in which one of them was not eligible adds at most one
 * round to the difference, still within the clamp, and it is paid back when that replica takes its next
 * turn. Pure: the arrays are the caller's; the poller alone calls it.
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
   * @param largestRound the reads of the largest recent round: no count goes beyond twice that
   * @param current the index whose turn it was, or {@link #NONE}
   */
  public static int next(long[] ahead, long[] served, boolean[] eligible, long largestRound, int current) {
    int n = ahead.length;
    long clamp = 2 * largestRound;
    long least = Long.MAX_VALUE;
    for (int i = 0; i < n; i++) {
      ahead[i] += served[i];
      if (eligible[i]) {
        least = Math.min(least, ahead[i]);
      }
    }
    long level = least == Long.MAX_VALUE ? 0 : least;
    int best = NONE;
    for (int k = 1; k <= n; k++) {
      int i = Math.floorMod(current + k, n);
      ahead[i] = Math.max(-clamp, Math.min(clamp, ahead[i] - level));
      if (eligible[i] && (best == NONE || ahead[i] < ahead[best])) {
        best = i;
      }
    }
    return best;
  }
}
