package dev.ryow.jdbc.sql;

import static dev.ryow.jdbc.sql.SqlLexer.ERROR;
import static dev.ryow.jdbc.sql.SqlLexer.HINT_PRIMARY;
import static dev.ryow.jdbc.sql.SqlLexer.HINT_REPLICA;
import static dev.ryow.jdbc.sql.SqlLexer.at;
import static dev.ryow.jdbc.sql.SqlLexer.pos;
import static dev.ryow.jdbc.sql.SqlLexer.skipTrivia;
import static dev.ryow.jdbc.sql.SqlLexer.tokenEnd;
import static dev.ryow.jdbc.sql.StatementScan.FINDINGS;
import static dev.ryow.jdbc.sql.StatementScan.F_DML;
import static dev.ryow.jdbc.sql.StatementScan.F_GLOBAL_SCOPE;
import static dev.ryow.jdbc.sql.StatementScan.F_INTO;
import static dev.ryow.jdbc.sql.StatementScan.F_LOCKING;
import static dev.ryow.jdbc.sql.StatementScan.F_PIN_FN;
import static dev.ryow.jdbc.sql.StatementScan.F_PRIMARY_FN;
import static dev.ryow.jdbc.sql.StatementScan.F_SELECT;
import static dev.ryow.jdbc.sql.StatementScan.F_SERVER_STATE;
import static dev.ryow.jdbc.sql.StatementScan.F_SESSION_VAR;
import static dev.ryow.jdbc.sql.StatementScan.F_TX_VAR;
import static dev.ryow.jdbc.sql.StatementScan.F_UNBALANCED;
import static dev.ryow.jdbc.sql.StatementScan.F_UNKNOWN_CALL;
import static dev.ryow.jdbc.sql.StatementScan.F_USER_VAR;
import static dev.ryow.jdbc.sql.StatementScan.F_WRITE_FN;

/**
 * Decides the routing intent of a SQL string from its text alone.
 *
 * <p>The classifier is a single forward pass of a hand-written MySQL lexer ({@link SqlLexer}) over
 * the string: no regular expressions, no allocation (the whole state lives in a packed
 * {@code long} and a few locals), and time linear in the length of the input, whatever it holds.
 * It never throws for a non-null string.
 *
 * <p>What counts, in order:
 *
 * <ol>
 *   <li>Lexing: comments, strings and quoted identifiers never contribute keywords; the content of
 *       version comments ({@code /*!50100 … *}{@code /}) is code; an unterminated string, quoted
 *       identifier or comment, or unbalanced parentheses, give {@link StatementKind#WRITE}.
 *   <li>Multi-statements: a {@code ;} followed by anything but whitespace and comments makes the
 *       string a multi-statement, which is {@link StatementKind#SESSION_PIN} if any of its
 *       statements changes session or transaction state and {@link StatementKind#WRITE} otherwise.
 *       Inside {@code CREATE}/{@code ALTER} after a {@code BEGIN} (a stored program body), and after
 *       MariaDB's {@code BEGIN NOT ATOMIC}, {@code ;} does not split.
 *   <li>The statement: decided by its first words (see {@link StatementKind} for the table), then by
 *       what a scan of the whole statement found: locking clauses, {@code INTO}, DML verbs, calls of
 *       session-bound functions (also quoted: {@code `LAST_INSERT_ID`()}), user variables, system
 *       variables (any scope, spaces and comments between {@code @@scope}, {@code .} and the name),
 *       the server's instrumentation schemas.
 *   <li>Route hints in any comment of the string: {@code ryow:primary} turns
 *       {@link StatementKind#READ} into {@link StatementKind#PRIMARY_READ}; {@code ryow:replica}
 *       turns a {@link StatementKind#PRIMARY_READ} that is not a locking read into
 *       {@link StatementKind#READ}. Hints never change any other kind; when both are present,
 *       {@code ryow:primary} wins.
 * </ol>
 *
 * <p>Known limits, all erring towards the primary except where stated: the text is lexed with
 * backslash escapes on (a session with {@code NO_BACKSLASH_ESCAPES} can lex differently); version
 * comments are code whatever their version number; a stored function with side effects called from
 * a {@code SELECT} looks like a read (use a {@code ryow:primary} hint); session state changed inside
 * a stored procedure ({@code CALL}) is not seen.
 */
