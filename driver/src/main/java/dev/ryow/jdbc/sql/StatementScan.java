package dev.ryow.jdbc.sql;

import static dev.ryow.jdbc.sql.SqlLexer.ERROR;
import static dev.ryow.jdbc.sql.SqlLexer.at;
import static dev.ryow.jdbc.sql.SqlLexer.pos;
import static dev.ryow.jdbc.sql.SqlLexer.skipTrivia;

/**
 * The scan of one statement for what decides its kind beyond its first words: locking clauses,
 * {@code INTO}, DML verbs, calls of session-bound or writing functions, user and system variables,
 * the server's instrumentation schemas, balanced parentheses, and where the statement ends.
 *
 * <p>The findings are bits of the packed {@code long} cursor ({@link SqlLexer}), above the lexer's
 * flags; {@link SqlClassifier} decides the kind from them.
 */
final class StatementScan {

  // Findings of one statement, in the cursor bits above the lexer's flags.
  static final long F_LOCKING = 1L << 36;
  static final long F_INTO = 1L << 37;
  static final long F_DML = 1L << 38;
  static final long F_PIN_FN = 1L << 39;
  static final long F_WRITE_FN = 1L << 40;
  static final long F_PRIMARY_FN = 1L << 41;
  static final long F_USER_VAR = 1L << 42;
  static final long F_SESSION_VAR = 1L << 43;
  static final long F_SELECT = 1L << 44;
  static final long F_GLOBAL_SCOPE = 1L << 45;
  static final long F_UNBALANCED = 1L << 46;
  static final long F_UNKNOWN_CALL = 1L << 47;
  static final long F_TX_VAR = 1L << 48;
  /**
   * A value of the session or of the server instance rather than of replicated data: a system
   * variable other than the server's identity, {@code VERSION()}, {@code performance_schema}.
   */
  static final long F_SERVER_STATE = 1L << 49;
  static final long FINDINGS = 0x3FFFL << 36;

  /**
   * System variables the server itself changes as the session's statements run (not by a
   * {@code SET} the router records): a {@code SET} that reads them cannot be replayed on a replica.
   */
  private static final String[] SESSION_BOUND_SYSVARS = {
    "IDENTITY", "LAST_INSERT_ID", "INSERT_ID", "WARNING_COUNT", "ERROR_COUNT", "LAST_GTID", "IN_TRANSACTION",
    "PSEUDO_THREAD_ID", "GTID_OWNED", "GTID_NEXT", "TIMESTAMP", "RAND_SEED1", "RAND_SEED2"
  };

  /**
   * The only system variables a read may take to a replica: they identify the server that ran the
   * statement (how an application, or a test, asks where a read ran) and nothing else. Every other
   * system variable is the session's or the server's own state, answered by the primary.
   */
  private static final String[] SERVER_IDENTITY_SYSVARS = {"PORT", "SERVER_UUID", "SERVER_ID", "HOSTNAME"};

  // What the scan waits for, in the bits of one int so that the common token checks it once.
  /** A {@code @@global.x}/{@code @@persist.x}: global scope only if assigned ({@code =} or {@code :=} next). */
  private static final int R_GLOBAL = 1;
  /** After {@code information_schema.}: the table name decides. */
  private static final int R_INFO = 2;
  /** After {@code @@scope}: a {@code .} and the name should follow ({@code @@session . x}). */
  private static final int R_AWAIT_DOT = 4;
  /** After {@code @@scope.} or {@code @@scope .}: the name should follow. */
  private static final int R_AWAIT_NAME = 8;
  private static final int R_SYSVAR = R_AWAIT_DOT | R_AWAIT_NAME;

