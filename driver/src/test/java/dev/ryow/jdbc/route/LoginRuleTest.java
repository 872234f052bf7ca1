package dev.ryow.jdbc.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.route.LoginRule.Login;
import dev.ryow.jdbc.route.LoginRule.PrimaryOutcome;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The login rule's whole table: every outcome with no other server, one, and several. Changing,
 * adding or removing a row of either the rule or the table fails it.
 */
class LoginRuleTest {
  /** outcome | other servers | login. */
  private static final String TABLE = """
      NO_WRITABLE_SERVER | 0 | FAIL
      NO_WRITABLE_SERVER | 1 | ON_REPLICAS
      NO_WRITABLE_SERVER | 8 | ON_REPLICAS
      REFUSED            | 0 | FAIL
      REFUSED            | 1 | FAIL
      REFUSED            | 8 | FAIL
      """;

  @Test
  void theRuleIsExactlyTheTable() {
    Map<String, Login> expected = new TreeMap<>();
    TABLE.lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(line -> {
      String[] c = line.split("\\s*\\|\\s*");
      expected.put(c[0] + "/" + c[1], Login.valueOf(c[2]));
    });
    Map<String, Login> actual = new TreeMap<>();
    for (PrimaryOutcome outcome : PrimaryOutcome.values()) {
      for (int others : new int[] {0, 1, 8}) {
        actual.put(outcome + "/" + others, LoginRule.decide(outcome, others));
      }
    }
    assertThat(actual).isEqualTo(expected);
  }
}
