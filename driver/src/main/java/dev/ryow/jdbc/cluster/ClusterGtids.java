package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.server.ServerPosition;
import org.jspecify.annotations.Nullable;

/**
 * "Which part of what a server showed may bound later reads?" Only the GTIDs that belong to this cluster:
 * those of UUIDs that came through its primary. A replica with a channel from a source outside the cluster
 * (a multi-source replica), or with transactions of its own (errant GTIDs), shows GTIDs no other server of
 * the cluster gets; were they to join a read bound, every later read of the scope (of the JVM, by default)
 * would have to see them and could only run on that one replica or, once it is left, on the primary until
 * they are forgotten (issue 28).
 *
 * <p>The rule, per UUID of the position (tags do not matter):
 * <ol>
 *   <li>named by {@code knownOnPrimary} (what the primary is known to have executed, or the cluster's
 *       writes produced): kept. The common case, decided without allocation.
 *   <li>else, when a poll of the primary sent after the position was read is at hand ({@code primaryAfter},
 *       its {@code gtid_executed} ∪ {@code gtid_owned}): kept if that poll names it, dropped if not. A
 *       replica applies only what its channels bring; what came from this primary was executed or owned
 *       there before the replica had it, so a UUID that poll does not name did not come from it.
 *   <li>else, confirmed foreign earlier ({@code foreign}: dropped by rule 2 before): dropped.
 *   <li>else undecided (null): a UUID new to the primary since its last poll (a failover, which also
 *       clears {@code knownOnPrimary}; a new channel into the primary) must not be dropped on a guess, so
 *       the position bounds nothing yet and the reads it was to bound stay pending until a later poll of
 *       the primary decides.
 * </ol>
 * A UUID that turns out to be the cluster's later (a failover to the multi-source replica, a channel
 * added to the primary) is named by {@code knownOnPrimary} from the next poll of the primary on and kept
 * from then on; rule 1 comes before rule 3.
 */
public final class ClusterGtids {
  private ClusterGtids() {}

  /**
   * The part of {@code seen} that may bound later reads, or null when it is not decided yet; {@code seen}
   * itself (no allocation) when all of it belongs to the cluster.
   */
  public static @Nullable ServerPosition ofCluster(ServerPosition seen, Position knownOnPrimary,
      @Nullable Position primaryAfter, Position foreign) {
    Position executed = seen.executed();
    Position owned = seen.owned();
    if (knownOnPrimary.namesSourcesOf(executed, Positions.EMPTY) && knownOnPrimary.namesSourcesOf(owned, Positions.EMPTY)) {
      return seen;
    }
    Position names;
    if (primaryAfter != null) {
      names = primaryAfter;
    } else if (foreign.namesSourcesOf(executed, knownOnPrimary) && foreign.namesSourcesOf(owned, knownOnPrimary)) {
      names = Positions.EMPTY;
    } else {
      return null;
    }
    Position e = executed.bySourcesOf(knownOnPrimary, names, true);
    Position o = owned.bySourcesOf(knownOnPrimary, names, true);
    return new ServerPosition(e, o);
  }

  /** The GTIDs of {@code seen} that {@link #ofCluster} dropped from it ({@code kept}), one interval per source. */
  public static Position dropped(ServerPosition seen, ServerPosition kept) {
    Position all = seen.executed().union(seen.owned());
    return all.bySourcesOf(kept.executed(), kept.owned(), false).spanned();
  }
}
