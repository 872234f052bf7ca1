package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;

/**
 * GTIDs of sources that positions read on demand showed and no poll of the primary has named or ruled out
 * yet ({@link ClusterGtids}), with the start of the latest of those reads: only a poll of the primary sent
 * after it may decide them. Immutable; the cluster swaps it by compare-and-set.
 *
 * @param sources one interval per undecided source
 * @param latestReadNanos when the latest of the reads that showed them began ({@link System#nanoTime()})
 */
record UndecidedSources(Position sources, long latestReadNanos) {
  static final UndecidedSources NONE = new UndecidedSources(Positions.EMPTY, Long.MIN_VALUE);

  /** Both notes in one: their sources, and the later of their reads. */
  UndecidedSources and(UndecidedSources other) {
    if (sources.isEmpty()) {
      return other;
    }
    long latest = other.latestReadNanos - latestReadNanos > 0 ? other.latestReadNanos : latestReadNanos;
    return new UndecidedSources(sources.union(other.sources).spanned(), latest);
  }
}
