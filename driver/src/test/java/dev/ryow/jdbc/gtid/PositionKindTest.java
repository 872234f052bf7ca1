package dev.ryow.jdbc.gtid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link PositionKind}: tags are unique and round-trip, each kind parses its own canonical text strictly. */
class PositionKindTest {

  @Test
  void everyTagNamesItsKindAndNoOther() {
    for (PositionKind k : PositionKind.values()) {
      assertThat(PositionKind.ofTag(k.tag())).isSameAs(k);
    }
  }

  @Test
  void anUnknownTagIsRefusedWithTheKnownOnes() {
    assertThatThrownBy(() -> PositionKind.ofTag('\n'))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'\\n'")
        .hasMessageContaining("g = GTID_SET").hasMessageContaining("d = MARIADB_GTID");
  }

  @Test
  void aGtidSetRoundTripsThroughItsKind() {
    GtidSet set = GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7");
    assertThat(set.kind()).isEqualTo(PositionKind.GTID_SET);
    assertThat(PositionKind.GTID_SET.parse(set.toString(), 1000)).isEqualTo(set);
    assertThatThrownBy(() -> PositionKind.GTID_SET.parse(set.toString(), 10))
        .isInstanceOf(MalformedGtidSetException.class);
  }
}
