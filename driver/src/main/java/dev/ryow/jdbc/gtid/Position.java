package dev.ryow.jdbc.gtid;

/**
 * A replication position: what a server has executed (or a session has written), as an immutable value
 * that can be joined with another and compared with one. Each server flavour has its own kind
 * ({@link PositionKind}) with its own meaning of "covers": a MySQL {@link GtidSet} is a set of transactions
 * and covers another set by containment; a {@link MariaDbGtidPosition} is a high-water mark per domain and
 * covers another by sequence number per domain. Watermarks, tokens, monotonic-read bounds and "a replica
 * known to have it" ({@code cluster}, {@code session}, {@code route}) hold this type and use only these
 * operations, so they keep each kind's semantics without knowing it.
 *
 * <p>Values of different kinds never mix, with one exception: an empty position of any kind stands for no
 * transaction at all, so it is the neutral element of every kind ({@link #union} returns the other side,
 * {@link #contains} of it is true). That lets {@link Positions#EMPTY} start every watermark before the
 * cluster's flavour is known. A {@link #union} of two non-empty positions of different kinds throws, and
 * {@link #contains} answers false for them ({@link Positions} holds those rules).
 *
 * <p>Each kind keeps its own typed overloads ({@code GtidSet.union(GtidSet)}); the methods here take any
 * position and cost one type check before the typed one: no allocation, no reflection.
 */
public interface Position {

  /** Which kind of position this is; also names it in tokens. */
  PositionKind kind();

  /**
   * The smallest position that covers both this one and {@code other}.
   *
   * @return {@code this} (no allocation) when it already covers {@code other}
   * @throws IllegalArgumentException when both are non-empty and of different kinds
   */
  Position union(Position other);

  /**
   * Whether every transaction {@code other} stands for is covered by this position: a server at this
   * position has executed everything a server at {@code other} has. False for a non-empty {@code other}
   * of another kind.
   */
  boolean contains(Position other);

  /** Whether this position stands for no transaction at all (every position contains it). */
  boolean isEmpty();

  /**
   * This position with its gaps below what {@code executed} (a position of the primary) has filled in, so
   * that it stays small (see {@link GtidSet#filledFrom}). Kinds without gaps (a high-water mark) return
   * {@code this}.
   */
  default Position filledFrom(Position executed) {
    return this;
  }

  /**
   * The smallest position with one interval per source that covers this one (see {@link GtidSet#spanned});
   * {@code this} for kinds that have one value per source anyway.
   */
  default Position spanned() {
    return this;
  }

  /** Its size in a token: intervals of a GTID set, GTIDs (domains) of a MariaDB position. */
  int intervalCount();

  /** Its sources: (UUID, tag)s of a GTID set, domains of a MariaDB position. */
  int sourceCount();

  /**
   * Whether every source of {@code other} (a UUID of a GTID set, a domain of a MariaDB position) is named by
   * this position or by {@code also}; how far it got in it does not matter. Does not allocate.
   */
  boolean namesSourcesOf(Position other, Position also);

  /**
   * The part of this position whose sources {@code a} or {@code b} name, or, with {@code keepNamed} false,
   * the part whose sources neither names.
   *
   * @return {@code this} (no allocation) when every source is kept
   */
  Position bySourcesOf(Position a, Position b, boolean keepNamed);

  /** Canonical text: {@link PositionKind#parse} of this text gives an equal position. */
  @Override
  String toString();
}
