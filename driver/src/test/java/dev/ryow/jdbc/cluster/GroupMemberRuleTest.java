package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.GroupMemberRule.Member;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The group member rule's whole table over every {@code MEMBER_STATE} and {@code MEMBER_ROLE} the server
 * reports (and an empty role): the rows listed here are taken in, every other combination is ignored.
 */
class GroupMemberRuleTest {
  private static final String[] STATES = {"ONLINE", "RECOVERING", "OFFLINE", "ERROR", "UNREACHABLE"};
  private static final String[] ROLES = {"PRIMARY", "SECONDARY", ""};

  /** state | role | what discovery does. */
  private static final String TABLE = """
      ONLINE     | PRIMARY   | ADOPT_AND_TRY
      ONLINE     | SECONDARY | ADOPT
      ONLINE     |           | ADOPT
      RECOVERING | PRIMARY   | ADOPT
      RECOVERING | SECONDARY | ADOPT
      RECOVERING |           | ADOPT
      """;

  @Test
  void theRuleIsExactlyTheTable() {
    Map<String, Member> expected = new TreeMap<>();
    for (String state : STATES) {
      for (String role : ROLES) {
        expected.put(state + "/" + role, Member.IGNORE);
      }
    }
    TABLE.lines().filter(l -> !l.isBlank()).forEach(line -> {
      String[] c = line.split("\\|", -1);
      expected.put(c[0].strip() + "/" + c[1].strip(), Member.valueOf(c[2].strip()));
    });
    Map<String, Member> actual = new TreeMap<>();
    for (String state : STATES) {
      for (String role : ROLES) {
        actual.put(state + "/" + role, GroupMemberRule.decide(state, role));
      }
    }
    assertThat(actual).isEqualTo(expected);
  }
}
