package dev.ryow.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The read-heavy page's mix, and that every read's statement is one the servers' digest count finds. */
class PageReadTest {

  @Test
  void aReadHeavyPageOfSixteenReadsHasTwelveKeyReadsTwoRangesAndTwoJoins() {
    Map<PageRead, Integer> kinds = new EnumMap<>(PageRead.class);
    for (int k = 0; k < PageRead.READ_HEAVY_READS; k++) {
      kinds.merge(PageRead.of(k, true), 1, Integer::sum);
    }
    assertThat(kinds).containsExactlyInAnyOrderEntriesOf(Map.of(PageRead.KEY, 12, PageRead.RANGE, 2, PageRead.JOIN, 2));
    // The read right after the write is a key read of the new row.
    assertThat(PageRead.of(0, true)).isEqualTo(PageRead.KEY);
    for (int k = 0; k < 16; k++) {
      assertThat(PageRead.of(k, false)).isEqualTo(PageRead.KEY);
    }
  }

  @Test
  void everyReadStartsSelectSomethingFromTheTableAsTheDigestCountExpects() {
    for (PageRead r : PageRead.values()) {
      assertThat(r.sql("wl_t")).startsWith("SELECT ").contains(" FROM wl_t ");
    }
    assertThat(PageRead.KEY.sql("wl_t")).isEqualTo("SELECT v FROM wl_t WHERE id = ?");
  }
}