public final class SqlClassifier {

  /** What makes a {@code SET} value impossible to replay on a replica. */
  private static final long SET_NOT_REPLAYABLE =
      F_SELECT | F_PRIMARY_FN | F_WRITE_FN | F_SESSION_VAR | F_UNKNOWN_CALL | F_INTO | F_DML | F_LOCKING;

  private static final int KIND_SHIFT = 56;
  private static final long KIND_MASK = 0x1FL << KIND_SHIFT;

  private static final StatementKind[] KINDS = StatementKind.values();

  private SqlClassifier() {}

  /**
   * Classifies one SQL string (possibly several statements) as sent through JDBC.
   *
   * <p>Allocates nothing, runs in time linear in {@code sql.length()} and never throws for a
   * non-null argument; anything it cannot prove read-only or session-only is
   * {@link StatementKind#WRITE} (or {@link StatementKind#SESSION_PIN}), never {@link
   * StatementKind#READ}.
   *
   * @param sql the SQL text; JDBC escapes such as {@code {call p(?)}} and {@code ?} placeholders
   *     may be present
   * @return the routing intent of {@code sql}
   * @throws NullPointerException if {@code sql} is null
   */
  public static StatementKind classify(String sql) {
    final int n = sql.length();
    long c = skipTrivia(sql, 0L);
    if ((c & ERROR) != 0 || pos(c) >= n) {
      return StatementKind.WRITE;
    }
    long r = statement(sql, c);
    if ((r & ERROR) != 0) {
      return StatementKind.WRITE;
    }
    StatementKind first = kindOf(r);
    long rest = skipTrivia(sql, r);
    if ((rest & ERROR) != 0) {
      return isSessionChange(first) ? StatementKind.SESSION_PIN : StatementKind.WRITE;
    }
    if (pos(rest) >= n) {
      return applyHints(first, rest);
    }
    boolean session = isSessionChange(first);
    long cur = rest;
    while (pos(cur) < n && (cur & ERROR) == 0) {
      long q = statement(sql, cur);
      if ((q & ERROR) != 0) {
        break;
      }
      session |= isSessionChange(kindOf(q));
      cur = skipTrivia(sql, q);
    }
    return session ? StatementKind.SESSION_PIN : StatementKind.WRITE;
  }

  private static boolean isSessionChange(StatementKind kind) {
    return kind != StatementKind.READ && kind != StatementKind.PRIMARY_READ && kind != StatementKind.WRITE;
  }

  private static StatementKind applyHints(StatementKind kind, long flags) {
    if ((flags & HINT_PRIMARY) != 0) {
      return kind == StatementKind.READ ? StatementKind.PRIMARY_READ : kind;
    }
    if ((flags & HINT_REPLICA) != 0 && kind == StatementKind.PRIMARY_READ && (flags & F_LOCKING) == 0) {
      return StatementKind.READ;
    }
    return kind;
  }

  private static StatementKind kindOf(long r) {
    return KINDS[(int) ((r & KIND_MASK) >>> KIND_SHIFT)];
  }

  // The ordinal is packed into the scan word and read back through KINDS = values() (in memory, never stored).
  @SuppressWarnings("EnumOrdinal")
  private static long withKind(long r, StatementKind kind) {
    return (r & ~KIND_MASK) | ((long) kind.ordinal() << KIND_SHIFT);
  }