  // Char classes of the scan's dispatch; every char from U+0080 on is a word char.
  private static final byte C_OTHER = 0; // a one-char token that matters to nothing here: , = ? + < > …
  private static final byte C_WORD = 1;
  private static final byte C_OPEN = 2;
  private static final byte C_CLOSE = 3;
  private static final byte C_DOT = 4;
  private static final byte C_SPACE = 5;
  /** May start a comment, a quoted token or a variable, or end the statement: # - / * ' " ` @ ; */
  private static final byte C_SPECIAL = 6;
  /** The end of the text. */
  private static final byte C_END = 7;
  private static final byte[] CLASSES = new byte[0x80];

  static {
    for (char ch = 0; ch < 0x80; ch++) {
      byte cls;
      if (ch <= ' ') {
        cls = C_SPACE;
      } else if (SqlLexer.isWordChar(ch)) {
        cls = C_WORD;
      } else if (ch == '(') {
        cls = C_OPEN;
      } else if (ch == ')') {
        cls = C_CLOSE;
      } else if (ch == '.') {
        cls = C_DOT;
      } else if ("#-/*'\"`@;".indexOf(ch) >= 0) {
        cls = C_SPECIAL;
      } else {
        cls = C_OTHER;
      }
      CLASSES[ch] = cls;
    }
  }

  private StatementScan() {}

  /**
   * Scans one statement from its first token to its terminating {@code ;} (consumed) or the end,
   * and returns the cursor there with the findings set. With {@code compoundAllowed}, a
   * {@code BEGIN} word turns the rest of the string into the statement's body.
   *
   * <p>One pass, dispatched on a char-class table: whitespace, words, parentheses, dots and other
   * one-char tokens are handled at once; comments, quoted tokens, variables, {@code ;} and the end
   * of the text take the general path, as does every token while a variable or an
   * {@code information_schema} table name is pending. A word is looked up in the small
   * {@link Keywords#scanCode} table, and in the full one only when the next token shows that it is
   * called or qualifies a name.
   *
   * @param firstEnd the end of the statement's first token when it is a word (the caller lexed it), or -1
   * @param firstCode that word's {@link Keywords#lookup} code
   */
  static long scan(String s, long start, boolean compoundAllowed, int firstEnd, int firstCode) {
    return scan(s, start, compoundAllowed, firstEnd, firstCode, true);
  }

  /**
   * {@link #scan(String, long, boolean, int, int)} of a statement that is a write whatever it
   * contains (an {@code INSERT}, {@code UPDATE}, {@code DELETE}, …), without a compound body: only
   * {@link #F_PIN_FN} (which makes it {@link StatementKind#SESSION_PIN}), {@link #F_UNBALANCED}, the
   * lexer's flags and the statement's end are found; the words are not looked up, and a call only
   * when its name has the length of a function of {@link Keywords#FN_PIN}.
   */
  static long scanWrite(String s, long start, int firstEnd, int firstCode) {
    return scan(s, start, false, firstEnd, firstCode, false);
  }

