package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.gtid.BinlogPosition;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The lost-GTID rule's table (what is missing now, what was suspected and when, now in ms, whether the
 * primary moved), and a suspicion's life: a commit still in flight is never forgotten, a real loss is
 * forgotten once it stayed missing while a commit settles, or at once after a move; a binary-log position
 * (no GTIDs) is never in flight, and is forgotten at once.
 */
class LostGtidRuleTest {
  private static final String U = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

  /** missing | suspected | suspected at ms | now ms | moved | verdict. */
  private static final String TABLE = """
      -     | -     | 0    | 5000 | false | CLEAR
      -     | 5     | 1000 | 5000 | false | CLEAR
      -     | -     | 0    | 5000 | true  | CLEAR
      5     | -     | 0    | 5000 | false | SUSPECT
      5     | -     | 0    | 5000 | true  | FORGET
      5     | 5     | 4500 | 5000 | false | SUSPECT
      5     | 5     | 4000 | 5000 | false | FORGET
      5     | 5-6   | 1000 | 5000 | false | FORGET
      5-6   | 5     | 1000 | 5000 | false | SUSPECT
      5-6   | 5     | 4900 | 5000 | true  | FORGET
      b:9   | -     | 0    | 5000 | false | FORGET
      b:9   | b:9   | 4900 | 5000 | false | FORGET
      """;

  /** {@code -}: nothing; {@code b:N}: offset N of binlog.000002 (no GTIDs); else intervals of one UUID. */
  private static Position gtids(String intervals) {
    if (intervals.startsWith("b:")) {
      return BinlogPosition.of(U, "binlog.000002", Long.parseLong(intervals.substring(2)));
    }
    return "-".equals(intervals) ? GtidSet.EMPTY : GtidSet.parse(U + ":" + intervals);
  }

  private static long ms(String millis) {
    return Long.parseLong(millis) * 1_000_000L;
  }

  @Test
  void theRuleIsExactlyTheTable() {
    List<String> expected = new ArrayList<>();
    List<String> actual = new ArrayList<>();
    long origin = Long.MAX_VALUE - ms("2000"); // differences only, across the wrap of nanoTime
    TABLE.lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(line -> {
      String[] c = line.split("\\s*\\|\\s*");
      expected.add(String.join(" | ", c));
      LostGtidRule.Verdict v = LostGtidRule.decide(gtids(c[0]), gtids(c[1]), origin + ms(c[2]), origin + ms(c[3]),
          Boolean.parseBoolean(c[4]));
      actual.add(String.join(" | ", c[0], c[1], c[2], c[3], c[4], v.name()));
    });
    assertThat(actual).isEqualTo(expected);
  }

  @Test
  void aCommitInFlightIsSuspectedThenClearedAndNeverForgotten() {
    LostGtidSuspicion s = new LostGtidSuspicion();
    long t = 42;
    assertThat(s.due(t)).isTrue();
    assertThat(s.check(gtids("7"), t, false)).isEqualTo(LostGtidRule.Verdict.SUSPECT);
    assertThat(s.due(t + ms("200"))).as("no round trip while the commit settles").isFalse();
    // The primary's gtid_executed shows it a moment later: nothing was lost.
    assertThat(s.check(gtids("-"), t + ms("1200"), false)).isEqualTo(LostGtidRule.Verdict.CLEAR);
    assertThat(s.due(t + ms("1300"))).isTrue();
    // A new in-flight GTID later starts a new suspicion, not an old one's clock.
    assertThat(s.check(gtids("8"), t + ms("5000"), false)).isEqualTo(LostGtidRule.Verdict.SUSPECT);
  }

  @Test
  void aRealLossIsForgottenOnceItStayedMissingOrAtOnceAfterAMove() {
    LostGtidSuspicion s = new LostGtidSuspicion();
    long t = 42;
    assertThat(s.check(gtids("7"), t, false)).isEqualTo(LostGtidRule.Verdict.SUSPECT);
    assertThat(s.check(gtids("7"), t + ms("500"), false)).as("too soon").isEqualTo(LostGtidRule.Verdict.SUSPECT);
    assertThat(s.check(gtids("7"), t + ms("1000"), false)).as("the suspicion's clock was kept")
        .isEqualTo(LostGtidRule.Verdict.FORGET);
    assertThat(s.due(t + ms("1001"))).as("the suspicion ended").isTrue();
    assertThat(new LostGtidSuspicion().check(gtids("7"), t, true)).isEqualTo(LostGtidRule.Verdict.FORGET);
  }
}
