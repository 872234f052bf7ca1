package dev.ryow.jdbc.sql;

import java.util.Arrays;

/**
 * The MySQL lexical rules the classifier needs, as static methods over a {@code String} and a
 * packed {@code long} cursor, so that scanning allocates nothing.
 *
 * <p>A cursor holds the position in its low 32 bits and the lexer flags ({@link #IN_VERSION},
 * {@link #HINT_PRIMARY}, {@link #HINT_REPLICA}, {@link #ERROR}) above them; the classifier keeps its
 * own findings in the bits above those ({@link SqlClassifier}). Every method here looks at each
 * character a bounded number of times.
 *
 * <p>Rules: whitespace is any char up to U+0020; comments are {@code # …}, {@code -- …} (the second
 * dash followed by a whitespace or control char, or the end) and {@code /* … *}{@code /}. The content
 * of {@code /*!NNNNN … *}{@code /} and MariaDB's {@code /*M!NNNNN … *}{@code /} is code, whatever the
 * version number; optimizer hints {@code /*+ … *}{@code /} are comments. Strings in {@code '} and
 * {@code "} know backslash escapes and doubled quotes; identifiers in backticks know doubled
 * backticks. Words are runs of ASCII letters, digits, {@code _}, {@code $} and chars from U+0080 on.
 */
final class SqlLexer {

  /** Inside a version comment {@code /*!…}: the next {@code *}{@code /} closes it. */
  static final long IN_VERSION = 1L << 32;

  /** A comment contained {@code ryow:primary}. */
  static final long HINT_PRIMARY = 1L << 33;

  /** A comment contained {@code ryow:replica}. */
  static final long HINT_REPLICA = 1L << 34;

  /** An unterminated comment, string or quoted identifier: nothing can be proved. */
  static final long ERROR = 1L << 35;

  private static final long POS_MASK = 0xFFFF_FFFFL;

  private SqlLexer() {}

  /** Returns the position held in a cursor. */
  static int pos(long cursor) {
    return (int) (cursor & POS_MASK);
  }

  /** Returns the cursor moved to {@code pos}, flags unchanged. */
  static long at(long cursor, int pos) {
    return (cursor & ~POS_MASK) | (pos & POS_MASK);
  }

  /**
   * Skips whitespace, comments and the markers of version comments, recording route hints; returns
   * the cursor at the start of the next token, or at {@code s.length()} (with {@link #ERROR} when a
   * comment is unterminated).
   */
  static long skipTrivia(String s, long cursor) {
    // Small enough to be inlined: whitespace, and the start of a token, are decided here; anything
    // that may open or close a comment goes to the full loop.
    final int n = s.length();
    int i = pos(cursor);
    while (i < n) {
      char ch = s.charAt(i);
      if (ch <= ' ') {
        i++;
      } else if (ch > '/' || (ch != '#' && ch != '-' && ch != '*' && ch != '/')) {
        return at(cursor, i);
      } else {
        return skipComments(s, at(cursor, i));
      }
    }
    return at((cursor & IN_VERSION) != 0 ? cursor | ERROR : cursor, i);
  }

  /** {@link #skipTrivia} from a char that may start or end a comment. */
  private static long skipComments(String s, long cursor) {
    final int n = s.length();
    long c = cursor;
    int i = pos(c);
    while (i < n) {
      char ch = s.charAt(i);
      if (ch <= ' ') {
        i++;
      } else if (ch == '#') {
        int e = lineEnd(s, i + 1);
        c |= hints(s, i + 1, e);
        i = e;
      } else if (ch == '-' && i + 1 < n && s.charAt(i + 1) == '-' && (i + 2 == n || s.charAt(i + 2) <= ' ')) {
        int e = lineEnd(s, i + 2);
        c |= hints(s, i + 2, e);
        i = e;
      } else if (ch == '*' && (c & IN_VERSION) != 0 && i + 1 < n && s.charAt(i + 1) == '/') {
        c &= ~IN_VERSION;
        i += 2;
      } else if (ch == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
        int body = i + 2;
        int code = versionCodeStart(s, body);
        if (code >= 0) {
          c |= IN_VERSION;
          i = code;
          continue;
        }
        int close = blockEnd(s, body);
        if (close < 0) {
          return at(c | ERROR, n);
        }
        c |= hints(s, body, close);
        i = close + 2;
      } else {
        break;
      }
    }
    if (i >= n && (c & IN_VERSION) != 0) {
      c |= ERROR;
    }
    return at(c, i);
  }