  /**
   * Classifies the statement whose first token starts at the cursor; returns the cursor after its
   * terminating {@code ;} (or at the end) with the kind and the statement's findings set.
   */
  private static long statement(String s, long start) {
    final long st = start & ~(FINDINGS | KIND_MASK);
    // The first word, if the statement starts with one: its end, and its code.
    final int p1 = pos(st);
    final int e1 = SqlLexer.isWordChar(s.charAt(p1)) ? SqlLexer.wordEnd(s, p1 + 1) : -1;
    final int k1 = e1 < 0 ? Keywords.NONE : Keywords.lookup(s, p1, e1);
    // The second word, for the verbs it qualifies (not for SELECT, INSERT, UPDATE, DELETE, …).
    final boolean second = usesSecondWord(k1);
    final long h2 = second ? next(s, st) : st;
    final int k2 = second ? code(s, h2) : Keywords.NONE;
    long f;
    StatementKind kind;
    switch (k1) {
      case Keywords.SELECT:
      case Keywords.WITH:
      case Keywords.TABLE:
      case Keywords.VALUES:
      case Keywords.HELP:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = queryKind(f);
        break;
      case Keywords.SHOW:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = queryKind(f);
        if (kind == StatementKind.READ && !showsSchema(s, h2, k2)) {
          // The session's or the server's own state (status, variables, warnings, processes,
          // replication, binary logs, engines...): answered by the primary, as without the driver.
          kind = StatementKind.PRIMARY_READ;
        }
        break;
      case Keywords.DESCRIBE:
      case Keywords.DESC:
      case Keywords.EXPLAIN:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = explain(s, h2, f, false);
        break;
      case Keywords.ANALYZE:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = (k2 == Keywords.TABLE || k2 == Keywords.NO_WRITE_TO_BINLOG || k2 == Keywords.LOCAL)
            ? StatementKind.WRITE
            : explain(s, h2, f, true);
        break;
      case Keywords.SET:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = set(s, h2, k2, f);
        break;
      case Keywords.USE:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = isName(s, h2) && isEnd(s, next(s, h2)) ? StatementKind.USE : StatementKind.WRITE;
        break;
      case Keywords.BEGIN:
        if (isEnd(s, h2) || (k2 == Keywords.WORK && isEnd(s, next(s, h2)))) {
          f = StatementScan.scan(s, st, false, e1, k1);
          kind = StatementKind.BEGIN;
        } else {
          // MariaDB's BEGIN NOT ATOMIC … END: a compound statement, ';' does not split.
          f = StatementScan.scan(s, st, true, e1, k1);
          kind = StatementKind.WRITE;
        }
        break;
      case Keywords.START:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = k2 == Keywords.TRANSACTION ? startTransaction(s, next(s, h2)) : StatementKind.WRITE;
        break;
      case Keywords.COMMIT:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = completion(s, h2, StatementKind.COMMIT);
        break;
      case Keywords.ROLLBACK:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = rollback(s, h2, k2);
        break;
      case Keywords.SAVEPOINT:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = StatementKind.SAVEPOINT_CONTROL;
        break;
      case Keywords.RELEASE:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = k2 == Keywords.SAVEPOINT ? StatementKind.SAVEPOINT_CONTROL : StatementKind.WRITE;
        break;
      case Keywords.CREATE:
        if (k2 == Keywords.TEMPORARY
            || (k2 == Keywords.OR && code(s, next(s, h2)) == Keywords.REPLACE
                && code(s, next(s, next(s, h2))) == Keywords.TEMPORARY)) {
          f = StatementScan.scan(s, st, false, e1, k1);
          kind = StatementKind.SESSION_PIN;
        } else {
          f = StatementScan.scan(s, st, true, e1, k1);
          kind = pinOr(f, StatementKind.WRITE);
        }
        break;
      case Keywords.ALTER:
        f = StatementScan.scan(s, st, true, e1, k1);
        kind = pinOr(f, StatementKind.WRITE);
        break;
      case Keywords.DROP:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = k2 == Keywords.PREPARE ? StatementKind.SESSION_PIN : pinOr(f, StatementKind.WRITE);
        break;
      case Keywords.PREPARE:
      case Keywords.EXECUTE:
      case Keywords.DEALLOCATE:
      case Keywords.LOCK:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = StatementKind.SESSION_PIN;
        break;
      case Keywords.XA:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = xa(k2);
        break;
      case Keywords.NONE:
        f = StatementScan.scan(s, st, false, e1, k1);
        kind = s.charAt(pos(st)) == '(' ? parenthesised(s, st, f) : pinOr(f, StatementKind.WRITE);
        break;
      default:
        // INSERT, UPDATE, DELETE, REPLACE, CALL, DO, HANDLER, LOAD, XA, UNLOCK, GRANT, … and words
        // the classifier does not know: writes, unless they pin the session.
        f = StatementScan.scanWrite(s, st, e1, k1);
        kind = pinOr(f, StatementKind.WRITE);
        break;
    }
    if ((f & F_UNBALANCED) != 0) {
      kind = StatementKind.WRITE;
    }
    return withKind(f, kind);
  }

