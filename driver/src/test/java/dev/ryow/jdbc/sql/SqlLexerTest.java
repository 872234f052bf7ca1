package dev.ryow.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SqlLexerTest {

  /** The token at the start of the input ends where the '|' is; '!' marks unterminated. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '~',
      quoteCharacter = '^',
      ignoreLeadingAndTrailingWhitespace = false,
      value = {
        "abc| def",
        "a_$9ü|+",
        "'a''b'| x",
        "'a\\'b'| x",
        "'a\\\\'|b'",
        "\"a\"\"b\"|",
        "\"a'b\"| ",
        "`a``b`|.c",
        "`a\\`|b`",
        "@x|,",
        "@a.b$c|)",
        "@'u v'|x",
        "@`u``v`|x",
        "@@session.sql_mode| ",
        "@@global.`x y`|,",
        "@| ",
        "@@|",
        "(|(",
        ";|;",
        "*|/",
        "'abc!",
        "'abc\\'!",
        "`abc!",
        "@'abc!",
        "@@session.`x!",
      })
  void tokenEnd(String raw) {
    String spec = raw.replace('⏎', '\n').replace('⇥', '\t');
    boolean unterminated = spec.endsWith("!");
    String s = spec.replace("|", "").replace("!", "");
    int expected = unterminated ? -1 : spec.indexOf('|');
    assertThat(SqlLexer.tokenEnd(s, 0)).isEqualTo(expected);
  }

  /** Trivia ends where the '|' is; flags: P primary hint, R replica hint, V in version comment, E error. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '~',
      quoteCharacter = '^',
      ignoreLeadingAndTrailingWhitespace = false,
      value = {
        "  ⇥⏎|SELECT~-",
        "/* c */ |SELECT~-",
        "/**/|x~-",
        "/*/ */|x~-",
        "-- c⏎|x~-",
        "--⇥⏎|x~-",
        "--|~-",
        "|--x~-",
        "|-x~-",
        "# c⏎|x~-",
        "#|~-",
        "/*!40101 |SET~V",
        "/*! |SET~V",
        "/*!|SET~V",
        "/*M!100100 |SET~V",
        "/*+ BKA(t) */ |x~-",
        "/* ryow:primary */|x~P",
        "/* RYOW:Replica */|x~R",
        "-- ryow:primary⏎|x~P",
        "# ryow:replica⏎|x~R",
        "/* ryow:primary ryow:replica */|x~PR",
        "/* xryow:primary */|x~-",
        "/* ryow:primary_x */|x~-",
        "/* unterminated|~E",
        "/* ryow:primary|~E",
        "/* a */ /* b *|~E",
        "/*!40101 |unterminated~V",
        "/* '*/ |x'~-",
        "/* a * / b **/|x~-",
        "/*ryow:primary*/|x~P",
        "/*ryow:replica ryow:primary*/|x~PR",
        "/* é ryow:primary ü */|x~P",
        "/* ryow:ryow:primary */|x~P",
        "/* ryow::primary */|x~-",
        "/* ryow: primary */|x~-",
        "/* ryow:primar */|x~-",
        "/* ryow:primaryü */|x~-",
        "/* éryow:primary */|x~-",
        "/* RyOw:PrImArY */|x~P",
        "/* ryow:replica */ /* ryow:primary */ |x~PR",
        "-- ryow:primary|~P",
        "#ryow:replica|~R",
        "# a */ b⏎|x~-",
        "-- /* c⏎|x~-",
      })
  void skipTrivia(String raw, String flags) {
    String spec = raw.replace('⏎', '\n').replace('⇥', '\t');
    String s = spec.replace("|", "");
    long c = SqlLexer.skipTrivia(s, 0L);
    assertThat(SqlLexer.pos(c)).isEqualTo(flags.contains("E") ? s.length() : spec.indexOf('|'));
    assertThat((c & SqlLexer.HINT_PRIMARY) != 0).as("primary hint").isEqualTo(flags.contains("P"));
    assertThat((c & SqlLexer.HINT_REPLICA) != 0).as("replica hint").isEqualTo(flags.contains("R"));
    assertThat((c & SqlLexer.IN_VERSION) != 0).as("in version comment").isEqualTo(flags.contains("V"));
    assertThat((c & SqlLexer.ERROR) != 0).as("error").isEqualTo(flags.contains("E"));
  }

  /**
   * {@link SqlLexer#hints} skips through a comment (it reads about one char in five): it must find
   * exactly the hints that a check of every position finds, wherever they are in the body.
   */
  @Property(tries = 5000)
  void hintsFindWhatACheckOfEveryPositionFinds(@ForAll("commentBodies") String body, @ForAll @IntRange(max = 6) int trim) {
    int from = Math.min(trim, body.length());
    int to = Math.max(from, body.length() - trim);
    assertThat(SqlLexer.hints(body, from, to)).as(body).isEqualTo(hintsAtEveryPosition(body, from, to));
  }

  @Provide
  Arbitrary<String> commentBodies() {
    return Arbitraries.of("ryow:", "RYOW:", "rYoW:", "ryow", "ryo", "w:", ":", "primary", "PRIMARY", "replica",
        "Replica", "primar", "x", "_", "$", " ", "\t", "é", "ı", "*", "r", "y", "o", "w", "::", "ryow:primary",
        "ryow:replica").list().ofMaxSize(12).map(l -> String.join("", l));
  }

  /** The hints of {@code s[from, to)}, checking {@code ryow:} at every position. */
  private static long hintsAtEveryPosition(String s, int from, int to) {
    long h = 0;
    for (int j = from; j + 5 <= to; j++) {
      boolean boundary = j == from || !SqlLexer.isWordChar(s.charAt(j - 1));
      if (boundary && asciiUpper(s.substring(j, j + 5)).equals("RYOW:")) {
        int e = j + 5;
        while (e < to && SqlLexer.isWordChar(s.charAt(e))) {
          e++;
        }
        String word = s.substring(j + 5, e);
        h |= asciiUpper(word).equals("PRIMARY") ? SqlLexer.HINT_PRIMARY : 0;
        h |= asciiUpper(word).equals("REPLICA") ? SqlLexer.HINT_REPLICA : 0;
      }
    }
    return h;
  }

  /** Upper case of ASCII letters only (no Unicode folding: {@code ı} stays {@code ı}). */
  private static String asciiUpper(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      b.append(c >= 'a' && c <= 'z' ? (char) (c - 32) : c);
    }
    return b.toString();
  }

  @ParameterizedTest
  @CsvSource({"/*!40101 SET x = 1 */", "/*!40101 SET x = 1 */ "})
  void versionCommentClosesAndUnterminatedOneIsAnError(String s) {
    long c = SqlLexer.skipTrivia(s, 0L);
    assertThat(s.substring(SqlLexer.pos(c))).startsWith("SET");
    long end = SqlLexer.skipTrivia(s, SqlLexer.at(c, s.indexOf('*', 3)));
    assertThat(SqlLexer.pos(end)).isEqualTo(s.length());
    assertThat(end & (SqlLexer.IN_VERSION | SqlLexer.ERROR)).isZero();
    long open = SqlLexer.skipTrivia("/*!40101 SET", 0L);
    long atEnd = SqlLexer.skipTrivia("/*!40101 SET", SqlLexer.at(open, 12));
    assertThat(atEnd & SqlLexer.ERROR).isNotZero();
  }
}
