package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.gtid.BinlogPosition;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.MariaDbGtidPosition;
import dev.ryow.jdbc.gtid.Position;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TokenCodecTest {
  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String B = "8c3a9a2e-1d4f-11ef-8b7a-0242ac120002";
  private static final TokenCodec SIGNED = TokenCodec.of(2048, 64, "a-key-of-sixteen-chars-or-more");

  /** One codec signs and checks from many threads at once (its prepared HMAC is cloned, never shared). */
  @Test
  void signaturesFromManyThreadsAtOnceAreTheSameAsFromOne() throws Exception {
    String expected = SIGNED.encode(GtidSet.parse(A + ":1-1000"));
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<Boolean>> results = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        results.add(pool.submit(() -> {
          for (int i = 0; i < 2_000; i++) {
            if (!SIGNED.encode(GtidSet.parse(A + ":1-1000")).equals(expected)
                || !SIGNED.decode(expected).equals(GtidSet.parse(A + ":1-1000"))) {
              return false;
            }
          }
          return true;
        }));
      }
      for (java.util.concurrent.Future<Boolean> r : results) {
        assertThat(r.get()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(TokenCodec.of(2048, 64, "a-key-of-sixteen-chars-or-more").encode(GtidSet.parse(A + ":1-1000")))
        .as("the same key, another codec: the same signature").isEqualTo(expected);
  }

  @Test
  void unsignedTokensAreTheGtidSetText() throws Exception {
    GtidSet set = GtidSet.parse(A + ":1-5," + B + ":7");
    String token = TokenCodec.DEFAULT.encode(set);
    assertThat(token).isEqualTo(A + ":1-5," + B + ":7");
    assertThat(TokenCodec.DEFAULT.decode(token)).isEqualTo(set);
    assertThat(TokenCodec.DEFAULT.decode("")).isEqualTo(GtidSet.EMPTY);
  }

  @Test
  void signedTokensRoundTripAndResistTampering() throws Exception {
    GtidSet set = GtidSet.parse(A + ":1-5");
    String token = SIGNED.encode(set);
    assertThat(token).startsWith(A + ":1-5.");
    assertThat(SIGNED.decode(token)).isEqualTo(set);

    String widened = token.replace(":1-5.", ":1-999999999.");
    assertThatThrownBy(() -> SIGNED.decode(widened)).isInstanceOf(InvalidTokenException.class).hasMessageContaining("signature");
    assertThatThrownBy(() -> SIGNED.decode(A + ":1-5")).isInstanceOf(InvalidTokenException.class)
        .hasMessageContaining("not signed");
    String otherKey = TokenCodec.of(2048, 64, "another-key-of-sixteen-chars").encode(set);
    assertThatThrownBy(() -> SIGNED.decode(otherKey)).isInstanceOf(InvalidTokenException.class);
    assertThatThrownBy(() -> SIGNED.decode(token.substring(0, token.length() - 1))).isInstanceOf(InvalidTokenException.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "garbage",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:",
        "3e11fa47-71ca-11e1-9e33-c80aa942956:1",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:0",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:5-3",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1'); DROP TABLE users; --",
        "' OR 1=1 --",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1, 0",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:99999999999999999999",
        "\u0000\u0001",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1\r\nSet-Cookie: x=y",
      })
  void badTokensAreClearErrors(String token) {
    assertThatThrownBy(() -> TokenCodec.DEFAULT.decode(token))
        .isInstanceOf(InvalidTokenException.class)
        .satisfies(e -> assertThat(((InvalidTokenException) e).getSQLState()).isEqualTo("22023"))
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400).doesNotContain("\r\n"));
  }

  @Test
  void aSetTooLargeForTheBoundsIsWidenedIntoATokenThatDecodes() throws Exception {
    StringBuilder fragmented = new StringBuilder(A);
    for (int i = 1; i <= 200; i++) {
      fragmented.append(':').append(i * 4);
    }
    GtidSet set = GtidSet.parse(fragmented + "," + B + ":3:9");
    for (TokenCodec codec : new TokenCodec[] {TokenCodec.DEFAULT, SIGNED, TokenCodec.of(120, 2, null)}) {
      assertThat(codec.fits(set)).isFalse();
      Position decoded = codec.decode(codec.encode(set));
      assertThat(decoded.contains(set)).as(codec.toString()).isTrue();
      assertThat(decoded).hasToString(A + ":4-800," + B + ":3-9");
    }
    GtidSet small = GtidSet.parse(A + ":1-5:9," + B + ":7");
    assertThat(TokenCodec.DEFAULT.fits(small)).isTrue();
    assertThat(TokenCodec.DEFAULT.decode(TokenCodec.DEFAULT.encode(small))).isEqualTo(small);
  }

  @Test
  void aSetThatCannotFitEvenWidenedIsAClearError() {
    GtidSet twoSources = GtidSet.parse(A + ":1," + B + ":1");
    assertThatThrownBy(() -> TokenCodec.of(2048, 1, null).encode(twoSources))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ryow.tokenMaxIntervals=1");
    assertThat(SIGNED.fits(twoSources)).isTrue();
    int exactLength = twoSources.toString().length();
    assertThat(TokenCodec.of(exactLength, 64, null).fits(twoSources)).isTrue();
    assertThat(TokenCodec.of(exactLength + 22, 64, "a-key-of-sixteen-chars-or-more").fits(twoSources)).isFalse();
    assertThat(TokenCodec.of(exactLength + 23, 64, "a-key-of-sixteen-chars-or-more").fits(twoSources)).isTrue();
  }

  @Test
  void oversizeAndTooManyIntervalsAreRejectedBeforeParsing() {
    String huge = A + ":" + "1".repeat(5000);
    assertThatThrownBy(() -> TokenCodec.DEFAULT.decode(huge))
        .isInstanceOf(InvalidTokenException.class)
        .hasMessageContaining("ryow.tokenMaxLength=2048");
    StringBuilder many = new StringBuilder(A);
    for (int i = 0; i < 3000; i++) {
      many.append(':').append(2 * i + 1);
    }
    TokenCodec roomy = TokenCodec.of(100_000, 64, null);
    assertThatThrownBy(() -> roomy.decode(many.toString()))
        .isInstanceOf(InvalidTokenException.class)
        .hasMessageContaining("maxIntervals");
    assertThatThrownBy(() -> TokenCodec.DEFAULT.decode(null)).isInstanceOf(InvalidTokenException.class);
  }

  @Test
  void tokensCarryWhatReadsSawAndServersWithReadsNotBoundedYet() throws Exception {
    GtidSet writes = GtidSet.parse(A + ":1-5");
    GtidSet reads = GtidSet.parse(A + ":1-9," + B + ":1-3");
    String token = TokenCodec.DEFAULT.encode(writes, reads, List.of(B, "*"));
    assertThat(token).isEqualTo(A + ":1-5~" + A + ":1-9," + B + ":1-3~" + B + ",*");
    TokenCodec.Contents contents = TokenCodec.DEFAULT.read(token);
    assertThat(contents.writes()).isEqualTo(writes);
    assertThat(contents.reads()).isEqualTo(reads);
    assertThat(contents.pendingServers()).containsExactly(B, "*");
    assertThat(TokenCodec.DEFAULT.decode(token)).as("every GTID it names").isEqualTo(writes.union(reads));

    assertThat(TokenCodec.DEFAULT.encode(writes, GtidSet.parse(A + ":2"), List.of()))
        .as("nothing about reads beyond the writes: the old form").isEqualTo(A + ":1-5");
    assertThat(TokenCodec.DEFAULT.encode(writes, GtidSet.EMPTY, List.of(B))).isEqualTo(A + ":1-5~~" + B);
    assertThat(TokenCodec.DEFAULT.read(A + ":1-5").reads().isEmpty()).as("old tokens: writes only").isTrue();
    assertThat(TokenCodec.DEFAULT.read("~" + B + ":4").writes().isEmpty()).isTrue();
    assertThat(TokenCodec.DEFAULT.read("~~" + B.toUpperCase(java.util.Locale.ROOT)).pendingServers())
        .containsExactly(B);

    String signed = SIGNED.encode(writes, reads, List.of(B));
    assertThat(SIGNED.read(signed).reads()).isEqualTo(reads);
    String widenedReads = signed.replace(B + ":1-3", B + ":1-300");
    assertThatThrownBy(() -> SIGNED.read(widenedReads)).isInstanceOf(InvalidTokenException.class)
        .hasMessageContaining("signature");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1~",
        "~",
        "~~",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1~~",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1~3e11fa47-71ca-11e1-9e33-c80aa9429562:2~*~",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1~~3e11fa47-71ca-11e1-9e33-c80aa9429562,",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1~~3e11fa47-71ca-11e1-9e33-c80aa942956",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1~~3e11fa47x71ca-11e1-9e33-c80aa9429562",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1~~**",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1~~*,*,*,*,*,*,*,*,*",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1~3e11fa47-71ca-11e1-9e33-c80aa9429562:0",
      })
  void badReadPartsAreClearErrors(String token) {
    assertThatThrownBy(() -> TokenCodec.DEFAULT.read(token))
        .isInstanceOf(InvalidTokenException.class)
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
  }

  @Test
  void bothSetsCountAgainstTheBoundsAndAreWidenedTogether() throws Exception {
    TokenCodec four = TokenCodec.of(2048, 4, null);
    assertThatThrownBy(() -> four.read(A + ":1:3:5~" + B + ":1:3"))
        .isInstanceOf(InvalidTokenException.class).hasMessageContaining("Intervals");
    GtidSet writes = GtidSet.parse(A + ":1:3:5");
    GtidSet reads = GtidSet.parse(B + ":1:3");
    assertThat(four.fits(writes, reads, List.of())).isFalse();
    TokenCodec.Contents widened = four.read(four.encode(writes, reads, List.of(A)));
    assertThat(widened.writes()).hasToString(A + ":1-5");
    assertThat(widened.reads()).hasToString(B + ":1-3");
    assertThat(widened.pendingServers()).containsExactly(A);
  }

  @Property(tries = 2000)
  void decodeNeverThrowsAnythingElse(@ForAll("tokenish") String text) {
    for (TokenCodec codec : new TokenCodec[] {TokenCodec.DEFAULT, SIGNED}) {
      try {
        Position set = codec.decode(text);
        assertThat(codec.decode(codec.encode(set))).isEqualTo(set);
      } catch (InvalidTokenException expected) {
        assertThat(expected.getMessage()).isNotBlank();
      }
    }
  }

  @Provide
  Arbitrary<String> tokenish() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withChars("0123456789abcdef-:,.-_ \n'\";~*").ofMaxLength(120),
        Arbitraries.strings().ofMaxLength(80),
        Arbitraries.integers().between(1, 1000).map(n -> A + ":1-" + n),
        Arbitraries.integers().between(1, 1000).map(n -> SIGNED.encode(GtidSet.parse(A + ":1-" + n))));
  }

  @Test
  void boundsAndKeyAreCheckedByTheirPropertiesAsInAUrl() {
    assertThatThrownBy(() -> TokenCodec.of(2048, 64, "abc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Invalid value for ryow.tokenKey: ")
        .hasMessageNotContaining("abc");
    assertThatThrownBy(() -> TokenCodec.of(10, 64, null)).hasMessageStartingWith("Invalid value for ryow.tokenMaxLength: ");
    assertThatThrownBy(() -> TokenCodec.of(2048, 0, null))
        .hasMessageStartingWith("Invalid value for ryow.tokenMaxIntervals: ");
    assertThat(TokenCodec.DEFAULT_MAX_LENGTH).isEqualTo(dev.ryow.jdbc.config.RyowProperties.TOKEN_MAX_LENGTH.defaultValue());
    assertThat(TokenCodec.fromSettings(name -> null).signed()).isFalse();
    assertThat(TokenCodec.fromSettings(name -> name.equals("ryow.tokenKey") ? "a-key-of-sixteen-chars" : null).signed())
        .isTrue();
  }

  /** MariaDB positions: a kind prefix and version ({@code d1:}), the same parts and signature, strict parsing. */
  @Test
  void mariaDbTokensNameTheirKindAndRoundTrip() throws Exception {
    MariaDbGtidPosition writes = MariaDbGtidPosition.parse("0-21-57,7-21-3");
    MariaDbGtidPosition reads = MariaDbGtidPosition.parse("0-22-60");
    assertThat(TokenCodec.DEFAULT.encode(writes)).isEqualTo("d1:0-21-57,7-21-3");
    String token = TokenCodec.DEFAULT.encode(writes, reads, List.of("*"));
    assertThat(token).isEqualTo("d1:0-21-57,7-21-3~0-22-60~*");
    TokenCodec.Contents c = TokenCodec.DEFAULT.read(token);
    assertThat(c.writes()).isEqualTo(writes);
    assertThat(c.reads()).isEqualTo(reads);
    assertThat(c.pendingServers()).containsExactly("*");
    assertThat(c.all()).isEqualTo(MariaDbGtidPosition.parse("0-22-60,7-21-3"));
    // Reads the writes cover are not written (per domain, as MASTER_GTID_WAIT compares).
    assertThat(TokenCodec.DEFAULT.encode(writes, MariaDbGtidPosition.parse("0-9-50"), List.of()))
        .isEqualTo("d1:0-21-57,7-21-3");
    String signed = SIGNED.encode(writes);
    assertThat(SIGNED.decode(signed)).isEqualTo(writes);
    assertThatThrownBy(() -> SIGNED.decode(signed.replace("d1:0-21-57", "d1:0-21-58")))
        .isInstanceOf(InvalidTokenException.class).hasMessageContaining("signature");
    // MySQL tokens are unchanged: no prefix.
    assertThat(TokenCodec.DEFAULT.encode(GtidSet.parse(A + ":1-5"))).isEqualTo(A + ":1-5");
  }

  /** Binary-log positions (servers without GTIDs): the {@code b1:} prefix, the primary's uuid in each position. */
  @Test
  void binlogPositionTokensNameTheirKindAndRoundTrip() throws Exception {
    BinlogPosition writes = BinlogPosition.of(A, "binlog.000012", 4711);
    BinlogPosition reads = BinlogPosition.of(A, "binlog.000012", 4700);
    assertThat(TokenCodec.DEFAULT.encode(writes)).isEqualTo("b1:" + A + ":binlog.000012:4711");
    String token = TokenCodec.DEFAULT.encode(writes, BinlogPosition.of(A, "binlog.000013", 4), List.of("*"));
    assertThat(token).isEqualTo("b1:" + A + ":binlog.000012:4711~" + A + ":binlog.000013:4~*");
    TokenCodec.Contents c = TokenCodec.DEFAULT.read(token);
    assertThat(c.writes()).isEqualTo(writes);
    assertThat(c.all()).isEqualTo(BinlogPosition.of(A, "binlog.000013", 4));
    assertThat(TokenCodec.DEFAULT.encode(writes, reads, List.of())).as("reads the writes cover are not written")
        .isEqualTo("b1:" + A + ":binlog.000012:4711");
    String signed = SIGNED.encode(writes);
    assertThat(SIGNED.decode(signed)).isEqualTo(writes);
    assertThatThrownBy(() -> SIGNED.decode(signed.replace(":4711", ":4712")))
        .isInstanceOf(InvalidTokenException.class).hasMessageContaining("signature");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "d2:0-1-5", "g1:0-1-5", "b2:0-1-5", "x1:0-1-5", // unknown kind or version
      "b1:0-1-5", "b1:3e11fa47-71ca-11e1-9e33-c80aa9429562:binlog.000002", // not a binary-log position
      "b1:3e11fa47-71ca-11e1-9e33-c80aa9429562:binlog.000002:0047", // not canonical
      "d1: 0-1-5", "d1:1-1-2,0-1-5", "d1:0-1-5 ", "d1:00-1-5", // not canonical
      "d1:0-1-5,0-2-6", "d1:0-1", "d1:" + "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5", // not a position
      "d1:", "b1:", // names nothing: the empty token is "" (a property run found "b1:" decoding to another kind)
  })
  void badMariaDbTokensAreClearErrors(String token) {
    assertThatThrownBy(() -> TokenCodec.DEFAULT.read(token))
        .isInstanceOf(InvalidTokenException.class)
        .hasMessageStartingWith("Malformed consistency token");
  }

  @Test
  void aMariaDbTokenObeysTheIntervalBound() {
    TokenCodec two = TokenCodec.of(2048, 2, null);
    assertThatThrownBy(() -> two.read("d1:0-1-5,1-1-5,2-1-5"))
        .isInstanceOf(InvalidTokenException.class).hasMessageContaining("ryow.tokenMaxIntervals=2");
    assertThatThrownBy(() -> TokenCodec.DEFAULT.encode(MariaDbGtidPosition.parse("0-1-5"), GtidSet.parse(A + ":1"),
        List.of())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot name a");
  }
}