  /**
   * If a block comment whose body starts at {@code body} is a version comment ({@code !} or
   * {@code M!}, then optional digits), returns where its code starts; otherwise {@code -1}.
   */
  private static int versionCodeStart(String s, int body) {
    final int n = s.length();
    int j;
    if (body < n && s.charAt(body) == '!') {
      j = body + 1;
    } else if (body + 1 < n && s.charAt(body) == 'M' && s.charAt(body + 1) == '!') {
      j = body + 2;
    } else {
      return -1;
    }
    while (j < n && s.charAt(j) >= '0' && s.charAt(j) <= '9') {
      j++;
    }
    return j;
  }

  /**
   * Index of the {@code *} of the first {@code *}{@code /} at or after {@code from}, or -1. {@code
   * String.indexOf} is a JIT intrinsic that compares many chars per instruction: a comment's body
   * costs a fraction of a char-by-char loop.
   */
  private static int blockEnd(String s, int from) {
    return s.indexOf("*/", from);
  }

  /** Index of the {@code \n} ending a line comment, or the length (an intrinsic search, as {@link #blockEnd}). */
  private static int lineEnd(String s, int from) {
    int j = s.indexOf('\n', from);
    return j < 0 ? s.length() : j;
  }

  /**
   * For the search of {@code ryow:} in {@link #hints}: how far the 5-char window may move when its
   * last char is the index (Horspool): to put that char under its last place in {@code ryow} (r 4,
   * y 3, o 2, w 1, either case), or past it (5) when the word has no such char. Chars from U+0080
   * on move it by 5.
   */
  private static final byte[] HINT_SHIFT = new byte[128];

  static {
    Arrays.fill(HINT_SHIFT, (byte) 5);
    String word = "ryow";
    for (int k = 0; k < word.length(); k++) {
      byte shift = (byte) (word.length() - k);
      HINT_SHIFT[word.charAt(k)] = shift;
      HINT_SHIFT[Character.toUpperCase(word.charAt(k))] = shift;
    }
  }

  /**
   * The hint flags for the words {@code ryow:primary} and {@code ryow:replica} in a comment body
   * {@code s[from, to)}: {@code ryow:} (any ASCII case, not preceded by a word char) then the word
   * {@code primary} or {@code replica} (not followed by a word char).
   *
   * <p>A Horspool search: it reads the last char of a 5-char window and moves the window by up to 5,
   * so that it reads about one char in five of a comment without hints.
   */
  static long hints(String s, int from, int to) {
    long h = 0;
    int j = from + 4; // the last char of the window s[j - 4, j]
    while (j < to) {
      char ch = s.charAt(j);
      if (ch == ':') {
        int w = j - 4;
        if (asciiEqualsIgnoreCase(s, w, j, "RYOW") && (w == from || !isWordChar(s.charAt(w - 1)))) {
          h |= hintWord(s, j + 1, to);
        }
        j += 5; // ':' only ends the word: no window that holds this ':' elsewhere can match
      } else {
        j += ch < 0x80 ? HINT_SHIFT[ch] : 5;
      }
    }
    return h;
  }

  /** The hint flag of the word starting at {@code from} after {@code ryow:}, up to {@code to}; 0 if none. */
  private static long hintWord(String s, int from, int to) {
    int e = from;
    while (e < to && isWordChar(s.charAt(e))) {
      e++;
    }
    if (asciiEqualsIgnoreCase(s, from, e, "PRIMARY")) {
      return HINT_PRIMARY;
    }
    return asciiEqualsIgnoreCase(s, from, e, "REPLICA") ? HINT_REPLICA : 0;
  }

