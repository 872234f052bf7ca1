package dev.ryow.jdbc.gtid;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Restricting a set to the UUIDs another set names ({@link GtidSet#byUuidsOf}, {@link GtidSet#namesUuidsOf}). */
class GtidSetByUuidTest {
  private static final String A = "11111111-1111-1111-1111-111111111111";
  private static final String B = "22222222-2222-2222-2222-222222222222";
  private static final String C = "33333333-3333-3333-3333-333333333333";

  private static GtidSet s(String text) {
    return GtidSet.parse(text);
  }

  @Test
  void namesUuidsIgnoresIntervalsAndTags() {
    assertThat(s(A + ":7").namesUuidsOf(s(A + ":1-100:t:5"), GtidSet.EMPTY)).isTrue();
    assertThat(s(A + ":t:7").namesUuidsOf(s(A + ":1"), GtidSet.EMPTY)).as("a tagged GTID names its UUID").isTrue();
    assertThat(s(A + ":7").namesUuidsOf(s(A + ":1," + B + ":1"), GtidSet.EMPTY)).isFalse();
    assertThat(s(A + ":7").namesUuidsOf(s(A + ":1," + B + ":1"), s(B + ":9"))).as("either set may name it").isTrue();
    assertThat(GtidSet.EMPTY.namesUuidsOf(GtidSet.EMPTY, GtidSet.EMPTY)).isTrue();
    assertThat(GtidSet.EMPTY.namesUuidsOf(s(C + ":1"), GtidSet.EMPTY)).isFalse();
  }

  @Test
  void keepsOrDropsWholeUuids() {
    GtidSet all = s(A + ":1-5:t:1," + B + ":1-3," + C + ":4");
    assertThat(all.byUuidsOf(s(A + ":1"), s(C + ":9"), true)).isEqualTo(s(A + ":1-5:t:1," + C + ":4"));
    assertThat(all.byUuidsOf(s(A + ":1"), s(C + ":9"), false)).isEqualTo(s(B + ":1-3"));
    assertThat(all.byUuidsOf(s(A + ":1," + B + ":1"), s(C + ":1"), true)).as("all kept: the set itself").isSameAs(all);
    assertThat(all.byUuidsOf(GtidSet.EMPTY, GtidSet.EMPTY, true)).isSameAs(GtidSet.EMPTY);
    assertThat(all.byUuidsOf(GtidSet.EMPTY, GtidSet.EMPTY, false)).isSameAs(all);
  }
}
