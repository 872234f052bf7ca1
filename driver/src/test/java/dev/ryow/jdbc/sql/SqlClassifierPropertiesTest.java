package dev.ryow.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.StringLength;

/** Properties that must hold for every input, checked on generated SQL-like text. */
class SqlClassifierPropertiesTest {

  /** Fragments that stress the lexer: quotes, comment openers and closers, parentheses, keywords. */
  private static final List<String> FRAGMENTS = List.of(
      "'", "\"", "`", "\\", "''", "\\'", "/*", "*/", "/*!", "/*!50100", "/*M!", "/*+", "--", "-- ", "#", "\n", "\r",
      "\t", " ", ";", "(", ")", "@", "@@", "@@session.", "@@global.", ":=", ".", ",", "=", "?", "{", "}", "0", "1e5",
      "SELECT", "select", "WITH", "TABLE", "VALUES", "INSERT", "UPDATE", "DELETE", "REPLACE", "INTO", "FOR",
      "SHARE", "LOCK", "IN", "MODE", "FROM", "t", "x", "SET", "GLOBAL", "SESSION", "TRANSACTION", "READ", "ONLY",
      "USE", "BEGIN", "START", "COMMIT", "ROLLBACK", "TO", "SAVEPOINT", "RELEASE", "CREATE", "TEMPORARY", "PREPARE",
      "EXPLAIN", "ANALYZE", "DESC", "SHOW", "WARNINGS", "GET_LOCK", "LAST_INSERT_ID", "NEXT", "VALUE", "ryow:primary",
      "ryow:replica", "é", "ı", "\u0000", "\uFFFF", "\uD83D\uDE00");

  /** Read statements from the table that carry no hint; any comment prefix must leave them READ. */
  private static final List<String> READS = StatementTable.cases().stream()
      .filter(c -> c.expected() == StatementKind.READ)
      .map(StatementTable.Case::sql)
      .filter(s -> !s.contains("ryow:"))
      .toList();

  @Provide
  Arbitrary<String> sqlish() {
    return Arbitraries.of(FRAGMENTS).list().ofMaxSize(40).map(l -> String.join("", l));
  }

  @Provide
  Arbitrary<String> tableStatements() {
    return Arbitraries.of(StatementTable.cases()).map(StatementTable.Case::sql);
  }

  @Provide
  Arbitrary<String> reads() {
    return Arbitraries.of(READS);
  }

  /** A comment that is not code, not a hint and closed: block, dash-dash or hash. */
  @Provide
  Arbitrary<String> comments() {
    Arbitrary<String> text = Arbitraries.strings()
        .withChars("abc SELECT;'\"`()@#-/!+*\t")
        .withCharRange('\u00e0', '\u00ff')
        .ofMaxLength(30);
    Arbitrary<String> block = text
        .filter(t -> !t.contains("*/") && !t.startsWith("!") && !t.startsWith("M!") && !t.endsWith("*"))
        .map(t -> "/*" + t + "*/");
    Arbitrary<String> dash = text.filter(t -> t.indexOf('\n') < 0).map(t -> "-- " + t + "\n");
    Arbitrary<String> hash = text.filter(t -> t.indexOf('\n') < 0).map(t -> "#" + t + "\n");
    Arbitrary<String> space = Arbitraries.of(" ", "\n", "\t", "\r\n", "");
    return Combinators.combine(Arbitraries.oneOf(block, dash, hash), space).as((c, s) -> c + s);
  }

  @Property(tries = 3000)
  void neverThrowsOnSqlLikeText(@ForAll("sqlish") String sql) {
    assertOnlyAReadIsRead(sql);
  }

  @Property(tries = 3000)
  void neverThrowsOnArbitraryStrings(@ForAll @StringLength(max = 200) String sql) {
    assertOnlyAReadIsRead(sql);
  }

  @Property(tries = 2000)
  void neverThrowsOnTruncatedOrSplicedStatements(
      @ForAll("tableStatements") String a, @ForAll("tableStatements") String b, @ForAll("sqlish") String junk) {
    String spliced = a.substring(0, a.length() / 2) + junk + b.substring(b.length() / 3);
    assertOnlyAReadIsRead(spliced);
  }

  @Property(tries = 2000)
  void readPrefixedByCommentsStaysRead(
      @ForAll("reads") String read, @ForAll("comments") String c1, @ForAll("comments") String c2) {
    assertThat(SqlClassifier.classify(c1 + c2 + read)).isEqualTo(StatementKind.READ);
  }

  @Property(tries = 2000)
  void readFollowedByCommentsStaysRead(@ForAll("reads") String read, @ForAll("comments") String c) {
    // A newline first: some reads end in a line comment.
    assertThat(SqlClassifier.classify(read + "\n" + c)).isEqualTo(StatementKind.READ);
  }

  /** Whatever precedes it, a following DELETE is never routed to a replica nor treated as read. */
  @Property(tries = 3000)
  void appendingADeleteIsNeverARead(@ForAll("sqlish") String sql) {
    assertThat(SqlClassifier.classify(sql + "\n; DELETE FROM t")).isIn(StatementKind.WRITE, StatementKind.SESSION_PIN);
  }

