package dev.ryow.jdbc.gtid;

/**
 * Thrown when text is not a valid MySQL GTID set or MariaDB GTID position, or exceeds a parsing bound.
 *
 * <p>The message names the problem and the character offset, and quotes at most 64 characters of
 * the input around that offset, with control and non-ASCII characters escaped, so hostile or huge
 * input cannot flood or forge log lines.
 */
public final class MalformedGtidSetException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Most input characters quoted in a message. */
  static final int MAX_QUOTED = 64;

  private static final int QUOTE_BEFORE = 20;

  /** Offset of the offending character in the input. */
  private final int offset;

  private MalformedGtidSetException(String message, int offset) {
    super(message);
    this.offset = offset;
  }

  /**
   * Returns the offset of the offending character in the input (the input's length when the
   * input ended too early).
   *
   * @return a character offset, at least 0
   */
  public int offset() {
    return offset;
  }

  /** Builds the exception for {@code problem} found at {@code offset} of {@code text}. */
  static MalformedGtidSetException at(CharSequence text, int offset, String problem) {
    return at("Malformed GTID set: ", text, offset, problem);
  }

  /** Builds the exception for {@code problem} found at {@code offset} of {@code text}, after {@code prefix}. */
  static MalformedGtidSetException at(String prefix, CharSequence text, int offset, String problem) {
    StringBuilder sb = new StringBuilder(problem.length() + 100);
    sb.append(prefix).append(problem).append(" at offset ").append(offset);
    if (text.length() == 0) {
      sb.append(" (input is empty)");
    } else {
      int from = Math.max(0, Math.min(offset - QUOTE_BEFORE, text.length() - MAX_QUOTED));
      int to = Math.min(text.length(), from + MAX_QUOTED);
      sb.append(" in ");
      if (from > 0) {
        sb.append("...");
      }
      sb.append('"');
      for (int i = from; i < to; i++) {
        appendEscaped(sb, text.charAt(i));
      }
      sb.append('"');
      if (to < text.length()) {
        sb.append("...");
      }
      sb.append(" (").append(text.length()).append(" characters)");
    }
    return new MalformedGtidSetException(sb.toString(), offset);
  }

  /** {@code c} as printable text (see {@link #appendEscaped}). */
  public static String printable(char c) {
    StringBuilder sb = new StringBuilder(6);
    appendEscaped(sb, c);
    return sb.toString();
  }

  /** Appends {@code c} printable: ASCII as is, everything else as a Java escape. */
  static void appendEscaped(StringBuilder sb, char c) {
    switch (c) {
      case '\n' -> sb.append("\\n");
      case '\r' -> sb.append("\\r");
      case '\t' -> sb.append("\\t");
      case '"' -> sb.append("\\\"");
      case '\'' -> sb.append("\\'");
      case '\\' -> sb.append("\\\\");
      default -> {
        if (c >= 0x20 && c < 0x7f) {
          sb.append(c);
        } else {
          sb.append(String.format("\\u%04x", (int) c));
        }
      }
    }
  }
}
