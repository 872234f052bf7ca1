package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.server.ServerPosition;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Which GTIDs a replica shows belong to this cluster ({@link ClusterGtids}): the sources polls of the primary
 * found foreign, and the ones positions read on demand showed that no poll of the primary has decided yet.
 */
public final class ForeignGtids {
  private final PrimaryTracker tracker;
  /** GTIDs a replica showed that a later poll of the primary found foreign ({@link ClusterGtids}), one interval per source. */
  private final AtomicReference<Position> foreign = new AtomicReference<>(Positions.EMPTY);
  /**
   * GTIDs of UUIDs a position read on demand showed that no poll of the primary had decided yet: the next poll
   * of the primary sent after the latest of those reads rules them in or out ({@link #decideUndecided}).
   */
  private final AtomicReference<UndecidedSources> undecided = new AtomicReference<>(UndecidedSources.NONE);

  ForeignGtids(PrimaryTracker tracker) {
    this.tracker = tracker;
  }

  /**
   * The part of {@code seen}, a position read at {@code readStartedNanos} ({@code ofPrimary}: on the primary),
   * that may bound later reads: the GTIDs of this cluster's UUIDs ({@link ClusterGtids}); {@code seen} itself
   * when nothing in it is foreign. Null when that is not decided yet (a UUID that no poll of the primary sent
   * after the read has named or ruled out): the reads it would bound stay pending. While the primary is lost
   * nothing can decide it, and the whole position counts.
   */
  @SuppressWarnings("ReferenceEquality") // identity: the rule returns the position itself when it keeps all of it
  public @Nullable ServerPosition ofCluster(ServerPosition seen, long readStartedNanos, boolean ofPrimary) {
    Position known = tracker.knownOnPrimary();
    Position after = null;
    ServerPosition kept = ClusterGtids.ofCluster(seen, known, null, Positions.EMPTY);
    if (kept == seen) {
      return seen;
    }
    if (ofPrimary) {
      after = seen.visibleBound();
    } else {
      PollSnapshot p = tracker.primaryPoll();
      if (p != null && p.startedNanos() - readStartedNanos >= 0) {
        after = p.position().visibleBound();
      }
    }
    kept = ClusterGtids.ofCluster(seen, known, after, Objects.requireNonNull(foreign.get()));
    if (kept != null && after != null) {
      Position dropped = ClusterGtids.dropped(seen, kept);
      if (!dropped.isEmpty()) {
        foreign.accumulateAndGet(dropped, (a, b) -> a.union(b).spanned());
      }
    }
    if (kept == null && tracker.primaryLost()) {
      // No poll of the primary can decide while it is lost: the position counts whole (as before the rule),
      // so that reads the replicas can serve are not held pending until the primary returns.
      return seen;
    }
    if (kept == null) {
      // Undecided: a position read on demand is always newer than the last poll of the primary, so without
      // this note no poll would ever decide it, and each read leaving that replica would run on the primary.
      Position unnamed = seen.executed().union(seen.owned())
          .bySourcesOf(known, Objects.requireNonNull(foreign.get()), false).spanned();
      undecided.accumulateAndGet(new UndecidedSources(unnamed, readStartedNanos), UndecidedSources::and);
    }
    return kept;
  }

  /**
   * A poll of the primary, sent at {@code pollStartedNanos}, that showed {@code primaryAfter} (its executed ∪
   * owned GTIDs) decides the UUIDs positions read before it left undecided ({@link #ofCluster}): those it does
   * not name are foreign. Poller only.
   */
  void decideUndecided(Position primaryAfter, long pollStartedNanos) {
    UndecidedSources u = Objects.requireNonNull(undecided.get());
    if (u.sources().isEmpty() || pollStartedNanos - u.latestReadNanos() < 0) {
      return; // nothing to decide, or a read after this poll was sent: the next poll decides them all
    }
    Position ruledOut = u.sources().bySourcesOf(primaryAfter, tracker.knownOnPrimary(), false).spanned();
    if (!ruledOut.isEmpty()) {
      foreign.accumulateAndGet(ruledOut, (a, b) -> a.union(b).spanned());
    }
    undecided.compareAndSet(u, UndecidedSources.NONE); // lost to a newer note: the next poll decides it
  }

  /** The GTIDs replicas showed that polls of the primary found foreign to this cluster ({@link #ofCluster}). */
  public Position foreignSeen() {
    return Objects.requireNonNull(foreign.get());
  }
}