  private static long scan(
      String s, long start, boolean compoundAllowed, int firstEnd, int firstCode, boolean findings) {
    final int n = s.length();
    long c = start; // flags and findings; the position is i
    int i = pos(start);
    int depth = 0;
    boolean compound = false;
    boolean afterDot = false;
    int prev1 = Keywords.NONE;
    int prev2 = Keywords.NONE;
    // The last token was a word (or backtick-quoted name), waiting for the next token to tell
    // whether it is called or qualifies a name ('performance_schema.'): its span [pendingStart,
    // pendingEnd) for a lookup, pendingStart -1 when it has no code (a qualified name's part).
    boolean hasPending = false;
    int pendingStart = -1;
    int pendingEnd = 0;
    // F_DML when the pending word is INSERT or REPLACE: a DML verb unless called (REPLACE()) or qualifying.
    long dml = 0;
    int rare = 0;
    int sysvarScope = Keywords.NONE;
    // End of the last name-like token (word, string, quoted name): '@' right there is user@host.
    int nameEnd = -1;
    if (firstEnd >= 0) {
      // The first word, as the word case below would take it.
      int k = Keywords.matters(firstCode) ? firstCode : Keywords.NONE;
      if (k != Keywords.NONE) {
        c |= word(k, Keywords.NONE, Keywords.NONE);
        compound = k == Keywords.BEGIN && compoundAllowed;
      }
      pendingStart = i;
      pendingEnd = firstEnd;
      hasPending = true;
      dml = k == Keywords.INSERT || k == Keywords.REPLACE ? F_DML : 0;
      prev1 = k;
      nameEnd = firstEnd;
      i = firstEnd;
    }
    while (true) {
      char ch = 0;
      int cls = C_END;
      while (i < n) {
        ch = s.charAt(i);
        cls = ch < 0x80 ? CLASSES[ch] : C_WORD;
        if (cls != C_SPACE) {
          break;
        }
        i++;
      }
      if (cls >= C_SPACE || rare != 0) {
        // The general path.
        c = skipTrivia(s, at(c, i));
        if ((c & ERROR) != 0) {
          return c;
        }
        i = pos(c);
        if (i >= n) {
          c |= dml;
          if ((rare & R_SYSVAR) != 0) {
            c |= F_SESSION_VAR | F_SERVER_STATE; // '@@session' at the end: the server rejects it
          }
          break;
        }
        final int p = i;
        ch = s.charAt(p);
        cls = ch < 0x80 ? CLASSES[ch] : C_WORD;
        final int e = SqlLexer.tokenEnd(s, p);
        if (e < 0) {
          return at(c | ERROR, n);
        }
        if (hasPending) {
          if (ch == '.') {
            int k = qualifierCode(s, pendingStart, pendingEnd);
            c |= qualifier(k);
            rare = k == Keywords.INFORMATION_SCHEMA ? rare | R_INFO : rare & ~R_INFO;
          } else if (ch == '(') {
            c |= called(callCode(s, pendingStart, pendingEnd, findings));
          } else {
            c |= dml;
          }
          hasPending = false;
          dml = 0;
        }
        if ((rare & R_GLOBAL) != 0) {
          if (ch == '=' || ch == ':') {
            c |= F_GLOBAL_SCOPE;
          }
          rare &= ~R_GLOBAL;
        }
        if ((rare & R_SYSVAR) != 0) {
          if ((rare & R_AWAIT_DOT) != 0 && ch == '.') {
            rare = (rare & ~R_SYSVAR) | R_AWAIT_NAME;
            i = e;
            continue;
          }
          rare &= ~R_SYSVAR;
          if (cls == C_WORD || ch == '`') {
            long v = systemVariable(s, sysvarScope, p, e);
            if ((v & F_GLOBAL_SCOPE) != 0) {
              rare |= R_GLOBAL;
            }
            c |= v & ~F_GLOBAL_SCOPE;
            prev1 = Keywords.NONE;
            prev2 = Keywords.NONE;
            afterDot = false;
            nameEnd = e;
            i = e;
            continue;
          }
          c |= F_SESSION_VAR | F_SERVER_STATE; // not a form the server accepts: assume the worst
        }
        if ((rare & R_INFO) != 0 && ch != '.') {
          c |= informationSchemaTable(s, p, e);
          rare &= ~R_INFO;
        }
        if (cls == C_SPECIAL) {
          prev1 = Keywords.NONE;
          prev2 = Keywords.NONE;
          switch (ch) {
            case '`':
              // A quoted name: `LAST_INSERT_ID`() calls the built-in; `performance_schema`.t qualifies.
              pendingStart = afterDot ? -1 : p + 1;
              pendingEnd = e - 1;
              hasPending = true;
              nameEnd = e;
              break;
            case '\'':
            case '"':
              nameEnd = e;
              break;
            case ';':
              if (!compound) {
                if (depth != 0) {
                  c |= F_UNBALANCED;
                }
                return at(c, e);
              }
              break;
            case '@':
              if (nameEnd == p) {
                break; // user@host
              }
              if (e > p + 1 && s.charAt(p + 1) == '@') {
                int scope = scopeOnly(s, p + 2, e);
                if (scope != Keywords.NONE) {
                  // '@@session' or '@@session.' with the name in the next tokens: '@@session . x'.
                  rare |= s.charAt(e - 1) == '.' ? R_AWAIT_NAME : R_AWAIT_DOT;
                  sysvarScope = scope;
                } else {
                  long v = variable(s, p, e);
                  if ((v & F_GLOBAL_SCOPE) != 0) {
                    rare |= R_GLOBAL;
                  }
                  c |= v & ~F_GLOBAL_SCOPE;
                }
              } else {
                // A user variable: @x, @'x', and a lone '@' (the variable with the empty name).
                c |= F_USER_VAR;
              }
              break;
            default:
              break; // '-', '/', '*' as operators
          }
          afterDot = false;
          i = e;
          continue;
        }
        // A word, parenthesis, dot or other one-char token: as on the fast path (its pending word
        // was resolved above).
      }
      switch (cls) {
        case C_WORD: {
          // The word's end, and the char there (0 at the end of the text): a space is skipped at
          // once, without being read again.
          int e = i + 1;
          char after = 0;
          while (e < n) {
            after = s.charAt(e);
            if (!SqlLexer.isWordChar(after)) {
              break;
            }
            e++;
          }
          c |= dml; // the word before, not called
          int k;
          if (afterDot) {
            // A qualified name: never a keyword, but db.f(…) is a call of a stored function.
            k = Keywords.NONE;
            pendingStart = -1;
          } else {
            k = findings ? Keywords.scanCode(s, i, e, ch) : Keywords.NONE;
            if (k != Keywords.NONE) {
              c |= word(k, prev1, prev2);
              if (k == Keywords.BEGIN && compoundAllowed) {
                compound = true;
              }
            }
            pendingStart = i;
            pendingEnd = e;
          }
          hasPending = true;
          dml = k == Keywords.INSERT || k == Keywords.REPLACE ? F_DML : 0;
          prev2 = prev1;
          prev1 = k;
          nameEnd = e;
          afterDot = false;
          i = after == ' ' ? e + 1 : e; // a word char is never ' ': after == ' ' means e < n
          continue;
        }
        case C_OPEN:
          if (hasPending) {
            c |= called(callCode(s, pendingStart, pendingEnd, findings));
            hasPending = false;
          }
          depth++;
          break;
        case C_CLOSE:
          c |= dml;
          hasPending = false;
          if (depth == 0) {
            c |= F_UNBALANCED;
          } else {
            depth--;
          }
          break;
        case C_DOT:
          if (hasPending) {
            int k = qualifierCode(s, pendingStart, pendingEnd);
            c |= qualifier(k);
            if (k == Keywords.INFORMATION_SCHEMA) {
              rare |= R_INFO;
            }
            hasPending = false;
          }
          break;
        default: // C_OTHER
          c |= dml;
          hasPending = false;
          break;
      }
      dml = 0;
      prev1 = Keywords.NONE;
      prev2 = Keywords.NONE;
      afterDot = cls == C_DOT;
      i++;
    }
    if (depth != 0) {
      c |= F_UNBALANCED;
    }
    return at(c, n);
  }

