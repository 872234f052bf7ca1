package dev.ryow.jdbc.cluster;

import java.util.List;

/**
 * The turn of the JVM's monotonic reads ({@code route.MonotonicReads}): which replica is their home for the
 * current poll round. The poller alone moves it, once a round ({@link #roundDone}), from the reads each
 * server served ({@link ReplicaEndpoint#servedReads()}) by {@link TurnRule}; readers only read the
 * published index.
 */
public final class HomeTurns {
  /**
   * Poll rounds whose reads bound what a server may be ahead or owed ({@link TurnRule}'s clamp): the
   * largest round of the last this many. Reads older than that window and not made up within it are
   * forgotten.
   */
  public static final int WINDOW_ROUNDS = 8;

  private final long[] lastTotal;
  private final long[] roundReads = new long[WINDOW_ROUNDS];
  private int slot;
  private final long[] ahead;
  private final long[] served;
  private final boolean[] eligible;
  private volatile int turn = TurnRule.NONE;

  HomeTurns(int servers) {
    this.lastTotal = new long[servers];
    this.ahead = new long[servers];
    this.served = new long[servers];
    this.eligible = new boolean[servers];
  }

  /** The index of the server whose turn it is, or {@link TurnRule#NONE}. */
  int turn() {
    return turn;
  }

  /**
   * A poll round ended: moves the turn; returns whether it moved. Only the poller's thread calls this.
   */
  boolean roundDone(List<ReplicaEndpoint> servers, ReplicaEndpoint primary) {
    int n = Math.min(servers.size(), ahead.length);
    long reads = 0;
    for (int i = 0; i < n; i++) {
      ReplicaEndpoint e = servers.get(i);
      long total = e.servedReads();
      served[i] = total - lastTotal[i];
      lastTotal[i] = total;
      eligible[i] = mayTakeTurn(e, primary);
      reads += served[i];
    }
    roundReads[slot] = reads;
    slot = (slot + 1) % WINDOW_ROUNDS;
    long largestRound = 0;
    for (long r : roundReads) {
      largestRound = Math.max(largestRound, r);
    }
    int before = turn;
    int next = TurnRule.next(ahead, served, eligible, largestRound, before);
    turn = next;
    return next != before;
  }

  /**
   * Whether {@code e} may be the home of the JVM's reads: a replica in rotation, neither
   * {@linkplain ReplicaEndpoint#behind() behind} nor {@linkplain ReplicaEndpoint#stalled() stalled}.
   */
  public static boolean mayTakeTurn(ReplicaEndpoint e, ReplicaEndpoint primary) {
    return e != primary && !e.vacant() && e.health().inRotation() && !e.behind() && !e.stalled();
  }
}
