package dev.ryow.jdbc.gtid;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link GtidSet#plusNext}: a write's GTID that directly follows the set's one interval extends it
 * without a set of its own, equal to the union; anything else is left to the parser (null).
 */
class GtidSetPlusNextTest {
  private static final String U = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

  @ParameterizedTest(name = "{0} + {1} -> {2}")
  @CsvSource(delimiter = '|', nullValues = "null", value = {
      // the next GTID of the one source: the set with its interval one longer, equal to the union
      U + ":1-5|" + U + ":6|" + U + ":1-6",
      U + ":7|" + U + ":8|" + U + ":7-8",
      // anything else: null, the caller parses (an upper-case UUID too: servers report theirs in lower case)
      U + ":1-5|3E11FA47-71CA-11E1-9E33-C80AA9429562:6|null",
      U + ":1-5|" + U + ":7|null",
      U + ":1-5|" + U + ":5|null",
      U + ":1-5|" + U + ":06|null",
      U + ":1-5|" + U + ":6-7|null",
      U + ":1-5|'" + U + ":6 '|null",
      U + ":1-5|" + U + ":tag:6|null",
      U + ":1-5|4e11fa47-71ca-11e1-9e33-c80aa9429562:6|null",
      U + ":1-5|3e11fa4771ca11e19e33c80aa9429562:6|null",
      U + ":1-3:5|" + U + ":6|null",
      U + ":1-5:tag:1|" + U + ":6|null",
      U + ":1-5,4e11fa47-71ca-11e1-9e33-c80aa9429562:1|" + U + ":6|null",
      U + ":1-5|" + U + ":|null",
      U + ":1-9223372036854775806|" + U + ":9223372036854775807|null",
  })
  void extendsOnlyTheOneIntervalByItsNextGtid(String set, String reported, String expected) {
    GtidSet before = GtidSet.parse(set);
    GtidSet after = before.plusNext(reported);
    if (expected == null) {
      assertThat(after).isNull();
      return;
    }
    assertThat(after).isEqualTo(GtidSet.parse(expected)).isEqualTo(before.union(GtidSet.parse(reported)));
    assertThat(after.toString()).isEqualTo(GtidSet.parse(expected).toString());
  }
}