  /** Findings of a word given the two words before it (NONE when not directly before). */
  private static long word(int k, int prev1, int prev2) {
    switch (k) {
      case Keywords.UPDATE:
        return prev1 == Keywords.FOR ? F_LOCKING : F_DML;
      case Keywords.SHARE:
        return prev1 == Keywords.FOR ? F_LOCKING : 0;
      case Keywords.IN:
        return prev1 == Keywords.LOCK ? F_LOCKING : 0;
      case Keywords.FOR:
        if (prev1 == Keywords.VALUE) {
          // MariaDB NEXT VALUE FOR s (writes the sequence), PREVIOUS VALUE FOR s (session-bound).
          if (prev2 == Keywords.NEXT) {
            return F_WRITE_FN;
          }
          if (prev2 == Keywords.PREVIOUS) {
            return F_PRIMARY_FN;
          }
        }
        return 0;
      case Keywords.DELETE:
        return F_DML;
      case Keywords.INTO:
        return F_INTO;
      case Keywords.SELECT:
        return F_SELECT;
      case Keywords.GLOBAL:
      case Keywords.PERSIST:
      case Keywords.PERSIST_ONLY:
        return F_GLOBAL_SCOPE;
      case Keywords.AUTOCOMMIT:
      case Keywords.COMPLETION_TYPE:
        return F_TX_VAR;
      case Keywords.SQL_CALC_FOUND_ROWS:
        // Leaves state for FOUND_ROWS(), which runs on the primary.
        return F_PRIMARY_FN;
      default:
        return 0;
    }
  }

