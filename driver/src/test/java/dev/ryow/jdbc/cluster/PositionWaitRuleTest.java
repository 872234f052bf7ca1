package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PositionWaitRuleTest {

  @ParameterizedTest(name = "sources [{0}] -> {1}")
  @CsvSource(delimiter = '|', value = {
    "p    | true  | ''",
    "r1   | false | 'it replicates from r1, not directly from the primary p: a binlog position is valid only on direct replicas'",
    "p s2 | false | 'it replicates over 2 channels: a binlog position names one source''s log'",
    "     | false | 'its source is not known (no connected channel)'",
  })
  void onlyADirectSingleChannelReplicaIsWaitedOnWithAPosition(String sources, boolean eligible, String why) {
    List<String> s = sources == null ? List.of() : Arrays.asList(sources.split(" "));
    PositionWaitRule r = PositionWaitRule.of("p", s);
    assertThat(r.eligible()).isEqualTo(eligible);
    assertThat(r.why()).isEqualTo(why);
  }
}