  @Property(tries = 2000)
  void appendingADeleteToAnyStatementIsAMultiStatement(@ForAll("tableStatements") String sql) {
    StatementKind alone = SqlClassifier.classify(sql);
    StatementKind multi = SqlClassifier.classify(sql + "\n; DELETE FROM t");
    assertThat(multi).isIn(StatementKind.WRITE, StatementKind.SESSION_PIN);
    if (alone == StatementKind.READ || alone == StatementKind.PRIMARY_READ) {
      assertThat(multi).isEqualTo(StatementKind.WRITE);
    }
  }

  @Property(tries = 2000)
  void appendingADeleteToArbitraryTextIsNeverARead(@ForAll @StringLength(max = 100) String sql) {
    assertThat(SqlClassifier.classify(sql + "\n; DELETE FROM t")).isIn(StatementKind.WRITE, StatementKind.SESSION_PIN);
  }

  /** Keywords are case-insensitive; only ASCII text, and not MariaDB's case-sensitive {@code /*M!}. */
  @Property(tries = 2000)
  void asciiCaseDoesNotMatter(@ForAll("tableStatements") String sql) {
    if (!sql.chars().allMatch(ch -> ch < 0x80) || sql.contains("M!")) {
      return;
    }
    StatementKind kind = SqlClassifier.classify(sql);
    assertThat(SqlClassifier.classify(sql.toLowerCase(Locale.ROOT))).isEqualTo(kind);
    assertThat(SqlClassifier.classify(sql.toUpperCase(Locale.ROOT))).isEqualTo(kind);
  }

  /** Prefixing a primary hint never sends anything to a replica, and never changes non-reads. */
  @Property(tries = 2000)
  void primaryHintOnlyPromotesReads(@ForAll("tableStatements") String sql) {
    StatementKind kind = SqlClassifier.classify(sql);
    StatementKind hinted = SqlClassifier.classify("/* ryow:primary */ " + sql);
    assertThat(hinted).isNotEqualTo(StatementKind.READ);
    if (kind != StatementKind.READ && kind != StatementKind.PRIMARY_READ) {
      assertThat(hinted).isEqualTo(kind);
    }
  }

  /** A replica hint only ever turns a PRIMARY_READ into a READ. */
  @Property(tries = 2000)
  void replicaHintOnlyDemotesPrimaryReads(@ForAll("tableStatements") String sql) {
    if (sql.contains("ryow:")) {
      return;
    }
    StatementKind kind = SqlClassifier.classify(sql);
    StatementKind hinted = SqlClassifier.classify("/* ryow:replica */ " + sql);
    if (kind == StatementKind.PRIMARY_READ) {
      assertThat(hinted).isIn(StatementKind.READ, StatementKind.PRIMARY_READ);
    } else {
      assertThat(hinted).isEqualTo(kind);
    }
  }

  /** A string literal's content never matters. */
  @Property(tries = 2000)
  void stringLiteralContentDoesNotMatter(@ForAll("sqlish") String content) {
    String quoted = "'" + content.replace("\\", "\\\\").replace("'", "''") + "'";
    assertThat(SqlClassifier.classify("SELECT " + quoted + " FROM t")).isEqualTo(StatementKind.READ);
    assertThat(SqlClassifier.classify("SELECT `" + content.replace("`", "``") + "` FROM t")).isEqualTo(StatementKind.READ);
  }

  /** The words a statement a replica may run can start with (past comments, blanks and opening parentheses). */
  private static final List<String> READ_STARTS =
      List.of("SELECT", "WITH", "TABLE", "VALUES", "SHOW", "DESCRIBE", "DESC", "EXPLAIN", "HELP");

  /**
   * Classifies {@code sql} (an exception fails the property) and checks what a {@code READ} answer promises,
   * by a rule of its own rather than the classifier's: the text starts as a read. Exempt from the first-word
   * rule: text with an executable comment ({@code /*!}), whose first word may be inside the comment, and text
   * naming the {@code ryow:replica} hint, which sends any statement to a replica by design
   * ({@code ANALYZE SEL''-- ryow:replica'LECT 1} is a hinted statement: the quote ends before the comment).
   */
  private static void assertOnlyAReadIsRead(String sql) {
    if (SqlClassifier.classify(sql) != StatementKind.READ) {
      return;
    }
    if (!sql.contains("/*!") && !sql.contains("/*M!") && !sql.toLowerCase(Locale.ROOT).contains("ryow:replica")) {
      assertThat(READ_STARTS).as("the first word of %s, classified READ", sql).contains(firstWord(sql));
    }
    assertThat(sql.strip()).as("classified READ").isNotEmpty();
  }

  /**
   * The first word of {@code sql}, upper-cased, past blanks (any char up to U+0020, as the classifier's lexer),
   * comments and opening parentheses.
   */
  private static String firstWord(String sql) {
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c <= ' ' || c == '(') {
        i++;
      } else if (sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (c == '#' || sql.startsWith("--", i) && (i + 2 == n || sql.charAt(i + 2) <= ' ')) {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else {
        break;
      }
    }
    int start = i;
    while (i < n && Character.isLetter(sql.charAt(i))) {
      i++;
    }
    return sql.substring(start, i).toUpperCase(Locale.ROOT);
  }
}
