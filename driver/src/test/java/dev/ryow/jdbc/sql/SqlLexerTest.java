package dev.ryow.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;

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
        "/*!40101 |unterminated~V",
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