  /**
   * The function code of the name {@code s[start, end)} before a {@code (} ({@code start} -1: no
   * name); without {@code findings}, only a name of the length of a {@link Keywords#FN_PIN} function
   * is looked up (any other is {@link Keywords#NONE}, an unknown call).
   */
  private static int callCode(String s, int start, int end, boolean findings) {
    if (start < 0 || !(findings || Keywords.mayPin(end - start))) {
      return Keywords.NONE;
    }
    return Keywords.functionCode(s, start, end);
  }

  /**
   * The code of the name {@code s[start, end)} before a {@code .} if it may be one of the schemas
   * that matter there ({@code sys}, {@code performance_schema}, {@code information_schema}: only
   * those lengths are looked up), otherwise {@link Keywords#NONE}; {@code start} -1: no name.
   */
  private static int qualifierCode(String s, int start, int end) {
    int length = end - start;
    return start >= 0 && (length == 3 || length == 18) ? Keywords.lookup(s, start, end) : Keywords.NONE;
  }

  /** Findings of a word qualifying a name ({@code word.}): the server's own schemas. */
  private static long qualifier(int k) {
    return k == Keywords.PERFORMANCE_SCHEMA || k == Keywords.SYS ? F_SERVER_STATE : 0;
  }

  /**
   * Findings of the table name {@code s[p, e)} after {@code information_schema.}: the tables that
   * show the server's runtime state (processes, InnoDB internals, status and variables).
   */
  private static long informationSchemaTable(String s, int p, int e) {
    int from = p;
    int to = e;
    if (to - from >= 2 && s.charAt(from) == '`' && s.charAt(to - 1) == '`') {
      from++;
      to--;
    }
    if (SqlLexer.asciiEqualsIgnoreCase(s, from, to, "PROCESSLIST")
        || (to - from > 7 && SqlLexer.asciiEqualsIgnoreCase(s, from, from + 7, "INNODB_"))
        || (to - from > 6 && SqlLexer.asciiEqualsIgnoreCase(s, to - 6, to, "STATUS"))
        || (to - from > 9 && SqlLexer.asciiEqualsIgnoreCase(s, to - 9, to, "VARIABLES"))) {
      return F_SERVER_STATE;
    }
    return 0;
  }

  /** Findings of a call of the word with code {@code k} ({@link Keywords#NONE}: a stored function). */
  private static long called(int k) {
    switch (Keywords.category(k)) {
      case Keywords.FN_PIN:
        return F_PIN_FN;
      case Keywords.FN_WRITE:
        return F_WRITE_FN;
      case Keywords.FN_PRIMARY:
        return F_PRIMARY_FN;
      case Keywords.FN_PURE:
        return 0;
      case Keywords.FN_SERVER:
        return F_SERVER_STATE;
      default:
        return F_UNKNOWN_CALL;
    }
  }

