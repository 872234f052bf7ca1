package dev.ryow.jdbc.cluster;

import org.jspecify.annotations.Nullable;

/**
 * The poller's rounds as the reads see them: how many finished, when the last one did, whose turn it is to
 * be the home of the JVM's monotonic reads ({@link HomeTurns}, moved at the end of each round), and which
 * poll bounds a read.
 */
public final class PollRounds {
  private final StateVersion stateVersion;
  /** Whose turn it is to be the home of the JVM's monotonic reads; moved by the poller. */
  private final HomeTurns turns;
  /** Poll rounds finished: whose turn it is to be the JVM's home for monotonic reads (monotonic reads, in {@code route}). */
  private volatile int pollRounds;
  /** When the last poll round finished ({@link System#nanoTime()}); meaningless while {@link #pollRounds} is 0. */
  private volatile long lastRoundEndNanos;

  private final Members members;
  private final PrimaryTracker tracker;

  PollRounds(Members members, PrimaryTracker tracker, StateVersion stateVersion) {
    this.members = members;
    this.tracker = tracker;
    this.turns = new HomeTurns(members.servers().size());
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

  /** The poller finished a round at {@code nowNanos}. */
  @SuppressWarnings("NonAtomicVolatileUpdate") // one writer, the poller's thread: readers only need to see it
  public void roundDone(long nowNanos) {
    if (turns.roundDone(members.servers(), tracker.primary().endpoint())) {
      stateVersion.bump(); // a plan remembered at the old home must be made again
    }
    lastRoundEndNanos = nowNanos;
    pollRounds = pollRounds + 1;
  }

  /**
   * A poll that bounds a read of the server {@code uuid} completed at {@code completedNanos}: that
   * server's own poll sent after the read; or, when the server is unknown here, unreachable, or was
   * found reset by a poll sent after the read, a poll of the primary sent after the read (a replica
   * only shows transactions the primary has in its binary log, which the primary owns or has executed).
   * Null when no poll bounds it yet.
   */
  public @Nullable PollSnapshot pollBounding(String uuid, long completedNanos) {
    ReplicaEndpoint e = ReadWatermark.ANY_SERVER.equals(uuid) ? null : members.serverByUuid(uuid);
    if (e != null) {
      PollSnapshot own = e.lastPoll();
      if (own != null && own.bounds(uuid, completedNanos)) {
        return own;
      }
      boolean reset = own != null && own.everReset() && own.resetStartedNanos() - completedNanos > 0;
      if (!reset && e.health() != Health.UNREACHABLE) {
        return null;
      }
    }
    PollSnapshot p = tracker.primaryPoll();
    return p != null && p.startedNanos() - completedNanos > 0 ? p : null;
  }
}
