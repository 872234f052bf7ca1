package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import org.jspecify.annotations.Nullable;

/**
 * What this JVM wrote to these servers and what its reads saw ({@link ConsistencyMode#JVM}): a history of
 * the cluster's own until the first login to the primary, then the one every cluster of the same primary
 * shares ({@link JvmHistories}); and the recording of each write, filled from what the primary is known to
 * have executed.
 */
public final class JvmLedger {
  private final Watermark primaryExecuted;
  private volatile JvmHistory jvm = JvmHistory.empty(false);
  /** Where the shared histories are found; null: this cluster keeps its own. */
  private final @Nullable JvmHistories histories;

  JvmLedger(Position jvmWrites, @Nullable JvmHistories histories, Watermark primaryExecuted) {
    this.histories = histories;
    this.primaryExecuted = primaryExecuted;
    this.jvm.writes().advance(jvmWrites);
  }

  /** The history now: the cluster's own, or the shared one once it joined it. */
  JvmHistory history() {
    return jvm;
  }

  /**
   * A connection logged in to the primary, whose {@code server_uuid} is {@code primaryUuid}: at the first
   * login the cluster joins the JVM history of that server, shared with every other cluster of it
   * ({@link JvmHistories}); later logins (after a failover) register the history for the new primary.
   */
  public void primaryIdentified(String primaryUuid) {
    JvmHistories h = histories;
    if (h == null) {
      return;
    }
    JvmHistory current = jvm;
    if (current.shared()) {
      h.alias(primaryUuid, current);
      return;
    }
    JvmHistory shared = h.join(primaryUuid, current);
    jvm = shared; // concurrent first logins join the same one
    shared.writes().advance(current.writes().current()); // a write recorded meanwhile is kept
  }

  /** What every read of this JVM through this cluster saw. */
  public ReadWatermark reads() {
    return jvm.reads();
  }

  /**
   * Records a write that a connection of this cluster made on the primary, and returns what the
   * writer's watermarks should add: {@code gtids} with the gaps below them filled from what the
   * primary is known to have executed (see {@link GtidSet#filledFrom}). Waiting for those costs
   * nothing more (a replica applies in the primary's commit order) and keeps watermarks and tokens a
   * few intervals long, where one's own GTIDs alone would add an interval per write.
   */
  public Position wrote(Position gtids) {
    primaryExecuted.advance(gtids);
    Position covering = gtids.filledFrom(primaryExecuted.current());
    jvm.writes().advance(covering);
    return covering;
  }

  /**
   * {@link #wrote} for the one GTID a write's OK packet reported as {@code text}, without parsing it into
   * a set of its own, when it directly follows what the primary is known to have executed (one interval
   * of one source: the primary's consecutive writes). Then the known set plus that GTID is also what the
   * writer's watermarks add (the GTID with the gaps below it filled): it joins the JVM's writes and
   * {@code writer}, each by one compare-and-set while they still hold the known set. Null when it does
   * not follow: nothing was recorded, the caller parses {@code text} and calls {@link #wrote}.
   */
  public @Nullable Position wroteNext(String text, Watermark writer) {
    Position known = primaryExecuted.current();
    // MySQL's OK-packet text only (GtidTracker); any other kind is parsed by the caller.
    Position covering = known instanceof GtidSet g ? g.plusNext(text) : null;
    if (covering != null) {
      primaryExecuted.advanceFrom(known, covering);
      jvm.writes().advanceFrom(known, covering);
      writer.advanceFrom(known, covering);
    }
    return covering;
  }

  /** Every write through this cluster's connections in this JVM. */
  public Position writes() {
    return jvm.writes().current();
  }
}
