package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.Positions;
import org.jspecify.annotations.Nullable;

/**
 * Which server is the cluster's primary and what is known of it, at one moment: immutable, held by the
 * {@link Cluster} in one reference and replaced as a whole by one compare-and-set. A reader that needs
 * two of them (the endpoint and its epoch, the endpoint and its position) reads one state and never
 * pairs the endpoint of one move with the epoch or position of another.
 *
 * @param endpoint the server that takes writes
 * @param epoch grows by one with each move to a different server
 * @param position what it had executed at its last poll (empty right after a move)
 * @param poll its last poll, null after a move until it is polled
 * @param confirmedNanos when it was last found writable ({@link System#nanoTime()}: a poll, a discovery,
 *     a connection that logged in to it)
 * @param lostNanos when a discovery round that found no writable server began (never 0 then); 0 while
 *     the primary is not known to be lost: it was found writable since, or no round missed it
 * @param outages how many times the primary was found lost since the cluster began: a physical
 *     connection opened before the latest loss is not trusted with a statement (a server that died and
 *     came back closed it, even if the client has not noticed yet)
 * @param outageNanos when the current outage began: the start of the first round that found no writable
 *     server since the primary was last found writable (never 0 then; later rounds move {@code lostNanos},
 *     not this); 0 while the primary is not lost
 */
public record PrimaryState(
    ReplicaEndpoint endpoint, long epoch, PrimaryPosition position, @Nullable PollSnapshot poll,
    long confirmedNanos, long lostNanos, long outages, long outageNanos) {

  /** A new cluster's: the URL's first host, not polled yet. */
  static PrimaryState first(ReplicaEndpoint endpoint, long nowNanos) {
    return new PrimaryState(endpoint, 0, new PrimaryPosition(Positions.EMPTY, nowNanos - 1, 0), null, nowNanos,
        0, 0, 0);
  }

  /** Whether a discovery round found no writable server and none was found writable since. */
  public boolean lost() {
    return lostNanos != 0;
  }

  /**
   * The cluster moved to {@code next}: the next epoch, and a position that is empty and after every
   * watermark's stamp ({@code pollTicket}), so each is checked against the new primary.
   */
  public PrimaryState movedTo(ReplicaEndpoint next, long pollTicket, long nowNanos) {
    return new PrimaryState(next, epoch + 1, new PrimaryPosition(Positions.EMPTY, nowNanos - 1, pollTicket), null,
        nowNanos, 0, outages, 0);
  }

  /** A poll of this primary, sent at {@code poll.startedNanos()} with {@code pollTicket}, found it writable. */
  PrimaryState polled(PollSnapshot poll, long pollTicket) {
    return new PrimaryState(endpoint, epoch,
        new PrimaryPosition(poll.position().executed(), poll.startedNanos(), pollTicket), poll,
        poll.startedNanos(), 0, outages, 0);
  }

  /** This primary was found writable at {@code nowNanos} (a discovery, a connection that logged in). */
  PrimaryState confirmed(long nowNanos) {
    return new PrimaryState(endpoint, epoch, position, poll, nowNanos, 0, outages, 0);
  }

  /**
   * A discovery round that began at {@code roundStartNanos} found no writable server: the primary is
   * lost, and one more outage is counted when it was not lost already. Null (no change) when the
   * primary was found writable after the round began: the round's verdict is older than that.
   */
  @Nullable PrimaryState lostAt(long roundStartNanos) {
    if (confirmedNanos - roundStartNanos > 0) {
      return null;
    }
    long at = roundStartNanos == 0 ? 1 : roundStartNanos;
    return new PrimaryState(endpoint, epoch, position, poll, confirmedNanos, at, lost() ? outages : outages + 1,
        lost() ? outageNanos : at);
  }
}
