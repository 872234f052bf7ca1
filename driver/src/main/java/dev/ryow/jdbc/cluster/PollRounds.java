package dev.ryow.jdbc.cluster;

import java.util.List;

/**
 * The poller's rounds as the reads see them: how many finished, when the last one did, and whose turn it is
 * to be the home of the JVM's monotonic reads ({@link HomeTurns}, moved at the end of each round).
 */
public final class PollRounds {
  private final StateVersion stateVersion;
  /** Whose turn it is to be the home of the JVM's monotonic reads; moved by the poller. */
  private final HomeTurns turns;
  /** Poll rounds finished: whose turn it is to be the JVM's home for monotonic reads (monotonic reads, in {@code route}). */
  private volatile int pollRounds;
  /** When the last poll round finished ({@link System#nanoTime()}); meaningless while {@link #pollRounds} is 0. */
  private volatile long lastRoundEndNanos;

  PollRounds(int servers, StateVersion stateVersion) {
    this.turns = new HomeTurns(servers);
    this.stateVersion = stateVersion;
  }

  /**
   * The index of the replica whose turn it is to be the home of the JVM's monotonic reads this poll round
   * ({@link TurnRule}), or {@link TurnRule#NONE}.
   */
  public int homeTurn() {
    return turns.turn();
  }

  /** Poll rounds the poller has finished (it alone writes it). */
  public int pollRounds() {
    return pollRounds;
  }

  /** When the last poll round finished ({@link System#nanoTime()}); meaningless before the first. */
  public long lastRoundEndNanos() {
    return lastRoundEndNanos;
  }

  /** The poller finished a round at {@code nowNanos}, over {@code servers} whose primary is {@code primary}. */
  @SuppressWarnings("NonAtomicVolatileUpdate") // one writer, the poller's thread: readers only need to see it
  void roundDone(long nowNanos, List<ReplicaEndpoint> servers, ReplicaEndpoint primary) {
    if (turns.roundDone(servers, primary)) {
      stateVersion.bump(); // a plan remembered at the old home must be made again
    }
    lastRoundEndNanos = nowNanos;
    pollRounds = pollRounds + 1;
  }
}
