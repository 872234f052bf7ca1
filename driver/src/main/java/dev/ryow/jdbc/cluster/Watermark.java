package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The GTIDs a consistency scope has written or been told about; reads in the scope must see them.
 * Only grows (GTID-set union), except when GTIDs lost with a failed primary are forgotten. Safe to update
 * from the connection's thread and read from others.
 */
public final class Watermark {
  private final AtomicReference<Position> gtids = new AtomicReference<>(Positions.EMPTY);

  /** The current set. */
  public Position current() {
    return Objects.requireNonNull(gtids.get());  // never set to null
  }

  /** Adds {@code more}; allocation-free when it is already contained. */
  // Union returns the same set when it adds nothing: identity is "unchanged", and compareAndSet compares identities.
  @SuppressWarnings("ReferenceEquality")
  public void advance(Position more) {
    Position prev;
    Position next;
    do {
      prev = current();
      next = prev.union(more);
      if (next == prev) {
        return;
      }
    } while (!gtids.compareAndSet(prev, next));
  }

  /**
   * Adds {@code more}, which contains {@code base}: one compare-and-set while the set is still
   * {@code base} (a writer's consecutive writes: {@link JvmLedger#wroteNext}), else {@link #advance}.
   */
  public void advanceFrom(Position base, Position more) {
    if (!gtids.compareAndSet(base, more)) {
      advance(more);
    }
  }

  /**
   * Replaces {@code expected} by {@code smaller} (GTIDs the primary turned out not to have are
   * forgotten, see {@code docs/architecture/health-and-failover.md}). Returns false when the set changed meanwhile.
   */
  public boolean forget(Position expected, Position smaller) {
    return gtids.compareAndSet(expected, smaller);
  }

  /** Empties the set: what it stood for no longer holds (a different server became the primary). */
  public void clear() {
    gtids.set(Positions.EMPTY);
  }

  @Override
  public String toString() {
    return current().toString();
  }
}
