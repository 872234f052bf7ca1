package dev.ryow.jdbc.route;

import dev.ryow.jdbc.gtid.GtidSet;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The GTIDs a consistency scope has written or been told about; reads in the scope must see them.
 * Only grows (GTID-set union), except when GTIDs lost with a failed primary are forgotten. Safe to update from the connection's thread and read from others.
 */
public final class Watermark {
  private final AtomicReference<GtidSet> gtids = new AtomicReference<>(GtidSet.EMPTY);

  /** The current set. */
  public GtidSet current() {
    return Objects.requireNonNull(gtids.get());  // never set to null
  }

  /** Adds {@code more}; allocation-free when it is already contained. */
  public void advance(GtidSet more) {
    GtidSet prev;
    GtidSet next;
    do {
      prev = current();
      next = prev.union(more);
      if (next == prev) {
        return;
      }
    } while (!gtids.compareAndSet(prev, next));
  }

  /**
   * Adds the GTID {@code text} names when it directly follows the set ({@link GtidSet#plusNext}) and
   * returns the new set; null (nothing changed) when it does not: the caller parses it and {@link #advance}s.
   */
  public @Nullable GtidSet advanceByNext(CharSequence text) {
    GtidSet prev;
    GtidSet next;
    do {
      prev = current();
      next = prev.plusNext(text);
      if (next == null) {
        return null;
      }
    } while (!gtids.compareAndSet(prev, next));
    return next;
  }

  /**
   * Replaces {@code expected} by {@code smaller} (GTIDs the primary turned out not to have are
   * forgotten, see {@code ARCHITECTURE.md}). Returns false when the set changed meanwhile.
   */
  public boolean forget(GtidSet expected, GtidSet smaller) {
    return gtids.compareAndSet(expected, smaller);
  }

  /** Empties the set: what it stood for no longer holds (a different server became the primary). */
  public void clear() {
    gtids.set(GtidSet.EMPTY);
  }

  @Override
  public String toString() {
    return current().toString();
  }
}
