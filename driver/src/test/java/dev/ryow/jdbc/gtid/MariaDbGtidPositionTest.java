package dev.ryow.jdbc.gtid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link MariaDbGtidPosition}: strict text, and per-domain high-water-mark semantics (not set containment). */
class MariaDbGtidPositionTest {

  @ParameterizedTest(name = "''{0}'' -> ''{1}''")
  @CsvSource(delimiter = '|', value = {
      "''|''",
      "'  '|''",
      "0-1-5|0-1-5",
      "1-2-3,0-1-5|0-1-5,1-2-3",
      "' 0-1-5 , 1-1-0 '|0-1-5,1-1-0",
      "4294967295-4294967295-9223372036854775807|4294967295-4294967295-9223372036854775807",
  })
  void parsesAndPrintsCanonically(String text, String canonical) {
    MariaDbGtidPosition p = MariaDbGtidPosition.parse(text);
    assertThat(p.toString()).isEqualTo(canonical);
    assertThat(MariaDbGtidPosition.parse(p.toString())).isEqualTo(p);
    assertThat(PositionKind.MARIADB_GTID.parse(canonical, 100)).isEqualTo(p);
  }

  @ParameterizedTest(name = "''{0}'': {1}")
  @CsvSource(delimiter = '|', value = {
      "0-1|expected '-'",
      "0-1-|sequence number expected",
      "-1-5|domain id expected",
      "0-1-5,|a GTID expected after ','",
      "0-1-5,,1-1-1|domain id expected",
      "0-1-5 1-1-1|expected ',' or the end",
      "0-1-5,0-2-6|a second GTID of domain 0",
      "00-1-5|domain id with a leading zero",
      "4294967296-1-5|domain id larger than 4294967295",
      "0-4294967296-5|server id larger than 4294967295",
      "0-1-9223372036854775808|sequence number larger than",
      "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5|expected '-'",
      "0-1-5x|expected ',' or the end",
  })
  void refusesWhatMariaDbWouldNotPrint(String text, String problem) {
    assertThatThrownBy(() -> MariaDbGtidPosition.parse(text))
        .isInstanceOf(MalformedGtidSetException.class)
        .hasMessageStartingWith("Malformed MariaDB GTID position: ")
        .hasMessageContaining(problem);
  }

  @ParameterizedTest(name = "{0} contains {1}: {2}")
  @CsvSource(delimiter = '|', value = {
      // a higher seq_no in the domain covers the lower ones, gaps included
      "0-1-9|0-1-5|true",
      "0-1-5|0-1-9|false",
      "0-1-5|0-1-5|true",
      // the server id does not matter (MASTER_GTID_WAIT ignores it too)
      "0-2-9|0-1-5|true",
      "0-2-5|0-1-9|false",
      // every domain of the other must be there
      "0-1-9|0-1-5,1-1-1|false",
      "0-1-9,1-1-1|0-1-5,1-1-1|true",
      "0-1-9,1-1-0|1-1-1|false",
      "1-1-1|''|true",
      "''|''|true",
      "''|0-1-1|false",
  })
  void containsComparesSequenceNumbersPerDomain(String a, String b, boolean expected) {
    assertThat(MariaDbGtidPosition.parse(a).contains(MariaDbGtidPosition.parse(b))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} + {1} = {2}")
  @CsvSource(delimiter = '|', value = {
      "0-1-5|0-1-9|0-1-9",
      "0-1-9|0-2-5|0-1-9",
      "0-1-5|1-1-3|0-1-5,1-1-3",
      "0-1-5,2-1-1|1-1-3,2-1-7|0-1-5,1-1-3,2-1-7",
      "''|0-1-5|0-1-5",
      // a tie keeps this position's GTID
      "0-1-5|0-2-5|0-1-5",
  })
  void unionKeepsTheHigherSequenceNumberPerDomain(String a, String b, String expected) {
    MariaDbGtidPosition pa = MariaDbGtidPosition.parse(a);
    MariaDbGtidPosition pb = MariaDbGtidPosition.parse(b);
    MariaDbGtidPosition u = pa.union(pb);
    assertThat(u.toString()).isEqualTo(expected);
    assertThat(u.contains(pa)).isTrue();
    assertThat(u.contains(pb)).isTrue();
    assertThat(pb.union(pa).contains(u)).isTrue();
  }

  @org.junit.jupiter.api.Test
  void aLongTextIsRefusedBeforeItIsRead() {
    assertThatThrownBy(() -> MariaDbGtidPosition.parse("0-1-5,1-1-5", 5))
        .isInstanceOf(MalformedGtidSetException.class).hasMessageContaining("longer than 5 characters (11)");
    assertThat(MariaDbGtidPosition.parse("0-1-5,1-1-5").seqOf(1)).isEqualTo(5);
    assertThat(MariaDbGtidPosition.parse("0-1-5").seqOf(1)).isEqualTo(-1);
    assertThat(MariaDbGtidPosition.of(0, 1, 5).kind()).isEqualTo(PositionKind.MARIADB_GTID);
  }
}
