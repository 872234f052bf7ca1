package dev.ryow.jdbc.gtid;

/**
 * A replication position: what a server has executed (or a session has written), as an immutable value
 * that can be joined with another of its kind and compared with one. Each server flavour has its own
 * kind ({@link PositionKind}) with its own meaning of "covers": a MySQL {@link GtidSet} is a set of
 * transactions and covers another set by containment; other kinds cover by their own rule. Watermarks,
 * tokens, monotonic-read bounds and "a replica known to have it" are built from these two operations only,
 * so they keep each kind's semantics without knowing it.
 *
 * <p>Values of different kinds never mix: {@link #union} and {@link #contains} take the same type
 * ({@code P}), and code that holds positions of unknown kind checks {@link #kind()} first.
 *
 * @param <P> the implementing type itself
 */
public interface Position<P extends Position<P>> {

  /** Which kind of position this is; also names it in tokens. */
  PositionKind kind();

  /**
   * The smallest position of this kind that covers both this one and {@code other}.
   *
   * @return {@code this} (no allocation) when it already covers {@code other}
   */
  P union(P other);

  /**
   * Whether every transaction {@code other} stands for is covered by this position: a server at this
   * position has executed everything a server at {@code other} has.
   */
  boolean contains(P other);

  /** Whether this position stands for no transaction at all (every position contains it). */
  boolean isEmpty();

  /** Canonical text: {@link PositionKind#parse} of this text gives an equal position. */
  @Override
  String toString();
}
