package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.server.ServerStatus;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** "Will a wait on this replica fail?": the rule, then a replica's stall episodes as polls and waits see them. */
class StallRuleTest {
  private static final String U = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

  static Stream<Arguments> polls() {
    return Stream.of(
        // advanced since the last poll, behind the primary's previous round, in rotation -> stalled
        Arguments.of(false, true, true, true),
        Arguments.of(true, true, true, false),   // it applies, with a delay: waits are worth it
        Arguments.of(false, false, true, false), // quiet, but so is the primary: nothing to wait for
        Arguments.of(true, false, true, false),
        Arguments.of(false, true, false, false)); // out of rotation: never waited on anyway
  }

  @ParameterizedTest(name = "[{index}] advanced {0}, behind {1}, in rotation {2} -> stalled {3}")
  @MethodSource("polls")
  void byPoll(boolean advanced, boolean behind, boolean inRotation, boolean stalled) {
    assertThat(StallRule.stalledByPoll(advanced, behind, inRotation)).isEqualTo(stalled);
  }

  @Test
  void byWaitOnlyATimeoutSaysItIsNotAdvancing() {
    assertThat(StallRule.stalledByWait(true)).isTrue();
    assertThat(StallRule.stalledByWait(false)).as("NULL or an error").isFalse();
  }

  @Test
  void stalledWhileTheKnownPositionIsTheVeryOneItStalledAt() {
    GtidSet a = GtidSet.parse(U + ":1-5");
    GtidSet sameContent = GtidSet.parse(U + ":1-5");
    assertThat(StallRule.stalled(null, a)).isFalse();
    assertThat(StallRule.stalled(a, a)).isTrue();
    assertThat(StallRule.stalled(a, a.union(GtidSet.parse(U + ":6")))).as("it advanced").isFalse();
    assertThat(StallRule.stalled(a, sameContent)).as("a reset replaced the position").isFalse();
    assertThat(a.union(GtidSet.parse(U + ":3"))).as("a union adding nothing keeps the instance").isSameAs(a);
  }

  private final ReplicaEndpoint r = new ReplicaEndpoint(new HostSpec("r", 3306), 1, 2);

  private void poll(String executed, boolean behind) {
    r.behind(behind);
    r.observe(new ServerStatus("u1", GtidSet.parse(U + ":" + executed), true, 1, true, true, 0, "", true),
        r.knownExecuted(), System.nanoTime());
  }

  @Test
  void aQuietPollWhileBehindStallsItAndTheNextAdvanceEndsIt() {
    poll("1-5", false);
    assertThat(r.stalled()).as("first poll: it advanced from nothing").isFalse();
    poll("1-5", false);
    assertThat(r.stalled()).as("quiet, not behind").isFalse();
    poll("1-5", true);
    assertThat(r.stalled()).as("quiet for a round while behind").isTrue();
    assertThat(r.stalledSinceNanos()).isNotZero();
    poll("1-5", true);
    assertThat(r.stalled()).isTrue();
    poll("1-6", true);
    assertThat(r.stalled()).as("it advanced (still behind)").isFalse();
    assertThat(r.stalledSinceNanos()).isZero();
  }

  @Test
  void aTimedOutWaitStallsItUntilAWaitOrPollShowsItAdvanced() {
    poll("1-5", false);
    Position before = r.knownExecuted();
    assertThat(r.waitMissed(false, before)).as("NULL or an error").isFalse();
    assertThat(r.waitMissed(true, before)).isTrue();
    poll("1-5", false);
    assertThat(r.stalled()).as("a poll that finds nothing new does not end it").isTrue();
    r.learn(GtidSet.parse(U + ":1-7"), "u1");
    assertThat(r.stalled()).as("a wait elsewhere on this server reached 1-7").isFalse();
  }

  @Test
  void aTimedOutWaitDuringWhichItAdvancedDoesNotStallIt() {
    poll("1-5", false);
    Position before = r.knownExecuted();
    poll("1-6", false);
    assertThat(r.waitMissed(true, before)).isFalse();
    assertThat(r.stalled()).isFalse();
  }
}
