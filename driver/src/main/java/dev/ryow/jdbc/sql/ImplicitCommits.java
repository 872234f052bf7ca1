package dev.ryow.jdbc.sql;

import java.util.Locale;
import java.util.Set;

/**
 * "Can this statement commit the open transaction by itself?" MySQL commits the current transaction
 * before (and often after) data definition, account management, table maintenance, locking and
 * replication statements, and before {@code BEGIN}/{@code START TRANSACTION}; a stored procedure
 * ({@code CALL}) may commit inside. A transaction that ran
 * one, or whose connection was lost under one, must never be replayed: part of it may be committed
 * already. Decided from the first word of each statement of the text (a multi-statement is checked
 * statement by statement); text that cannot be lexed counts as committing. Only transaction replay asks
 * (it is off by default), so this is not on the classifier's no-allocation path.
 */
public final class ImplicitCommits {
  /** First words of the statements that cause an implicit commit, and a few more, to be safe. */
  private static final Set<String> FIRST_WORDS = Set.of("ALTER", "ANALYZE", "BEGIN", "CACHE", "CALL", "CHANGE", "CHECK",
      "CLONE", "CREATE", "DROP", "FLUSH", "GRANT", "IMPORT", "INSTALL", "LOAD", "LOCK", "OPTIMIZE", "RENAME",
      "REPAIR", "RESET", "REVOKE", "START", "STOP", "TRUNCATE", "UNINSTALL", "UNLOCK", "XA");

  private ImplicitCommits() {}

  /** Whether {@code sql} may commit the open transaction implicitly. */
  public static boolean possible(String sql) {
    long cursor = 0;
    boolean statementStart = true;
    final int n = sql.length();
    while (true) {
      cursor = SqlLexer.skipTrivia(sql, cursor);
      if ((cursor & SqlLexer.ERROR) != 0) {
        return true;
      }
      int start = SqlLexer.pos(cursor);
      if (start >= n) {
        return false;
      }
      int end = SqlLexer.tokenEnd(sql, start);
      if (end < 0) {
        return true;
      }
      if (statementStart && FIRST_WORDS.contains(sql.substring(start, end).toUpperCase(Locale.ROOT))) {
        return true;
      }
      statementStart = end == start + 1 && sql.charAt(start) == ';';
      cursor = SqlLexer.at(cursor, end);
    }
  }
}
