package dev.ryow.jdbc.gtid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MalformedGtidSetTest {
  static final String U = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

  static Stream<Arguments> malformed() {
    return Stream.of(
        // input, expected message fragment, expected offset
        Arguments.of(U, "UUID without intervals", 36),
        Arguments.of(U + " :1", "UUID without intervals", 36),
        Arguments.of(U + ",", "UUID without intervals", 36),
        Arguments.of(U + ":", "expected an interval or a tag after ':' but found end of text", 37),
        Arguments.of(U + ":1:", "expected an interval or a tag after ':' but found end of text", 39),
        Arguments.of(U + "::1", "expected an interval or a tag after ':' but found ':'", 37),
        Arguments.of(U + ":0", "GTID number 0", 37),
        Arguments.of(U + ":0-5", "GTID number 0", 37),
        Arguments.of(U + ":0x10", "GTID number 0", 37),
        Arguments.of(U + ":010", "leading zero", 37),
        Arguments.of(U + ":5-3", "interval end 3 is less than its start 5", 39),
        Arguments.of(U + ":1-", "expected a number but found end of text", 39),
        Arguments.of(U + ":1--2", "expected a number but found '-'", 39),
        Arguments.of(U + ":-1", "expected an interval or a tag after ':' but found '-'", 37),
        Arguments.of(U + ":+1", "expected an interval or a tag after ':' but found '+'", 37),
        Arguments.of(U + ":1 - 2", "expected ',' or end of text but found '-'", 39),
        Arguments.of(U + ": 1", "expected an interval or a tag after ':' but found ' '", 37),
        // numbers beyond MySQL's GNO_END - 1
        Arguments.of(U + ":99999999999999999999", "GTID number greater than 9223372036854775806", 37),
        Arguments.of(U + ":9223372036854775807", "GTID number greater than 9223372036854775806", 37),
        Arguments.of(U + ":1-9223372036854775807", "GTID number greater than 9223372036854775806", 39),
        // UUIDs
        Arguments.of("3e11fa47-71ca-11e1-9e33-c80aa942956g:1", "expected a hex digit in UUID but found 'g'", 35),
        Arguments.of("3e11fa4771ca11e19e33c80aa9429562:1", "expected '-' in UUID", 8),
        Arguments.of("3e11fa47-71ca:1", "expected '-' in UUID (8-4-4-4-12 hex digits) but found ':'", 13),
        Arguments.of("3e11fa47-71ca-11e1-9e33-c80aa942956", "UUID is truncated", 35),
        Arguments.of("{" + U + "}:1", "expected a hex digit in UUID but found '{'", 0),
        Arguments.of(U + "0:1", "expected ':' after UUID but found '0'", 36),
        // tags
        Arguments.of(U + ":tag", "tag without intervals", 37),
        Arguments.of(U + ":tag:", "expected an interval or a tag after ':' but found end of text", 41),
        Arguments.of(U + ":a:b:1", "tag without intervals", 37),
        Arguments.of(U + ":1:tag", "tag without intervals", 39),
        Arguments.of(U + ":tag-x:1", "tag without intervals", 37),
        Arguments.of(U + ":" + "t".repeat(33) + ":1", "tag longer than 32 characters", 37),
        Arguments.of(U + ":9tag:1", "unexpected 't' after interval", 38),
        Arguments.of(U + ":t\u00e4g:1", "tag without intervals", 37),
        Arguments.of(U + ":-tag:1", "expected an interval or a tag after ':' but found '-'", 37),
        // commas and junk
        Arguments.of(U + ":1,," + U + ":2", "expected a UUID but found ','", 39),
        Arguments.of(U + ":1,", "expected a UUID but found end of text", 39),
        Arguments.of(U + ":1, ", "expected a UUID but found end of text", 40),
        Arguments.of("," + U + ":1", "expected a UUID but found ','", 0),
        Arguments.of(U + ":1;DROP TABLE t", "unexpected ';' after interval", 38),
        Arguments.of(U + ":1 x", "expected ',' or end of text but found 'x'", 39),
        Arguments.of(U + ":1x", "unexpected 'x' after interval", 38),
        Arguments.of(U + ":1\u0000", "unexpected '\\u0000' after interval", 38),
        Arguments.of("' OR 1=1 --", "expected a hex digit in UUID but found '\\''", 0),
        Arguments.of("ANONYMOUS", "expected a hex digit in UUID but found 'N'", 1),
        Arguments.of("null", "expected a hex digit in UUID but found 'n'", 0),
        // unicode digits and look-alikes are not ASCII
        Arguments.of(U + ":\uff11", "expected an interval or a tag after ':' but found '\\uff11'", 37),
        Arguments.of(U + ":1-\u0663", "expected a number but found '\\u0663'", 39),
        Arguments.of(U.replace('a', '\uff41') + ":1", "expected a hex digit in UUID but found '\\uff41'", 5),
        Arguments.of(U + ":\u212a:1", "expected an interval or a tag after ':' but found '\\u212a'", 37),
        Arguments.of(U + "\u00a0:1", "expected ':' after UUID but found '\\u00a0'", 36));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void rejectsWithMessageAndOffset(String input, String fragment, int offset) {
    MalformedGtidSetException e =
        catchThrowableOfType(MalformedGtidSetException.class, () -> GtidSet.parse(input));
    assertThat(e).as("parse(%s)", input).isNotNull();
    assertThat(e.getMessage()).contains(fragment).contains("at offset " + offset);
    assertThat(e.offset()).isEqualTo(offset);
    assertThat(e).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void messageQuotesTheInputEscaped() {
    MalformedGtidSetException e =
        catchThrowableOfType(
            MalformedGtidSetException.class, () -> GtidSet.parse(U + ":1,\n\"x\\"));
    assertThat(e.getMessage())
        .isEqualTo(
            "Malformed GTID set: expected a hex digit in UUID but found '\\\"' at offset 40 in \""
                + U
                + ":1,\\n\\\"x\\\\\" (43 characters)");
  }

  @Test
  void messageQuotesAtMost64CharactersOfHugeInput() {
    String hostile = U + ":1-5," + "\n".repeat(10) + "<script>" + "A".repeat(2_000_000);
    MalformedGtidSetException e =
        catchThrowableOfType(MalformedGtidSetException.class, () -> GtidSet.parse(hostile));
    String message = e.getMessage();
    assertThat(message).contains("expected a hex digit in UUID but found '<'").doesNotContain("\n");
    assertThat(message).contains("...\"").contains("\"...").contains("(2000059 characters)");
    String quoted = message.substring(message.indexOf('"') + 1, message.lastIndexOf('"'));
    assertThat(quoted.replace("\\n", "n")).hasSizeLessThanOrEqualTo(64);
    assertThat(message).hasSizeLessThan(250);
  }

  @Test
  void maxLengthIsCheckedBeforeParsing() {
    String tooLong = "x".repeat(1_000_000);
    assertThatThrownBy(() -> GtidSet.parse(tooLong, 4096, 100))
        .isInstanceOf(MalformedGtidSetException.class)
        .hasMessageContaining("longer than maxLength=4096")
        .hasMessageContaining("at offset 4096")
        .hasMessageContaining("(1000000 characters)")
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(250));
    String valid = U + ":1-5";
    assertThat(GtidSet.parse(valid, valid.length(), 1)).hasToString(valid);
    assertThatThrownBy(() -> GtidSet.parse(valid, valid.length() - 1, 1))
        .isInstanceOf(MalformedGtidSetException.class)
        .hasMessageContaining("maxLength=" + (valid.length() - 1));
  }

  @Test
  void maxIntervalsCountsIntervalsAsWritten() {
    String three = U + ":1:2:3";
    assertThat(GtidSet.parse(three, 100, 3)).hasToString(U + ":1-3");
    assertThatThrownBy(() -> GtidSet.parse(three, 100, 2))
        .isInstanceOf(MalformedGtidSetException.class)
        .hasMessageContaining("more than maxIntervals=2 intervals")
        .hasMessageContaining("at offset " + three.length());
    StringBuilder many = new StringBuilder(U);
    for (int i = 1; i <= 10_000; i++) {
      many.append(':').append(i);
    }
    assertThatThrownBy(() -> GtidSet.parse(many, 1_000_000, 1000))
        .isInstanceOf(MalformedGtidSetException.class)
        .hasMessageContaining("maxIntervals=1000");
    assertThat(GtidSet.parse("", 0, 0)).isSameAs(GtidSet.EMPTY);
  }

  @Test
  void negativeBoundsAreProgrammingErrors() {
    assertThatThrownBy(() -> GtidSet.parse("", -1, 1))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxLength");
    assertThatThrownBy(() -> GtidSet.parse("", 1, -1))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxIntervals");
  }
}