  /** Whether the statement's kind depends on its second word when the first has code {@code k1}. */
  private static boolean usesSecondWord(int k1) {
    switch (k1) {
      case Keywords.SHOW:
      case Keywords.DESCRIBE:
      case Keywords.DESC:
      case Keywords.EXPLAIN:
      case Keywords.ANALYZE:
      case Keywords.SET:
      case Keywords.USE:
      case Keywords.BEGIN:
      case Keywords.START:
      case Keywords.COMMIT:
      case Keywords.ROLLBACK:
      case Keywords.RELEASE:
      case Keywords.CREATE:
      case Keywords.DROP:
      case Keywords.XA:
        return true;
      default:
        return false;
    }
  }

  /** The kind of a query (SELECT, WITH, TABLE, VALUES, SHOW, …) from what its scan found. */
  private static StatementKind queryKind(long f) {
    if ((f & F_PIN_FN) != 0) {
      return StatementKind.SESSION_PIN;
    }
    if ((f & (F_DML | F_INTO | F_WRITE_FN)) != 0) {
      return StatementKind.WRITE;
    }
    if ((f & (F_LOCKING | F_PRIMARY_FN | F_USER_VAR | F_SESSION_VAR | F_SERVER_STATE)) != 0) {
      return StatementKind.PRIMARY_READ;
    }
    return StatementKind.READ;
  }

  /**
   * Whether a {@code SHOW} (second token at {@code h2}) describes schema objects or accounts, which
   * replication copies: {@code [FULL|EXTENDED [FULL]] TABLES, COLUMNS, FIELDS, INDEX(ES), KEYS},
   * {@code DATABASES}, {@code SCHEMAS}, {@code TRIGGERS}, {@code GRANTS}, {@code TABLE STATUS},
   * {@code FUNCTION|PROCEDURE STATUS|CODE}, {@code CREATE TABLE|VIEW|PROCEDURE|FUNCTION|TRIGGER|
   * DATABASE|SCHEMA|USER}. Everything else is the session's or the server's own state.
   */
  private static boolean showsSchema(String s, long h2, int k2) {
    long h = h2;
    int k = k2;
    if (k == Keywords.EXTENDED) {
      h = next(s, h);
      k = code(s, h);
    }
    if (k == Keywords.FULL) {
      h = next(s, h);
      k = code(s, h);
    }
    switch (k) {
      case Keywords.TABLES:
      case Keywords.COLUMNS:
      case Keywords.FIELDS:
      case Keywords.INDEX:
      case Keywords.INDEXES:
      case Keywords.KEYS:
      case Keywords.DATABASES:
      case Keywords.SCHEMAS:
      case Keywords.TRIGGERS:
      case Keywords.GRANTS:
        return true;
      case Keywords.TABLE:
        return code(s, next(s, h)) == Keywords.STATUS;
      case Keywords.FUNCTION:
      case Keywords.PROCEDURE: {
        int what = code(s, next(s, h));
        return what == Keywords.STATUS || what == Keywords.CODE;
      }
      case Keywords.CREATE: {
        int what = code(s, next(s, h));
        return what == Keywords.TABLE || what == Keywords.VIEW || what == Keywords.PROCEDURE
            || what == Keywords.FUNCTION || what == Keywords.TRIGGER || what == Keywords.DATABASE
            || what == Keywords.SCHEMA || what == Keywords.USER;
      }
      default:
        return false;
    }
  }

  private static StatementKind pinOr(long f, StatementKind otherwise) {
    return (f & F_PIN_FN) != 0 ? StatementKind.SESSION_PIN : otherwise;
  }

  /** A statement starting with {@code (}: a query if the first word after the parentheses is one. */
  private static StatementKind parenthesised(String s, long st, long f) {
    long h = st;
    while (isChar(s, h, '(')) {
      h = next(s, h);
    }
    int k = code(s, h);
    if (k == Keywords.SELECT || k == Keywords.WITH || k == Keywords.TABLE || k == Keywords.VALUES) {
      return queryKind(f);
    }
    return pinOr(f, StatementKind.WRITE);
  }

