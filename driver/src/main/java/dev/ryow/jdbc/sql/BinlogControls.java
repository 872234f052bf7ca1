package dev.ryow.jdbc.sql;

import java.util.Locale;
import java.util.Set;

/**
 * "Does this {@code SET} only shape how the session's own writes are logged?" MariaDB's
 * {@code gtid_domain_id}, {@code gtid_seq_no}, {@code server_id} (session scope) and {@code skip_replication}
 * decide the GTID or replication of the session's next writes, which run on the primary only. Such a
 * {@code SET} runs on the primary and is not replayed on replica sessions: there it would mean nothing for
 * reads, and MariaDB refuses some of it outright ({@code gtid_seq_no} below the replica's own binary log
 * position fails in {@code gtid_strict_mode}).
 *
 * <p>Only a {@code SET} that assigns nothing else qualifies (a list that also sets, say, {@code time_zone} is
 * replayed whole, as before). Values are skipped through quotes, backticks and parentheses; anything the scan
 * does not understand answers false (replayed, as before).
 */
public final class BinlogControls {
  private static final Set<String> NAMES = Set.of("gtid_domain_id", "gtid_seq_no", "server_id", "skip_replication");

  private BinlogControls() {}

  /** Whether {@code sql} is {@code SET [SESSION|LOCAL] name = value [, ...]} with only those names assigned. */
  public static boolean onlyShapesTheBinlog(String sql) {
    if (!mentionsOne(sql)) {
      return false; // every ordinary SET: decided without allocating
    }
    String s = sql.trim();
    if (s.length() < 4 || !s.regionMatches(true, 0, "SET", 0, 3) || !Character.isWhitespace(s.charAt(3))) {
      return false;
    }
    int i = 4;
    int n = s.length();
    while (true) {
      i = skipSpace(s, i);
      int wordEnd = word(s, i);
      String first = s.substring(i, wordEnd).toLowerCase(Locale.ROOT);
      if ((first.equals("session") || first.equals("local")) && wordEnd < n && Character.isWhitespace(s.charAt(wordEnd))) {
        i = skipSpace(s, wordEnd);
        wordEnd = word(s, i);
      } else if (first.startsWith("@@")) {
        int dot = first.indexOf('.');
        String scope = dot < 0 ? "" : first.substring(2, dot);
        if (dot >= 0 && !scope.equals("session") && !scope.equals("local")) {
          return false;
        }
        i += dot < 0 ? 2 : dot + 1;
      }
      if (!NAMES.contains(s.substring(i, wordEnd).toLowerCase(Locale.ROOT))) {
        return false;
      }
      i = skipSpace(s, wordEnd);
      if (i >= n || (s.charAt(i) != '=' && !s.startsWith(":=", i))) {
        return false;
      }
      i = skipValue(s, i + (s.charAt(i) == '=' ? 1 : 2));
      if (i < 0) {
        return false;
      }
      if (i >= n || s.charAt(i) == ';') {
        return i >= n || skipSpace(s, i + 1) >= n;
      }
      i++; // the comma
    }
  }

  /** Whether one of the names occurs in {@code sql} at all (any case); no allocation. */
  private static boolean mentionsOne(String sql) {
    for (int i = 0, n = sql.length(); i < n; i++) {
      char c = sql.charAt(i);
      if ((c == 'g' || c == 'G') && (sql.regionMatches(true, i, "gtid_domain_id", 0, 14)
          || sql.regionMatches(true, i, "gtid_seq_no", 0, 11))) {
        return true;
      }
      if ((c == 's' || c == 'S') && (sql.regionMatches(true, i, "server_id", 0, 9)
          || sql.regionMatches(true, i, "skip_replication", 0, 16))) {
        return true;
      }
    }
    return false;
  }

  private static int skipSpace(String s, int i) {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    return i;
  }

  /** The end of a name: letters, digits, _ $ @ . */
  private static int word(String s, int i) {
    int j = i;
    while (j < s.length()) {
      char c = s.charAt(j);
      if (!Character.isLetterOrDigit(c) && c != '_' && c != '$' && c != '@' && c != '.') {
        break;
      }
      j++;
    }
    return j;
  }

  /** From the start of a value to the comma or semicolon (or end) that ends it at depth 0; -1 if unbalanced. */
  private static int skipValue(String s, int i) {
    int depth = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '\'' || c == '"' || c == '`') {
        int close = s.indexOf(c, i + 1);
        if (close < 0) {
          return -1;
        }
        i = close + 1;
        continue;
      }
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        if (--depth < 0) {
          return -1;
        }
      } else if (depth == 0 && (c == ',' || c == ';')) {
        return i;
      } else if (c == '-' || c == '/' || c == '#') {
        if (s.startsWith("--", i) || s.startsWith("/*", i) || c == '#') {
          return -1; // comments: not understood here
        }
      }
      i++;
    }
    return depth == 0 ? i : -1;
  }
}
