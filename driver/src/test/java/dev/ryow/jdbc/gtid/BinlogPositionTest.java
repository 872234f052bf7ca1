package dev.ryow.jdbc.gtid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BinlogPositionTest {
  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String B = "4f22ab58-82db-22f2-af44-d91bb0530673";

  @ParameterizedTest(name = "{0} contains {1}: {2}")
  @CsvSource(delimiter = '|', value = {
    "A:binlog.000012:500 | A:binlog.000012:400 | true",
    "A:binlog.000012:500 | A:binlog.000012:500 | true",
    "A:binlog.000012:400 | A:binlog.000012:500 | false",
    "A:binlog.000013:4   | A:binlog.000012:900 | true",
    "A:binlog.000012:900 | A:binlog.000013:4   | false",
    "A:binlog.999999:4   | A:binlog.1000000:4  | false",
    "A:binlog.000012:500 | B:binlog.000012:400 | false",
    "B:binlog.000012:400 | A:binlog.000012:500 | false",
    "A:binlog.000012:500 | A:other.000001:4    | false",
    "A:binlog.000012:500 | ''                  | true",
    "''                  | A:binlog.000001:4   | false",
  })
  void orderedByFileSequenceThenOffsetWithinOnePrimary(String a, String b, boolean contains) {
    assertThat(p(a).contains(p(b))).isEqualTo(contains);
  }

  @Test
  void unionIsTheLaterPositionOrTheNewPrimarysOne() {
    BinlogPosition early = p("A:binlog.000012:400");
    BinlogPosition late = p("A:binlog.000013:4");
    assertThat(early.union(late)).isSameAs(late);
    assertThat(late.union(early)).isSameAs(late);
    BinlogPosition other = p("B:binlog.000001:4");
    assertThat(late.union(other)).as("after a failover the new primary's position replaces the old").isSameAs(other);
    assertThat(BinlogPosition.EMPTY.union(late)).isSameAs(late);
    assertThat(late.union(BinlogPosition.EMPTY)).isSameAs(late);
  }

  @Test
  void textRoundTripsAndNamesTheKind() {
    BinlogPosition pos = BinlogPosition.of(A.toUpperCase(java.util.Locale.ROOT), "binlog.000012", 4711);
    assertThat(pos.toString()).isEqualTo(A + ":binlog.000012:4711");
    assertThat(BinlogPosition.parse(pos.toString())).isEqualTo(pos);
    assertThat(pos.primaryUuid()).isEqualTo(A);
    assertThat(pos.file()).isEqualTo("binlog.000012");
    assertThat(pos.offset()).isEqualTo(4711);
    assertThat(pos.kind()).isEqualTo(PositionKind.BINLOG_POSITION);
    assertThat(PositionKind.ofTag('b').parse(pos.toString(), 200)).isEqualTo(pos);
    assertThat(BinlogPosition.parse("")).isSameAs(BinlogPosition.EMPTY);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "A:binlog.000012",
    "A:binlog:12",
    "A:.000012:12",
    "A:binlog.:12",
    "A:binlog.00a:12",
    "A:binlog.000012:-1",
    "A:binlog.000012:",
    "not-a-uuid:binlog.000012:4",
    "A:bin,log.000012:4",
  })
  void malformedTextIsRefused(String text) {
    assertThatThrownBy(() -> p(text)).isInstanceOf(MalformedGtidSetException.class)
        .hasMessageContaining("binlog position");
  }

  @Test
  void tooLongIsRefusedBeforeParsing() {
    assertThatThrownBy(() -> BinlogPosition.parse(A + ":binlog.000012:4711", 20))
        .isInstanceOf(MalformedGtidSetException.class).hasMessageContaining("longer than 20");
  }

  private static BinlogPosition p(String text) {
    return BinlogPosition.parse(text.replace("A:", A + ":").replace("B:", B + ":"));
  }
}