  /**
   * {@code EXPLAIN}/{@code DESCRIBE}/{@code ANALYZE} options, then the explained statement (or a
   * table name). Without {@code ANALYZE} nothing executes: a read stays {@link StatementKind#READ},
   * anything else becomes {@link StatementKind#PRIMARY_READ} (its plan belongs to the primary).
   * {@code ANALYZE} executes the statement: a read becomes {@link StatementKind#PRIMARY_READ} (a
   * diagnosis of the primary), anything else keeps its kind.
   */
  private static StatementKind explain(String s, long afterVerb, long f, boolean analyzeFirst) {
    boolean analyze = analyzeFirst;
    long h = afterVerb;
    while (true) {
      int k = code(s, h);
      if (k == Keywords.FORMAT) {
        h = next(s, h);
        if (isChar(s, h, '=')) {
          h = next(s, h);
        }
        h = next(s, h);
      } else if (k == Keywords.EXTENDED || k == Keywords.PARTITIONS) {
        h = next(s, h);
      } else if (k == Keywords.ANALYZE) {
        analyze = true;
        h = next(s, h);
      } else if (k == Keywords.INTO) {
        h = next(s, next(s, h));
      } else if (k == Keywords.FOR) {
        long h2 = next(s, h);
        int k2 = code(s, h2);
        if (k2 == Keywords.CONNECTION) {
          // EXPLAIN FOR CONNECTION id: connection ids belong to the server the session is on.
          return StatementKind.PRIMARY_READ;
        }
        if (k2 != Keywords.SCHEMA && k2 != Keywords.DATABASE) {
          break;
        }
        h = next(s, next(s, h2));
      } else {
        break;
      }
    }
    StatementKind inner = queryKind(f);
    if (!analyze) {
      return inner == StatementKind.READ ? StatementKind.READ : StatementKind.PRIMARY_READ;
    }
    return inner == StatementKind.READ ? StatementKind.PRIMARY_READ : inner;
  }

  /**
   * {@code XA …} from its second word: {@code XA START}/{@code XA BEGIN} opens a transaction that
   * stays on the primary until {@code XA COMMIT} (with or without {@code ONE PHASE}) or
   * {@code XA ROLLBACK} ends it; {@code XA END} and {@code XA PREPARE} run inside it;
   * {@code XA RECOVER} lists the primary's prepared transactions.
   */
  private static StatementKind xa(int k2) {
    switch (k2) {
      case Keywords.START:
      case Keywords.BEGIN:
        return StatementKind.BEGIN;
      case Keywords.COMMIT:
        return StatementKind.COMMIT;
      case Keywords.ROLLBACK:
        return StatementKind.ROLLBACK;
      case Keywords.RECOVER:
        return StatementKind.PRIMARY_READ;
      default:
        return StatementKind.WRITE;
    }
  }

  /** {@code SET …}; {@code h2}/{@code k2} are the second token and its code. */
  private static StatementKind set(String s, long h2, int k2, long f) {
    if (k2 == Keywords.TRANSACTION) {
      return StatementKind.SET_TRANSACTION;
    }
    if ((k2 == Keywords.SESSION || k2 == Keywords.LOCAL) && code(s, next(s, h2)) == Keywords.TRANSACTION) {
      return StatementKind.SET_SESSION;
    }
    switch (k2) {
      case Keywords.GLOBAL:
      case Keywords.PERSIST:
      case Keywords.PERSIST_ONLY:
      case Keywords.PASSWORD:
      case Keywords.DEFAULT: // SET DEFAULT ROLE: stored in the grant tables
      case Keywords.RESOURCE: // SET RESOURCE GROUP: groups are per server, not replicated
      case Keywords.STATEMENT: // MariaDB SET STATEMENT … FOR <statement>: runs the statement
        return StatementKind.WRITE;
      default:
        break;
    }
    if ((f & F_GLOBAL_SCOPE) != 0) {
      return StatementKind.WRITE;
    }
    if ((f & F_TX_VAR) != 0) {
      // autocommit opens or commits transactions the connection does not see; completion_type makes
      // a plain COMMIT chain or release. Neither can be replayed on a replica: stay on the primary.
      return StatementKind.SESSION_PIN;
    }
    if ((f & F_PIN_FN) != 0) {
      return StatementKind.SESSION_PIN;
    }
    if ((f & SET_NOT_REPLAYABLE) != 0) {
      return StatementKind.SESSION_PIN;
    }
    return StatementKind.SET_SESSION;
  }

