package dev.ryow.jdbc.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.route.PrimaryWaitRule.Trouble;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The primary wait rule's table: what the attempt on the primary saw, when the statement began to wait
 * and when the outage was found (seconds on one clock, "-" when no round found it lost), now, and
 * {@code ryow.failoverTimeout}; the milliseconds left. Changing a row of the rule or the table fails it.
 */
class PrimaryWaitRuleTest {
  /** trouble | waiting since s | lost since s | now s | failoverTimeout ms | left ms. */
  private static final String TABLE = """
      READ_ONLY   | 100 | -   | 100   | 30000 | 30000
      READ_ONLY   | 100 | 90  | 105   | 30000 | 25000
      READ_ONLY   | 100 | -   | 131   | 30000 | -1000
      UNREACHABLE | 100 | -   | 100   | 30000 | 2000
      UNREACHABLE | 100 | -   | 101.5 | 30000 | 500
      UNREACHABLE | 100 | 101 | 101.5 | 30000 | 500
      UNREACHABLE | 100 | 99  | 100   | 30000 | 1000
      UNREACHABLE | 100 | 90  | 100   | 30000 | -8000
      UNREACHABLE | 100 | -   | 100   | 1000  | 1000
      UNREACHABLE | 100 | 99.5 | 100   | 1000  | 500
      UNREACHABLE | 100 | -   | 100   | 0     | 0
      """;

  private static long nanos(String seconds) {
    return Math.round(Double.parseDouble(seconds) * 1e9);
  }

  @Test
  void theRuleIsExactlyTheTable() {
    List<String> expected = new ArrayList<>();
    List<String> actual = new ArrayList<>();
    // A clock near the wrap of nanoTime: the rule compares differences only.
    long origin = Long.MAX_VALUE - nanos("95");
    TABLE.lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(line -> {
      String[] c = line.split("\\s*\\|\\s*");
      expected.add(line.replaceAll("\\s+", " "));
      long lost = "-".equals(c[2]) ? 0 : origin + nanos(c[2]);
      long left = PrimaryWaitRule.leftMillis(Trouble.valueOf(c[0]), origin + nanos(c[1]), lost, origin + nanos(c[3]),
          Long.parseLong(c[4]));
      actual.add((String.join(" | ", c[0], c[1], c[2], c[3], c[4]) + " | " + left).replaceAll("\\s+", " "));
    });
    assertThat(actual).isEqualTo(expected);
  }

  @Test
  void aSwitchoverIsWaitedForUpToTheFailoverTimeoutAndADeathForTheShortBound() {
    assertThat(PrimaryWaitRule.why(Trouble.READ_ONLY)).isEqualTo(PrimaryWaitRule.Why.SWITCHOVER);
    assertThat(PrimaryWaitRule.why(Trouble.UNREACHABLE)).isEqualTo(PrimaryWaitRule.Why.DEATH);
  }

  @Test
  void aReadOnlyPrimaryIsASwitchoverOnlyWhileEveryHostAnswers() {
    // answered read-only | a round missed a host | trouble
    assertThat(PrimaryWaitRule.trouble(true, false)).isEqualTo(Trouble.READ_ONLY);
    assertThat(PrimaryWaitRule.trouble(true, true)).as("a demoted primary answers; the real one died")
        .isEqualTo(Trouble.UNREACHABLE);
    assertThat(PrimaryWaitRule.trouble(false, false)).isEqualTo(Trouble.UNREACHABLE);
    assertThat(PrimaryWaitRule.trouble(false, true)).isEqualTo(Trouble.UNREACHABLE);
  }
}
