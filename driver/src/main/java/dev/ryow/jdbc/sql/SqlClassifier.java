package dev.ryow.jdbc.sql;

import static dev.ryow.jdbc.sql.SqlLexer.ERROR;
import static dev.ryow.jdbc.sql.SqlLexer.HINT_PRIMARY;
import static dev.ryow.jdbc.sql.SqlLexer.HINT_REPLICA;
import static dev.ryow.jdbc.sql.SqlLexer.at;
import static dev.ryow.jdbc.sql.SqlLexer.pos;
import static dev.ryow.jdbc.sql.SqlLexer.skipTrivia;
import static dev.ryow.jdbc.sql.SqlLexer.tokenEnd;

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

  // Findings of one statement, in the cursor bits above the lexer's flags.
  private static final long F_LOCKING = 1L << 36;
  private static final long F_INTO = 1L << 37;
  private static final long F_DML = 1L << 38;
  private static final long F_PIN_FN = 1L << 39;
  private static final long F_WRITE_FN = 1L << 40;
  private static final long F_PRIMARY_FN = 1L << 41;
  private static final long F_USER_VAR = 1L << 42;
  private static final long F_SESSION_VAR = 1L << 43;
  private static final long F_SELECT = 1L << 44;
  private static final long F_GLOBAL_SCOPE = 1L << 45;
  private static final long F_UNBALANCED = 1L << 46;
  private static final long F_UNKNOWN_CALL = 1L << 47;
  private static final long F_TX_VAR = 1L << 48;
  /**
   * A value of the session or of the server instance rather than of replicated data: a system
   * variable other than the server's identity, {@code VERSION()}, {@code performance_schema}.
   */
  private static final long F_SERVER_STATE = 1L << 49;
  private static final long FINDINGS = 0x3FFFL << 36;

  /** What makes a {@code SET} value impossible to replay on a replica. */
  private static final long SET_NOT_REPLAYABLE =
      F_SELECT | F_PRIMARY_FN | F_WRITE_FN | F_SESSION_VAR | F_UNKNOWN_CALL | F_INTO | F_DML | F_LOCKING;

  private static final int KIND_SHIFT = 56;
  private static final long KIND_MASK = 0x1FL << KIND_SHIFT;

  private static final StatementKind[] KINDS = StatementKind.values();

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

  // What follows a '@@scope' token whose variable name comes in later tokens ('@@session . x').
  private static final int SYSVAR_NONE = 0;
  private static final int SYSVAR_AWAIT_DOT = 1;
  private static final int SYSVAR_AWAIT_NAME = 2;

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

  private static long withKind(long r, StatementKind kind) {
    return (r & ~KIND_MASK) | ((long) kind.ordinal() << KIND_SHIFT);
  }

  /**
   * Classifies the statement whose first token starts at the cursor; returns the cursor after its
   * terminating {@code ;} (or at the end) with the kind and the statement's findings set.
   */
  private static long statement(String s, long start) {
    final long st = start & ~(FINDINGS | KIND_MASK);
    final int k1 = code(s, st);
    final long h2 = next(s, st);
    final int k2 = code(s, h2);
    long f;
    StatementKind kind;
    switch (k1) {
      case Keywords.SELECT:
      case Keywords.WITH:
      case Keywords.TABLE:
      case Keywords.VALUES:
      case Keywords.HELP:
        f = scan(s, st, false);
        kind = queryKind(f);
        break;
      case Keywords.SHOW:
        f = scan(s, st, false);
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
        f = scan(s, st, false);
        kind = explain(s, h2, f, false);
        break;
      case Keywords.ANALYZE:
        f = scan(s, st, false);
        kind = (k2 == Keywords.TABLE || k2 == Keywords.NO_WRITE_TO_BINLOG || k2 == Keywords.LOCAL)
            ? StatementKind.WRITE
            : explain(s, h2, f, true);
        break;
      case Keywords.SET:
        f = scan(s, st, false);
        kind = set(s, h2, k2, f);
        break;
      case Keywords.USE:
        f = scan(s, st, false);
        kind = isName(s, h2) && isEnd(s, next(s, h2)) ? StatementKind.USE : StatementKind.WRITE;
        break;
      case Keywords.BEGIN:
        if (isEnd(s, h2) || (k2 == Keywords.WORK && isEnd(s, next(s, h2)))) {
          f = scan(s, st, false);
          kind = StatementKind.BEGIN;
        } else {
          // MariaDB's BEGIN NOT ATOMIC … END: a compound statement, ';' does not split.
          f = scan(s, st, true);
          kind = StatementKind.WRITE;
        }
        break;
      case Keywords.START:
        f = scan(s, st, false);
        kind = k2 == Keywords.TRANSACTION ? startTransaction(s, next(s, h2)) : StatementKind.WRITE;
        break;
      case Keywords.COMMIT:
        f = scan(s, st, false);
        kind = completion(s, h2, StatementKind.COMMIT);
        break;
      case Keywords.ROLLBACK:
        f = scan(s, st, false);
        kind = rollback(s, h2, k2);
        break;
      case Keywords.SAVEPOINT:
        f = scan(s, st, false);
        kind = StatementKind.SAVEPOINT_CONTROL;
        break;
      case Keywords.RELEASE:
        f = scan(s, st, false);
        kind = k2 == Keywords.SAVEPOINT ? StatementKind.SAVEPOINT_CONTROL : StatementKind.WRITE;
        break;
      case Keywords.CREATE:
        if (k2 == Keywords.TEMPORARY
            || (k2 == Keywords.OR && code(s, next(s, h2)) == Keywords.REPLACE
                && code(s, next(s, next(s, h2))) == Keywords.TEMPORARY)) {
          f = scan(s, st, false);
          kind = StatementKind.SESSION_PIN;
        } else {
          f = scan(s, st, true);
          kind = pinOr(f, StatementKind.WRITE);
        }
        break;
      case Keywords.ALTER:
        f = scan(s, st, true);
        kind = pinOr(f, StatementKind.WRITE);
        break;
      case Keywords.DROP:
        f = scan(s, st, false);
        kind = k2 == Keywords.PREPARE ? StatementKind.SESSION_PIN : pinOr(f, StatementKind.WRITE);
        break;
      case Keywords.PREPARE:
      case Keywords.EXECUTE:
      case Keywords.DEALLOCATE:
      case Keywords.LOCK:
        f = scan(s, st, false);
        kind = StatementKind.SESSION_PIN;
        break;
      case Keywords.XA:
        f = scan(s, st, false);
        kind = xa(k2);
        break;
      case Keywords.NONE:
        f = scan(s, st, false);
        kind = s.charAt(pos(st)) == '(' ? parenthesised(s, st, f) : pinOr(f, StatementKind.WRITE);
        break;
      default:
        // INSERT, UPDATE, DELETE, REPLACE, CALL, DO, HANDLER, LOAD, XA, UNLOCK, GRANT, … and words
        // the classifier does not know.
        f = scan(s, st, false);
        kind = pinOr(f, StatementKind.WRITE);
        break;
    }
    if ((f & F_UNBALANCED) != 0) {
      kind = StatementKind.WRITE;
    }
    return withKind(f, kind);
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

  /**
   * Scans one statement from its first token to its terminating {@code ;} (consumed) or the end,
   * and returns the cursor there with the findings set. With {@code compoundAllowed}, a
   * {@code BEGIN} word turns the rest of the string into the statement's body.
   */
  private static long scan(String s, long start, boolean compoundAllowed) {
    final int n = s.length();
    long c = start;
    int depth = 0;
    boolean compound = false;
    boolean afterDot = false;
    int prev1 = Keywords.NONE;
    int prev2 = Keywords.NONE;
    // The last word (or backtick-quoted name), waiting for the next token to tell whether it is
    // called or qualifies a name ('performance_schema.').
    int pending = Keywords.NONE;
    boolean hasPending = false;
    boolean pendingQuoted = false;
    // After 'information_schema.': the table name decides.
    boolean infoSchemaTable = false;
    // A '@@scope' whose variable name is still to come, and that scope's code.
    int sysvar = SYSVAR_NONE;
    int sysvarScope = Keywords.NONE;
    // End and shape of the previous token: '@' right after a name or string is user@host.
    int prevEnd = -1;
    boolean prevNameLike = false;
    // A @@global./@@persist. variable that is global scope only if assigned ('=' or ':=' next).
    boolean globalVarPending = false;
    while (true) {
      c = skipTrivia(s, c);
      int p = pos(c);
      if ((c & ERROR) != 0) {
        return c;
      }
      if (p >= n) {
        if (hasPending && !pendingQuoted) {
          c = called(c, pending, false);
        }
        if (sysvar != SYSVAR_NONE) {
          c |= F_SESSION_VAR | F_SERVER_STATE; // '@@session' at the end: the server rejects it
        }
        break;
      }
      int e = tokenEnd(s, p);
      if (e < 0) {
        return at(c | ERROR, n);
      }
      char ch = s.charAt(p);
      if (hasPending) {
        if (ch == '.') {
          c |= qualifier(pending);
          infoSchemaTable = pending == Keywords.INFORMATION_SCHEMA;
        } else if (!pendingQuoted || ch == '(') {
          c = called(c, pending, ch == '(');
        }
        hasPending = false;
      }
      if (globalVarPending) {
        if (ch == '=' || ch == ':') {
          c |= F_GLOBAL_SCOPE;
        }
        globalVarPending = false;
      }
      if (sysvar != SYSVAR_NONE) {
        if (sysvar == SYSVAR_AWAIT_DOT && ch == '.') {
          sysvar = SYSVAR_AWAIT_NAME;
          c = at(c, e);
          continue;
        }
        sysvar = SYSVAR_NONE;
        if (SqlLexer.isWordChar(ch) || ch == '`') {
          long v = systemVariable(s, sysvarScope, p, e);
          globalVarPending = (v & F_GLOBAL_SCOPE) != 0;
          c |= v & ~F_GLOBAL_SCOPE;
          prev1 = Keywords.NONE;
          prev2 = Keywords.NONE;
          afterDot = false;
          prevEnd = e;
          prevNameLike = true;
          c = at(c, e);
          continue;
        }
        c |= F_SESSION_VAR | F_SERVER_STATE; // not a form the server accepts: assume the worst
      }
      if (infoSchemaTable && ch != '.') {
        c |= informationSchemaTable(s, p, e);
        infoSchemaTable = false;
      }
      if (SqlLexer.isWordChar(ch)) {
        int k = Keywords.lookup(s, p, e);
        if (afterDot) {
          // A qualified name: never a keyword, but db.f(…) is a call of a stored function.
          pending = Keywords.NONE;
          k = Keywords.NONE;
        } else {
          c |= word(k, prev1, prev2);
          pending = k;
          if (k == Keywords.BEGIN && compoundAllowed) {
            compound = true;
          }
        }
        hasPending = true;
        pendingQuoted = false;
        prev2 = prev1;
        prev1 = k;
      } else {
        prev1 = Keywords.NONE;
        prev2 = Keywords.NONE;
        if (ch == '`') {
          // A quoted name: `LAST_INSERT_ID`() calls the built-in; `performance_schema`.t qualifies.
          pending = afterDot ? Keywords.NONE : Keywords.lookup(s, p + 1, e - 1);
          hasPending = true;
          pendingQuoted = true;
        } else if (ch == '(') {
          depth++;
        } else if (ch == ')') {
          if (depth == 0) {
            c |= F_UNBALANCED;
          } else {
            depth--;
          }
        } else if (ch == ';' && !compound) {
          if (depth != 0) {
            c |= F_UNBALANCED;
          }
          return at(c, e);
        } else if (ch == '@' && !(prevNameLike && prevEnd == p)) {
          if (e > p + 1 && s.charAt(p + 1) == '@') {
            int scope = scopeOnly(s, p + 2, e);
            if (scope != Keywords.NONE) {
              // '@@session' or '@@session.' with the name in the next tokens: '@@session . x'.
              sysvar = s.charAt(e - 1) == '.' ? SYSVAR_AWAIT_NAME : SYSVAR_AWAIT_DOT;
              sysvarScope = scope;
            } else {
              long v = variable(s, p, e);
              globalVarPending = (v & F_GLOBAL_SCOPE) != 0;
              c |= v & ~F_GLOBAL_SCOPE;
            }
          } else {
            // A user variable: @x, @'x', and a lone '@' (the variable with the empty name).
            c |= F_USER_VAR;
          }
        }
      }
      afterDot = ch == '.';
      prevEnd = e;
      prevNameLike = SqlLexer.isWordChar(ch) || ch == '\'' || ch == '"' || ch == '`';
      c = at(c, e);
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

  /** Findings of a word once the next token tells whether it is called. */
  private static long called(long c, int k, boolean isCall) {
    if (!isCall) {
      return (k == Keywords.INSERT || k == Keywords.REPLACE) ? c | F_DML : c;
    }
    switch (Keywords.category(k)) {
      case Keywords.FN_PIN:
        return c | F_PIN_FN;
      case Keywords.FN_WRITE:
        return c | F_WRITE_FN;
      case Keywords.FN_PRIMARY:
        return c | F_PRIMARY_FN;
      case Keywords.FN_PURE:
        return c;
      case Keywords.FN_SERVER:
        return c | F_SERVER_STATE;
      default:
        return c | F_UNKNOWN_CALL;
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
