package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.server.ServerPosition;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** "Which part of what a server showed may bound later reads?" as a table (issue 28: multi-source replicas). */
class ClusterGtidsTest {
  /** The primary, an old primary, another channel's source, a UUID new to the primary. */
  private static final String P = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String OLD = "11111111-1111-1111-1111-111111111111";
  private static final String S = "99999999-9999-9999-9999-999999999999";
  private static final String NEW = "44444444-4444-4444-4444-444444444444";
  private static final String UNDECIDED = "undecided";

  private static String p(String intervals) {
    return P + ":" + intervals;
  }

  static Stream<Arguments> rows() {
    return Stream.of(
        // seen executed, seen owned, knownOnPrimary, primary poll after (null: none), foreign -> kept executed, owned
        // the common case: every UUID named by what the primary is known to have
        Arguments.of(p("1-120"), p("121"), p("1-100"), null, "", p("1-120"), p("121")),
        Arguments.of(OLD + ":1-5," + p("1-120"), "", OLD + ":1-5," + p("1-100"), null, "",
            OLD + ":1-5," + p("1-120"), ""),
        // another channel's source: undecided until a poll of the primary sent after the position...
        Arguments.of(p("1-120") + "," + S + ":1-50", "", p("1-100"), null, "", UNDECIDED, ""),
        // ...which does not name it: dropped, executed and owned alike
        Arguments.of(p("1-120") + "," + S + ":1-50", S + ":51", p("1-100"), p("1-130"), "", p("1-120"), ""),
        // ...or confirmed foreign before: dropped without a poll
        Arguments.of(p("1-120") + "," + S + ":1-60", "", p("1-100"), null, S + ":1-50", p("1-120"), ""),
        // tagged GTIDs of a foreign UUID go with it; tagged GTIDs of the primary's UUID stay
        Arguments.of(p("1-120:tag_a:1-3") + "," + S + ":1-5:t:1-2", "", p("1-100"), p("1-130"), "",
            p("1-120:tag_a:1-3"), ""),
        // a UUID new to the primary since its last poll (failover; a channel into the primary): never
        // dropped on a guess, even with another foreign UUID confirmed
        Arguments.of(p("1-120") + "," + NEW + ":1-3", "", p("1-100"), null, S + ":1-9", UNDECIDED, ""),
        // ...kept once a later poll of the primary names it (executed or owned)
        Arguments.of(p("1-120") + "," + NEW + ":1-3", "", p("1-100"), NEW + ":1-4," + p("1-130"), "",
            p("1-120") + "," + NEW + ":1-3", ""),
        Arguments.of(p("1-120"), NEW + ":1", p("1-100"), NEW + ":1", "", p("1-120"), NEW + ":1"),
        // after a failover the known set is cleared: nothing is dropped until the new primary was polled
        Arguments.of(p("1-120"), "", "", null, "", UNDECIDED, ""),
        Arguments.of(p("1-120") + "," + NEW + ":1-3", "", "", p("1-120") + "," + NEW + ":1-5", "",
            p("1-120") + "," + NEW + ":1-3", ""),
        // a UUID once foreign that the primary now has (a failover to the multi-source replica): kept
        Arguments.of(p("1-120") + "," + S + ":1-50", "", p("1-100") + "," + S + ":1-40", null, S + ":1-30",
            p("1-120") + "," + S + ":1-50", ""),
        // nothing of the cluster at all: all dropped
        Arguments.of(S + ":1-50", "", p("1-100"), p("1-100"), "", "", ""));
  }

  @ParameterizedTest(name = "[{index}] {0} / {1} -> {5} / {6}")
  @MethodSource("rows")
  void keepsTheClustersUuids(String executed, String owned, String known, @Nullable String after, String foreign,
      String keptExecuted, String keptOwned) {
    ServerPosition kept = ClusterGtids.ofCluster(position(executed, owned), GtidSet.parse(known),
        after == null ? null : GtidSet.parse(after), GtidSet.parse(foreign));
    if (UNDECIDED.equals(keptExecuted)) {
      assertThat(kept).isNull();
      return;
    }
    assertThat(kept).isNotNull();
    assertThat(kept.executed()).isEqualTo(GtidSet.parse(keptExecuted));
    assertThat(kept.owned()).isEqualTo(GtidSet.parse(keptOwned));
  }

  @Test
  void nothingForeignReturnsThePositionItself() {
    ServerPosition seen = position(OLD + ":1-5," + p("1-120"), p("121"));
    assertThat(ClusterGtids.ofCluster(seen, GtidSet.parse(OLD + ":1," + p("1-3")), null, GtidSet.EMPTY))
        .isSameAs(seen);
  }

  @Test
  void whatWasDroppedIsOneIntervalPerForeignSource() {
    ServerPosition seen = position(p("1-120") + "," + S + ":1-5:9-12", S + ":13");
    ServerPosition kept = ClusterGtids.ofCluster(seen, GtidSet.parse(p("1-100")), GtidSet.parse(p("1-130")),
        GtidSet.EMPTY);
    assertThat(kept).isNotNull();
    assertThat(ClusterGtids.dropped(seen, kept)).isEqualTo(GtidSet.parse(S + ":1-13"));
  }

  private static ServerPosition position(String executed, String owned) {
    return new ServerPosition(GtidSet.parse(executed), GtidSet.parse(owned));
  }
}