  /**
   * The end (exclusive) of the token starting at {@code start}, which must be the position of a
   * non-trivia char; {@code -1} when a string, quoted identifier or quoted variable name is
   * unterminated. Tokens: a word, a quoted string or identifier, a variable ({@code @name},
   * {@code @'name'}, {@code @@scope.name}), or any other single char.
   */
  static int tokenEnd(String s, int start) {
    char ch = s.charAt(start);
    return isWordChar(ch) ? wordEnd(s, start + 1) : otherTokenEnd(s, start, ch);
  }

  /** {@link #tokenEnd} of a token that is not a word (kept apart so that the common case inlines). */
  static int otherTokenEnd(String s, int start, char ch) {
    final int n = s.length();
    switch (ch) {
      case '\'':
      case '"':
        return quotedEnd(s, start, ch, true);
      case '`':
        return quotedEnd(s, start, '`', false);
      case '@':
        if (start + 1 >= n) {
          return start + 1;
        }
        char next = s.charAt(start + 1);
        if (next == '@') {
          int j = start + 2;
          while (j < n) {
            char c = s.charAt(j);
            if (isWordChar(c) || c == '.') {
              j++;
            } else if (c == '`') {
              j = quotedEnd(s, j, '`', false);
              if (j < 0) {
                return -1;
              }
            } else {
              break;
            }
          }
          return j;
        }
        if (next == '\'' || next == '"' || next == '`') {
          return quotedEnd(s, start + 1, next, next != '`');
        }
        if (isWordChar(next) || next == '.') {
          int j = start + 2;
          while (j < n && (isWordChar(s.charAt(j)) || s.charAt(j) == '.')) {
            j++;
          }
          return j;
        }
        return start + 1;
      default:
        return start + 1;
    }
  }

  /** The end (exclusive) of the word whose chars run on from {@code from}. */
  static int wordEnd(String s, int from) {
    final int n = s.length();
    int j = from;
    while (j < n && isWordChar(s.charAt(j))) {
      j++;
    }
    return j;
  }

  /** End (exclusive) of a quoted token opened at {@code start}, or -1 if unterminated. */
  private static int quotedEnd(String s, int start, char quote, boolean backslash) {
    final int n = s.length();
    int j = start + 1;
    while (j < n) {
      char c = s.charAt(j);
      if (backslash && c == '\\') {
        j += 2;
      } else if (c == quote) {
        if (j + 1 < n && s.charAt(j + 1) == quote) {
          j += 2;
        } else {
          return j + 1;
        }
      } else {
        j++;
      }
    }
    return -1;
  }

  /** Which ASCII chars can be part of an unquoted word: letters, digits, {@code _} and {@code $}. */
  private static final boolean[] WORD_ASCII = new boolean[128];

  static {
    for (char c = 0; c < 128; c++) {
      WORD_ASCII[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
    }
  }

  /** Whether {@code c} can be part of an unquoted word (ASCII letters, digits, {@code _}, {@code $}, and U+0080 on). */
  static boolean isWordChar(char c) {
    return c >= 0x80 || WORD_ASCII[c];
  }

  /**
   * Whether {@code s[start, end)} equals {@code upper} (ASCII upper case) ignoring ASCII case only:
   * no Unicode case folding, so a dotless {@code ı} never matches {@code I}, as in MySQL's keyword
   * lookup.
   */
  static boolean asciiEqualsIgnoreCase(String s, int start, int end, String upper) {
    int len = upper.length();
    if (end - start != len) {
      return false;
    }
    for (int k = 0; k < len; k++) {
      char c = s.charAt(start + k);
      if (c >= 'a' && c <= 'z') {
        c = (char) (c - ('a' - 'A'));
      }
      if (c != upper.charAt(k)) {
        return false;
      }
    }
    return true;
  }
}
