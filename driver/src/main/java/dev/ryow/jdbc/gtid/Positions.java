package dev.ryow.jdbc.gtid;

/**
 * The rules for positions of different kinds ({@link Position}): an empty position of any kind is the
 * neutral element; two non-empty positions of different kinds never join, and neither covers the other.
 * The typed methods of each kind call these only when the other side is not of their kind.
 */
public final class Positions {
  /** The position of no transaction, of any kind: what every watermark starts from. */
  public static final Position EMPTY = GtidSet.EMPTY;

  private Positions() {}

  /** {@code a ∪ b} when {@code b} is not of {@code a}'s kind: the non-empty one, or an error. */
  static Position unionOfKinds(Position a, Position b) {
    if (b.isEmpty()) {
      return a;
    }
    if (a.isEmpty()) {
      return b;
    }
    throw new IllegalArgumentException(
        "A " + a.kind().displayName() + " and a " + b.kind().displayName() + " cannot be joined: " + a + " / " + b);
  }

  /** Whether {@code a} covers {@code b} when {@code b} is not of {@code a}'s kind: only when {@code b} is empty. */
  static boolean containsOfKinds(Position b) {
    return b.isEmpty();
  }

  /** {@link Position#namesSourcesOf} for a {@code b} not of {@code a}'s kind: only an empty one. */
  static boolean namesOfKinds(Position other) {
    return other.isEmpty();
  }
}
