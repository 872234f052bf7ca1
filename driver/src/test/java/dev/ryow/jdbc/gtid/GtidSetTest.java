package dev.ryow.jdbc.gtid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GtidSetTest {
  static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  static final String B = "8a94f357-aab4-11df-86ab-c80aa9429562";
  static final String F = "fe6a5e8e-7d22-11ee-a1e0-b445068eb8f4";
  static final String MAX = "9223372036854775806";

  static GtidSet g(String text) {
    return GtidSet.parse(text);
  }

  static Stream<Arguments> canonicalForms() {
    return Stream.of(
        // input, canonical text, sourceCount, intervalCount
        Arguments.of("", "", 0, 0),
        Arguments.of(" \t\r\n ", "", 0, 0),
        // MySQL manual / real server output
        Arguments.of("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5", A + ":1-5", 1, 1),
        Arguments.of("3E11FA47-71CA-11E1-9E33-C80AA9429562:23", A + ":23", 1, 1),
        Arguments.of(
            A + ":1-5,\n" + B + ":1-2:4-7", A + ":1-5," + B + ":1-2:4-7", 2, 3),
        Arguments.of(
            "2174B383-5441-11E8-B90A-C80AA9429562:1-3,\n24DA1679-0C0C-11E8-8442-00059A3C7B00:1-19",
            "2174b383-5441-11e8-b90a-c80aa9429562:1-3,24da1679-0c0c-11e8-8442-00059a3c7b00:1-19",
            2,
            2),
        // MySQL 8.3 manual: tagged GTIDs
        Arguments.of("3E11FA47-71CA-11E1-9E33-C80AA9429562:Domain_1:23", A + ":domain_1:23", 1, 1),
        Arguments.of(
            "3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5:11-18:Domain_1:1-5:11-18",
            A + ":1-5:11-18:domain_1:1-5:11-18",
            2,
            4),
        Arguments.of(A + ":1-5:tag_a:1-3:tag_b:8-52", A + ":1-5:tag_a:1-3:tag_b:8-52", 3, 3),
        // tags sorted, untagged first, one group per uuid
        Arguments.of(A + ":tag_b:8-52:tag_a:1-3," + A + ":1-5", A + ":1-5:tag_a:1-3:tag_b:8-52", 3, 3),
        Arguments.of(A + ":TAG:1," + A + ":tag:2", A + ":tag:1-2", 1, 1),
        Arguments.of(A + ":_:1:a:2:" + "x".repeat(32) + ":3", A + ":_:1:a:2:" + "x".repeat(32) + ":3", 3, 3),
        Arguments.of(A + ":t:1:t:2", A + ":t:1-2", 1, 1),
        // sources ordered by uuid text, f after digits (unsigned order)
        Arguments.of(F + ":1," + B + ":1," + A + ":1", A + ":1," + B + ":1," + F + ":1", 3, 3),
        // normalisation: overlap, adjacency, order, duplicates, n-n
        Arguments.of(A + ":1-3:4-5", A + ":1-5", 1, 1),
        Arguments.of(A + ":4-5:1-3", A + ":1-5", 1, 1),
        Arguments.of(A + ":1-10:2-3:9-12", A + ":1-12", 1, 1),
        Arguments.of(A + ":7:7:7-7", A + ":7", 1, 1),
        Arguments.of(A + ":1:3:5:2", A + ":1-3:5", 1, 2),
        Arguments.of(A + ":9-9:1-2," + A + ":5", A + ":1-2:5:9", 1, 3),
        Arguments.of(A + ":1-" + MAX + ":17", A + ":1-" + MAX, 1, 1),
        Arguments.of(A + ":" + MAX, A + ":" + MAX, 1, 1),
        // whitespace around commas and ends
        Arguments.of("\n " + A + ":1 ,\r\n\t" + B + ":2 \n", A + ":1," + B + ":2", 2, 2));
  }

  @ParameterizedTest
  @MethodSource("canonicalForms")
  void parsesToCanonicalText(String input, String canonical, int sources, int intervals) {
    GtidSet set = g(input);
    assertThat(set.toString()).isEqualTo(canonical);
    assertThat(set.sourceCount()).isEqualTo(sources);
    assertThat(set.intervalCount()).isEqualTo(intervals);
    assertThat(set.isEmpty()).isEqualTo(sources == 0);
    GtidSet again = g(canonical);
    assertThat(again).isEqualTo(set).hasSameHashCodeAs(set);
    assertThat(again.toString()).isEqualTo(canonical);
  }

  @Test
  void blankTextIsTheEmptySingleton() {
    assertThat(g("")).isSameAs(GtidSet.EMPTY);
    assertThat(g(" \n")).isSameAs(GtidSet.EMPTY);
    assertThat(GtidSet.EMPTY.toString()).isEmpty();
    assertThat(GtidSet.EMPTY.isEmpty()).isTrue();
  }

  @Test
  void toStringIsCached() {
    GtidSet set = g(A + ":3:1-2");
    assertThat(set.toString()).isSameAs(set.toString());
  }

  @Test
  void acceptsAnyCharSequence() {
    assertThat(GtidSet.parse(new StringBuilder(A).append(":1"))).isEqualTo(g(A + ":1"));
  }

  @Test
  void equalityIsByValue() {
    assertThat(g(A + ":1-2:3")).isEqualTo(g(A.toUpperCase() + ":3:1-2")).isNotEqualTo(g(A + ":1-4"));
    assertThat(g(A + ":1")).isNotEqualTo(g(A + ":t:1")).isNotEqualTo(g(B + ":1"));
    assertThat(g(A + ":1")).isNotEqualTo(A + ":1");
  }

  static Stream<Arguments> unions() {
    return Stream.of(
        // a, b, a union b
        Arguments.of("", "", ""),
        Arguments.of(A + ":1-3", "", A + ":1-3"),
        Arguments.of(A + ":1-3", A + ":4-5", A + ":1-5"),
        Arguments.of(A + ":1-3", A + ":5", A + ":1-3:5"),
        Arguments.of(A + ":1-3:7-9", A + ":2-8", A + ":1-9"),
        Arguments.of(A + ":1:3:5", A + ":2:4", A + ":1-5"),
        Arguments.of(A + ":1", B + ":1", A + ":1," + B + ":1"),
        Arguments.of(B + ":1", A + ":1", A + ":1," + B + ":1"),
        Arguments.of(A + ":1", A + ":t:1", A + ":1:t:1"),
        Arguments.of(A + ":b:1", A + ":a:2", A + ":a:2:b:1"),
        Arguments.of(A + ":1-" + MAX, A + ":5", A + ":1-" + MAX),
        Arguments.of(A + ":" + MAX, A + ":1-9223372036854775805", A + ":1-" + MAX),
        Arguments.of(
            A + ":1-5," + F + ":10", B + ":3," + F + ":11", A + ":1-5," + B + ":3," + F + ":10-11"));
  }

  @ParameterizedTest
  @MethodSource("unions")
  void unionMergesLikeMysql(String a, String b, String expected) {
    assertThat(g(a).union(g(b))).hasToString(expected);
    assertThat(g(b).union(g(a))).hasToString(expected);
  }

  @Test
  void unionReturnsAnOperandWhenItContainsTheOther() {
    GtidSet big = g(A + ":1-10," + B + ":1");
    GtidSet small = g(A + ":3-4");
    assertThat(big.union(small)).isSameAs(big);
    assertThat(small.union(big)).isSameAs(big);
    assertThat(big.union(GtidSet.EMPTY)).isSameAs(big);
    assertThat(GtidSet.EMPTY.union(small)).isSameAs(small);
    assertThat(big.union(g(big.toString()))).isSameAs(big);
  }

  static Stream<Arguments> containment() {
    return Stream.of(
        // set, candidate subset, contained?
        Arguments.of("", "", true),
        Arguments.of(A + ":1", "", true),
        Arguments.of("", A + ":1", false),
        Arguments.of(A + ":1-10", A + ":3-7", true),
        Arguments.of(A + ":1-10", A + ":1-10", true),
        Arguments.of(A + ":1-10", A + ":10-11", false),
        Arguments.of(A + ":2-10", A + ":1", false),
        Arguments.of(A + ":1-3:5-7", A + ":3-5", false),
        Arguments.of(A + ":1-3:5-7", A + ":2:6", true),
        Arguments.of(A + ":1-3:5-7", A + ":4", false),
        Arguments.of(A + ":1-" + MAX, A + ":" + MAX + ":1:77", true),
        // different uuid never contained
        Arguments.of(A + ":1-100", B + ":1", false),
        Arguments.of(A + ":1-100," + B + ":1", B + ":1", true),
        Arguments.of(B + ":1", A + ":1," + B + ":1", false),
        // tagged and untagged GTIDs of one uuid are different GTIDs
        Arguments.of(A + ":1-100", A + ":t:1", false),
        Arguments.of(A + ":t:1-100", A + ":1", false),
        Arguments.of(A + ":a:1-100", A + ":b:1", false),
        Arguments.of(A + ":1-100:t:1-100", A + ":5:T:5", true),
        Arguments.of(A + ":1:a:1:b:1:c:1", A + ":b:1:c:1", true),
        Arguments.of(A + ":1:a:1:c:1", A + ":b:1:c:1", false));
  }

  @ParameterizedTest
  @MethodSource("containment")
  void containsIsSubsetTest(String set, String candidate, boolean expected) {
    assertThat(g(set).contains(g(candidate))).isEqualTo(expected);
  }

  @Test
  void hugeIntervalsAreCheap() {
    GtidSet all = g(A + ":1-" + MAX + "," + B + ":t:1-" + MAX);
    GtidSet every = g(A + ":2-" + MAX + ":1," + B + ":T:1-" + MAX);
    assertThat(all).isEqualTo(every);
    assertThat(all.contains(every)).isTrue();
    assertThat(all.union(every)).isSameAs(all);
    assertThat(all.intervalCount()).isEqualTo(2);
  }

  @Test
  void manyIntervalsParseAndMergeQuickly() {
    int n = 200_000;
    StringBuilder odd = new StringBuilder(A);
    StringBuilder even = new StringBuilder(A);
    for (int i = n; i >= 1; i--) { // descending: forces the sort path
      odd.append(':').append(2L * i - 1);
      even.append(':').append(2L * i);
    }
    long t0 = System.nanoTime();
    GtidSet o = GtidSet.parse(odd);
    GtidSet e = GtidSet.parse(even);
    assertThat(o.intervalCount()).isEqualTo(n);
    GtidSet all = o.union(e);
    assertThat(all).hasToString(A + ":1-" + 2 * n);
    assertThat(all.contains(o)).isTrue();
    assertThat(o.contains(e)).isFalse();
    assertThat(System.nanoTime() - t0).isLessThan(5_000_000_000L);
  }

  @Test
  void nullArgumentsAreNullPointerExceptions() {
    assertThatThrownBy(() -> GtidSet.parse(nullText())).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> GtidSet.EMPTY.union(nullSet()))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> GtidSet.EMPTY.contains(nullSet()))
        .isInstanceOf(NullPointerException.class);
  }

  private static @Nullable CharSequence nullText() {
    return null;
  }

  @Test
  void filledFromJoinsOwnWritesWithTheExecutedGtidsBetweenThem() {
    GtidSet own = GtidSet.parse(A + ":3:7:12," + B + ":5");
    GtidSet executed = GtidSet.parse(A + ":1-10," + B + ":1-100," + F + ":1-9");
    // A: everything executed up to 12 (1-10) joins 12; B: only up to 5; F: not a source of own.
    assertThat(own.filledFrom(executed)).hasToString(A + ":1-10:12," + B + ":1-5");
    assertThat(own.filledFrom(GtidSet.parse(A + ":1-12"))).hasToString(A + ":1-12," + B + ":5");
    assertThat(own.filledFrom(GtidSet.parse(A + ":3:7:12:20-30"))).isSameAs(own);
    assertThat(own.filledFrom(GtidSet.EMPTY)).isSameAs(own);
    assertThat(GtidSet.EMPTY.filledFrom(executed)).isSameAs(GtidSet.EMPTY);
    assertThat(GtidSet.parse(A + ":t:5").filledFrom(GtidSet.parse(A + ":1-9"))).hasToString(A + ":t:5");
  }

  @Test
  void filledFromSharesTheExecutedSetWhenItHoldsEverythingBelow() {
    GtidSet executed = GtidSet.parse(A + ":1-12");
    assertThat(GtidSet.parse(A + ":12").filledFrom(executed)).isSameAs(executed);
    assertThat(GtidSet.parse(A + ":5:12").filledFrom(executed)).isSameAs(executed);
    GtidSet equal = GtidSet.parse(A + ":1-12");
    assertThat(equal.filledFrom(executed)).isSameAs(equal);
    assertThat(GtidSet.parse(A + ":12").filledFrom(GtidSet.parse(A + ":1-20"))).hasToString(A + ":1-12");
    assertThat(GtidSet.parse(A + ":12:30").filledFrom(GtidSet.parse(A + ":1-20"))).hasToString(A + ":1-20:30");
    assertThat(GtidSet.parse(A + ":12").filledFrom(GtidSet.parse(A + ":1-5"))).hasToString(A + ":1-5:12");
    GtidSet two = GtidSet.parse(A + ":1-12," + B + ":1-3");
    assertThat(GtidSet.parse(A + ":12").filledFrom(two)).hasToString(A + ":1-12");
    assertThat(GtidSet.parse(A + ":12," + B + ":3").filledFrom(two)).isSameAs(two);
  }

  @ParameterizedTest
  @MethodSource("singleIntervalTexts")
  void aSingleIntervalParsesAsInTheGeneralForm(String text) {
    // A leading blank takes the general parser; the same text without it, the single-interval path.
    GtidSet general = GtidSet.parse(" " + text);
    GtidSet direct = GtidSet.parse(text);
    assertThat(direct).isEqualTo(general).hasToString(general.toString()).hasSameHashCodeAs(general);
    assertThat(direct.intervalCount()).isEqualTo(1);
  }

  static Stream<String> singleIntervalTexts() {
    return Stream.of(A + ":1", A + ":7-7", A + ":1-184467", A.toUpperCase(java.util.Locale.ROOT) + ":9",
        A + ":" + MAX, A + ":1-" + MAX, F + ":42-43");
  }

  @ParameterizedTest
  @MethodSource("almostSingleIntervalTexts")
  void textsThatOnlyLookLikeOneIntervalGetTheGeneralParsersAnswer(String text) {
    GtidSet general;
    try {
      general = GtidSet.parse(" " + text);
    } catch (MalformedGtidSetException e) {
      String problem = e.getMessage().substring(0, e.getMessage().indexOf(" at offset "));
      assertThatThrownBy(() -> GtidSet.parse(text)).isInstanceOf(MalformedGtidSetException.class)
          .hasMessageStartingWith(problem + " at offset ");
      return;
    }
    assertThat(GtidSet.parse(text)).isEqualTo(general);
  }

  static Stream<String> almostSingleIntervalTexts() {
    return Stream.of(A + ":0", A + ":05", A + ":5-3", A + ":5-", A + ":-5", A + ":5-05", A + ":5x",
        A + ":9223372036854775807", A + ":1-9223372036854775807", A + ":1:3", A + ":1-3,", A + ":1-3 ",
        A + ":tag:1", A.replace('-', 'x') + ":1", A.substring(1) + "0:1", A + ":1," + B + ":2");
  }

  @Test
  void spannedJoinsEachSourceIntoOneInterval() {
    assertThat(GtidSet.parse(A + ":3:7:12:t:1:4," + B + ":5").spanned()).hasToString(A + ":3-12:t:1-4," + B + ":5");
    GtidSet compact = GtidSet.parse(A + ":1-9," + B + ":5");
    assertThat(compact.spanned()).isSameAs(compact);
    assertThat(GtidSet.EMPTY.spanned()).isSameAs(GtidSet.EMPTY);
  }

  private static @Nullable GtidSet nullSet() {
    return null;
  }
}
