package dev.ryow.jdbc.gtid;

/**
 * The kinds of {@link Position}, each with the one-letter tag that names it in tokens and the strict
 * parser of its canonical text. A tag, once released, never changes meaning.
 */
public enum PositionKind {
  /** A MySQL GTID set ({@code uuid[:tag]:intervals,...}), see {@link GtidSet}. */
  GTID_SET('g', "MySQL GTID set") {
    @Override
    public GtidSet parse(CharSequence text, int maxLength) {
      return GtidSet.parse(text, maxLength, Integer.MAX_VALUE);
    }
  },
  /** A MariaDB GTID position ({@code domain-server-seq,...}, one per domain), see {@link MariaDbGtidPosition}. */
  MARIADB_GTID('d', "MariaDB GTID position") {
    @Override
    public MariaDbGtidPosition parse(CharSequence text, int maxLength) {
      return MariaDbGtidPosition.parse(text, maxLength);
    }
  },
  /**
   * A place in one MySQL primary's binary log ({@code uuid:file:offset}), for servers without GTIDs, see
   * {@link BinlogPosition}.
   */
  BINLOG_POSITION('b', "binary log position") {
    @Override
    public BinlogPosition parse(CharSequence text, int maxLength) {
      return BinlogPosition.parse(text, maxLength);
    }
  };

  private final char tag;
  private final String displayName;

  PositionKind(char tag, String displayName) {
    this.tag = tag;
    this.displayName = displayName;
  }

  /** What it is called in messages ({@code MySQL GTID set}, {@code MariaDB GTID position}). */
  public String displayName() {
    return displayName;
  }

  /** The letter that names this kind in a token. */
  public char tag() {
    return tag;
  }

  /**
   * Parses this kind's canonical text strictly; {@code maxLength} bounds untrusted input and is
   * checked before anything else is read.
   *
   * @throws IllegalArgumentException if the text is not a position of this kind or is too long
   */
  public abstract Position parse(CharSequence text, int maxLength);

  /**
   * The kind a token's tag names.
   *
   * @throws IllegalArgumentException for a tag no kind has
   */
  public static PositionKind ofTag(char tag) {
    for (PositionKind k : values()) {
      if (k.tag == tag) {
        return k;
      }
    }
    throw new IllegalArgumentException("Unknown position kind '" + MalformedGtidSetException.printable(tag)
        + "' (known: " + knownTags() + ")");
  }

  private static String knownTags() {
    StringBuilder b = new StringBuilder();
    for (PositionKind k : values()) {
      b.append(b.length() == 0 ? "" : ", ").append(k.tag).append(" = ").append(k.name());
    }
    return b.toString();
  }
}
