package dev.ryow.jdbc.route;

import dev.ryow.jdbc.gtid.GtidSet;
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
 * @param confirmedNanos when it was last found writable ({@link System#nanoTime()}: a poll, a discovery)
 */
public record PrimaryState(
    ReplicaEndpoint endpoint, long epoch, Cluster.PrimaryPosition position, @Nullable PollSnapshot poll,
    long confirmedNanos) {

  /** A new cluster's: the URL's first host, not polled yet. */
  static PrimaryState first(ReplicaEndpoint endpoint, long nowNanos) {
    return new PrimaryState(endpoint, 0, new Cluster.PrimaryPosition(GtidSet.EMPTY, nowNanos - 1, 0), null, nowNanos);
  }

  /**
   * The cluster moved to {@code next}: the next epoch, and a position that is empty and after every
   * watermark's stamp ({@code pollTicket}), so each is checked against the new primary.
   */
  PrimaryState movedTo(ReplicaEndpoint next, long pollTicket, long nowNanos) {
    return new PrimaryState(next, epoch + 1, new Cluster.PrimaryPosition(GtidSet.EMPTY, nowNanos - 1, pollTicket), null,
        nowNanos);
  }

  /** A poll of this primary, sent at {@code poll.startedNanos()} with {@code pollTicket}, found it writable. */
  PrimaryState polled(PollSnapshot poll, long pollTicket) {
    return new PrimaryState(endpoint, epoch,
        new Cluster.PrimaryPosition(poll.position().executed(), poll.startedNanos(), pollTicket), poll,
        poll.startedNanos());
  }

  /** A discovery found this primary writable at {@code nowNanos}. */
  PrimaryState confirmed(long nowNanos) {
    return new PrimaryState(endpoint, epoch, position, poll, nowNanos);
  }
}
