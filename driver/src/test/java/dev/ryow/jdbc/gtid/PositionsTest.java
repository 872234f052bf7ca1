package dev.ryow.jdbc.gtid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Position} across kinds, as {@code cluster}, {@code session} and {@code route} use it (typed as
 * {@code Position}): each kind keeps its own semantics, an empty position of any kind is neutral, and
 * non-empty positions of different kinds never join.
 */
class PositionsTest {
  private static final String U = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

  private static Position of(String kindAndText) {
    int colon = kindAndText.indexOf('/');
    String text = kindAndText.substring(colon + 1);
    return kindAndText.startsWith("g/") ? GtidSet.parse(text.replace("U", U)) : MariaDbGtidPosition.parse(text);
  }

  @ParameterizedTest(name = "{0} ∪ {1} = {2}, {0} ⊇ {1}: {3}")
  @CsvSource(delimiter = '|', value = {
      // MySQL: set semantics (a gap is not covered).
      "g/U:1-5      | g/U:7        | g/U:1-5:7      | false",
      "g/U:1-7      | g/U:3        | g/U:1-7        | true",
      // MariaDB: per-domain high-water marks, server id ignored by contains; union keeps the higher GTID.
      "d/0-1-5      | d/0-2-3      | d/0-1-5        | true",
      "d/0-1-5      | d/0-2-7      | d/0-2-7        | false",
      "d/0-1-5      | d/1-1-2      | d/0-1-5,1-1-2  | false",
      "d/0-1-5,1-1-9| d/1-3-2      | d/0-1-5,1-1-9  | true",
      // The empty position of either kind is neutral for the other kind.
      "g/           | d/0-1-5      | d/0-1-5        | false",
      "d/0-1-5      | g/           | d/0-1-5        | true",
      "d/           | g/U:1-3      | g/U:1-3        | false",
      "g/U:1-3      | d/           | g/U:1-3        | true",
  })
  void unionAndContainsThroughTheAbstraction(String a, String b, String union, boolean contains) {
    Position x = of(a.trim());
    Position y = of(b.trim());
    assertThat(x.union(y)).isEqualTo(of(union.trim()));
    assertThat(x.contains(y)).isEqualTo(contains);
  }

  @ParameterizedTest(name = "{0} / {1}")
  @CsvSource(delimiter = '|', value = {"g/U:1-5 | d/0-1-5", "d/0-1-5 | g/U:1-5"})
  void nonEmptyPositionsOfDifferentKindsNeitherJoinNorCover(String a, String b) {
    Position x = of(a.trim());
    Position y = of(b.trim());
    assertThat(x.contains(y)).isFalse();
    assertThatThrownBy(() -> x.union(y)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be joined");
  }

  @ParameterizedTest(name = "{0} by sources of {1}")
  @CsvSource(delimiter = '|', value = {
      // kept | dropped
      "d/0-1-5,7-1-2 | d/0-1-1       | d/0-1-5 | d/7-1-2",
      "d/0-1-5,7-1-2 | d/7-9-9,0-1-1 | d/0-1-5,7-1-2 | d/",
      "d/0-1-5       | g/U:1-3       | d/      | d/0-1-5",
  })
  void mariaDbSourcesAreDomains(String p, String names, String kept, String dropped) {
    Position x = of(p.trim());
    Position n = of(names.trim());
    assertThat(x.bySourcesOf(n, Positions.EMPTY, true)).isEqualTo(of(kept.trim()));
    assertThat(x.bySourcesOf(n, Positions.EMPTY, false)).isEqualTo(of(dropped.trim()));
    assertThat(n.namesSourcesOf(x, Positions.EMPTY)).isEqualTo(of(dropped.trim()).isEmpty());
  }

  @ParameterizedTest(name = "{0} against the primary's {1}")
  @CsvSource(delimiter = '|', value = {
      // watermark | primary has | missing | kept
      "0-1-5       | 0-1-9       | ''        | 0-1-5",
      "0-1-5,7-1-3 | 0-1-9,7-1-2 | 7-1-3     | 0-1-5,7-1-2",
      "0-1-5,7-1-3 | 0-1-4       | 0-1-5,7-1-3 | 0-1-4",
      "0-2-5       | 0-1-5       | ''        | 0-2-5",
  })
  void aMariaDbWatermarkSplitsByWhatThePrimaryHas(String watermark, String has, String missing, String kept) {
    MariaDbGtidPosition w = MariaDbGtidPosition.parse(watermark);
    MariaDbGtidPosition h = MariaDbGtidPosition.parse(has);
    assertThat(w.notCoveredBy(h)).hasToString(missing);
    assertThat(w.coveredPartOf(h)).hasToString(kept);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {"g/U:1-5:7-9 | 2 | 1", "d/0-1-5,3-1-2 | 2 | 2", "d/ | 0 | 0"})
  void sizesInTokens(String p, int intervals, int sources) {
    Position x = of(p.trim());
    assertThat(x.intervalCount()).isEqualTo(intervals);
    assertThat(x.sourceCount()).isEqualTo(sources);
    assertThat(x.spanned().contains(x)).isTrue();
  }
}