  /**
   * Findings of a system variable token {@code s[p, e)} starting with {@code @@} that holds its
   * whole name ({@code @@x}, {@code @@scope.x}, {@code @@x.component}, backticked parts);
   * {@link #F_GLOBAL_SCOPE} here means a {@code global}/{@code persist}/{@code persist_only} scope,
   * which the caller keeps only when the variable is assigned.
   */
  private static long variable(String s, int p, int e) {
    int nameStart = p + 2;
    if (nameStart >= e) {
      return F_SESSION_VAR | F_SERVER_STATE; // '@@' then something we do not lex: assume the worst
    }
    int dot = indexOf(s, '.', nameStart, e);
    int scope = dot > nameStart ? scopeCode(s, nameStart, dot) : Keywords.NONE;
    return systemVariable(s, scope, scope == Keywords.NONE ? nameStart : dot + 1, e);
  }

  /**
   * Findings of reading system variable {@code s[from, to)} (possibly backticked, possibly with a
   * component: {@code validate_password.length}) in {@code scope} ({@link Keywords#NONE} when none
   * was written). Every system variable but the server's identity is the session's or the server's
   * own state; some also cannot be replayed by a {@code SET}, or control transactions.
   */
  private static long systemVariable(String s, int scope, int from, int to) {
    long f = 0;
    if (scope == Keywords.GLOBAL || scope == Keywords.PERSIST || scope == Keywords.PERSIST_ONLY) {
      f |= F_GLOBAL_SCOPE;
    }
    int nameStart = from;
    int nameEnd = to;
    if (nameEnd - nameStart >= 2 && s.charAt(nameStart) == '`' && s.charAt(nameEnd - 1) == '`') {
      nameStart++;
      nameEnd--;
    }
    if (SqlLexer.asciiEqualsIgnoreCase(s, nameStart, nameEnd, "AUTOCOMMIT")
        || SqlLexer.asciiEqualsIgnoreCase(s, nameStart, nameEnd, "COMPLETION_TYPE")) {
      f |= F_TX_VAR;
    }
    for (String name : SESSION_BOUND_SYSVARS) {
      if (SqlLexer.asciiEqualsIgnoreCase(s, nameStart, nameEnd, name)) {
        f |= F_SESSION_VAR;
        break;
      }
    }
    boolean identity = false;
    if (scope == Keywords.NONE || scope == Keywords.GLOBAL) {
      for (String name : SERVER_IDENTITY_SYSVARS) {
        if (SqlLexer.asciiEqualsIgnoreCase(s, nameStart, nameEnd, name)) {
          identity = true;
          break;
        }
      }
    }
    return identity ? f : f | F_SERVER_STATE;
  }

  /** The scope keyword code of {@code s[from, to)}, or {@link Keywords#NONE} if it is no scope. */
  private static int scopeCode(String s, int from, int to) {
    int k = Keywords.lookup(s, from, to);
    return k == Keywords.GLOBAL || k == Keywords.SESSION || k == Keywords.LOCAL || k == Keywords.PERSIST
        || k == Keywords.PERSIST_ONLY ? k : Keywords.NONE;
  }

  /**
   * For the body {@code s[from, to)} of a {@code @@} token: the scope code if the body is only a
   * scope word, with or without its dot ({@code @@session}, {@code @@session.}), so that the name
   * follows in later tokens; otherwise {@link Keywords#NONE}.
   */
  private static int scopeOnly(String s, int from, int to) {
    int end = to > from && s.charAt(to - 1) == '.' ? to - 1 : to;
    if (end <= from || indexOf(s, '.', from, end) >= 0) {
      return Keywords.NONE;
    }
    return scopeCode(s, from, end);
  }

  private static int indexOf(String s, char ch, int from, int to) {
    for (int i = from; i < to; i++) {
      if (s.charAt(i) == ch) {
        return i;
      }
    }
    return -1;
  }
}
