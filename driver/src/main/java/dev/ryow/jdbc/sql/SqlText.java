package dev.ryow.jdbc.sql;

import org.jspecify.annotations.Nullable;

/**
 * The shape of a statement: its tokens separated by single spaces, comments dropped, and every
 * literal (quoted string, number) replaced by {@code ?}. Statements that differ only in their literals
 * have the same shape, and a shape never contains a literal's value, so it can be logged.
 */
public final class SqlText {
  /** Longest shape produced; longer statements have none. */
  public static final int MAX_SHAPE_LENGTH = 1024;

  private SqlText() {}

  /**
   * The shape of {@code sql}, or null when it is longer than {@link #MAX_SHAPE_LENGTH} or cannot be
   * lexed (an unterminated string, comment or quoted identifier).
   */
  public static @Nullable String shape(String sql) {
    StringBuilder b = new StringBuilder(Math.min(sql.length(), MAX_SHAPE_LENGTH));
    long cursor = 0;
    final int n = sql.length();
    while (true) {
      cursor = SqlLexer.skipTrivia(sql, cursor);
      if ((cursor & SqlLexer.ERROR) != 0) {
        return null;
      }
      int start = SqlLexer.pos(cursor);
      if (start >= n) {
        return b.toString();
      }
      char first = sql.charAt(start);
      boolean number = isDigit(first) || (first == '.' && start + 1 < n && isDigit(sql.charAt(start + 1)));
      int end = number ? numberEnd(sql, start) : SqlLexer.tokenEnd(sql, start);
      if (end < 0) {
        return null;
      }
      boolean literal = number || first == '\'' || first == '"';
      int length = literal ? 1 : end - start;
      if (b.length() + length + 1 > MAX_SHAPE_LENGTH) {
        return null;
      }
      if (b.length() > 0) {
        b.append(' ');
      }
      if (literal) {
        b.append('?');
      } else {
        b.append(sql, start, end);
      }
      cursor = SqlLexer.at(cursor, end);
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** End of a number ({@code 12}, {@code 2.5e-3}, {@code .5}, {@code 0x1F}) starting at {@code start}. */
  private static int numberEnd(String s, int start) {
    final int n = s.length();
    int j = start;
    while (j < n) {
      char c = s.charAt(j);
      if (SqlLexer.isWordChar(c) || c == '.') {
        j++;
      } else if ((c == '+' || c == '-') && (s.charAt(j - 1) == 'e' || s.charAt(j - 1) == 'E')) {
        j++;
      } else {
        break;
      }
    }
    return j;
  }
}