  /** {@code START TRANSACTION} characteristics, from the token after {@code TRANSACTION}. */
  private static StatementKind startTransaction(String s, long from) {
    boolean readOnly = false;
    boolean readWrite = false;
    long h = from;
    while (!isEnd(s, h)) {
      int k = code(s, h);
      if (k == Keywords.READ) {
        h = next(s, h);
        int k2 = code(s, h);
        if (k2 == Keywords.ONLY) {
          readOnly = true;
        } else if (k2 == Keywords.WRITE) {
          readWrite = true;
        } else {
          return StatementKind.WRITE;
        }
        h = next(s, h);
      } else if (k == Keywords.WITH) {
        h = next(s, h);
        if (code(s, h) != Keywords.CONSISTENT) {
          return StatementKind.WRITE;
        }
        h = next(s, h);
        if (code(s, h) != Keywords.SNAPSHOT) {
          return StatementKind.WRITE;
        }
        h = next(s, h);
      } else if (isChar(s, h, ',')) {
        h = next(s, h);
      } else {
        return StatementKind.WRITE;
      }
    }
    if (readOnly && readWrite) {
      return StatementKind.WRITE;
    }
    return readOnly ? StatementKind.BEGIN_READ_ONLY : StatementKind.BEGIN;
  }

  /** {@code ROLLBACK …}; {@code h2}/{@code k2} are the second token and its code. */
  private static StatementKind rollback(String s, long h2, int k2) {
    long h = h2;
    if (k2 == Keywords.WORK) {
      h = next(s, h);
    }
    if (code(s, h) == Keywords.TO) {
      return StatementKind.SAVEPOINT_CONTROL;
    }
    return completion(s, h, StatementKind.ROLLBACK);
  }

  /**
   * The rest of a {@code COMMIT}/{@code ROLLBACK}: {@code [WORK] [AND [NO] CHAIN] [[NO] RELEASE]}.
   * {@code AND CHAIN} ends the transaction and opens the next one at once, which for routing is a
   * {@link StatementKind#BEGIN} (it still runs on the primary, so the commit's GTID is captured).
   * Anything else after the verb makes it {@link StatementKind#WRITE}.
   */
  private static StatementKind completion(String s, long from, StatementKind plain) {
    long h = from;
    boolean chain = false;
    int prev = Keywords.NONE;
    while (true) {
      int k = code(s, h);
      if (k == Keywords.CHAIN && prev == Keywords.AND) {
        chain = true;
      } else if (k != Keywords.WORK && k != Keywords.AND && k != Keywords.NO && k != Keywords.CHAIN && k != Keywords.RELEASE) {
        break;
      }
      prev = k;
      h = next(s, h);
    }
    if (!isEnd(s, h)) {
      return StatementKind.WRITE;
    }
    return chain ? StatementKind.BEGIN : plain;
  }

  // ---- head parsing: a cursor at a token start (or at the end) ----

  /** The cursor at the token after the one at {@code h}; at the end when there is none. */
  private static long next(String s, long h) {
    int p = pos(h);
    if (p >= s.length()) {
      return h;
    }
    int e = tokenEnd(s, p);
    if (e < 0) {
      return at(h, s.length());
    }
    return skipTrivia(s, at(h, e));
  }

  /** The keyword code of the token at {@code h}, or {@link Keywords#NONE}. */
  private static int code(String s, long h) {
    int p = pos(h);
    if (p >= s.length() || !SqlLexer.isWordChar(s.charAt(p))) {
      return Keywords.NONE;
    }
    return Keywords.lookup(s, p, tokenEnd(s, p));
  }

  private static boolean isChar(String s, long h, char ch) {
    int p = pos(h);
    return p < s.length() && s.charAt(p) == ch;
  }

  /** Whether the statement ends at {@code h}: the end of the string or a {@code ;}. */
  private static boolean isEnd(String s, long h) {
    int p = pos(h);
    return p >= s.length() || s.charAt(p) == ';';
  }

  /** Whether the token at {@code h} is a plain word or a backtick-quoted identifier. */
  private static boolean isName(String s, long h) {
    int p = pos(h);
    if (p >= s.length()) {
      return false;
    }
    char ch = s.charAt(p);
    return SqlLexer.isWordChar(ch) || ch == '`';
  }
}
