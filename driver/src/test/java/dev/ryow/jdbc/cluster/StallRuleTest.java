package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
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

  static Stream<Arguments> stalls() {
    GtidSet at = GtidSet.parse(U + ":1-5");
    GtidSet sameContent = GtidSet.parse(U + ":1-5");
    GtidSet lacked = GtidSet.parse(U + ":1-9");
    GtidSet inFlight = at.union(GtidSet.parse(U + ":6"));
    GtidSet caughtUp = at.union(GtidSet.parse(U + ":6-12"));
    long since = 1_000;
    long soon = since + StallRule.RELEASE_NANOS / 2;
    long late = since + StallRule.RELEASE_NANOS;
    return Stream.of(
        Arguments.of("never stalled", null, at, soon, false),
        Arguments.of("not advanced", at, at, soon, true),
        Arguments.of("not advanced, however long", at, at, late + StallRule.RELEASE_NANOS, true),
        Arguments.of("advanced by what its applier had under way, still lacks the set", at, inFlight, soon, true),
        Arguments.of("advanced to the set it lacked", at, caughtUp, soon, false),
        Arguments.of("advanced, never got the set, released after RELEASE_NANOS", at, inFlight, late, false),
        Arguments.of("a reset replaced the position with one of the same content", at, sameContent, soon, true));
  }

  @ParameterizedTest(name = "[{index}] {0} -> stalled {4}")
  @MethodSource("stalls")
  void stalledUntilItHasWhatItLackedOrLongAfterItAdvanced(String why, GtidSet stalledAt, GtidSet known, long now,
      boolean stalled) {
    assertThat(StallRule.stalled(stalledAt, GtidSet.parse(U + ":1-9"), 1_000, known, now)).as(why).isEqualTo(stalled);
  }

  @Test
  void aUnionAddingNothingKeepsTheInstance() {
    GtidSet a = GtidSet.parse(U + ":1-5");
    assertThat(a.union(GtidSet.parse(U + ":3"))).isSameAs(a);
  }

  private final ReplicaEndpoint r = new ReplicaEndpoint(new HostSpec("r", 3306), 1, 2);

  private void poll(String executed, boolean behind) {
    r.behind(behind, Positions.EMPTY);
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
    assertThat(r.stalled()).as("it advanced (still behind; what it lacked is not given: any advance ends it)").isFalse();
    assertThat(r.stalledSinceNanos()).isZero();
  }

  @Test
  void aTimedOutWaitStallsItUntilItHasTheSetTheWaitDidNotReach() {
    poll("1-5", false);
    Position lacked = GtidSet.parse(U + ":1-9");
    assertThat(r.waitMissed(false, lacked)).as("NULL or an error").isFalse();
    assertThat(r.waitMissed(true, lacked)).isTrue();
    poll("1-5", false);
    assertThat(r.stalled()).as("a poll that finds nothing new does not end it").isTrue();
    poll("1-6", false);
    assertThat(r.stalled()).as("its stopped applier committed what it had under way: still lacks 1-9").isTrue();
    r.learn(GtidSet.parse(U + ":1-9"), "u1");
    assertThat(r.stalled()).as("a wait elsewhere on this server reached 1-9").isFalse();
    assertThat(r.stalledSinceNanos()).isZero();
  }

  @Test
  void aTimedOutWaitDuringWhichItAdvancedStallsItAtItsNewPosition() {
    poll("1-5", false);
    poll("1-6", false);
    assertThat(r.waitMissed(true, GtidSet.parse(U + ":1-9"))).isTrue();
    poll("1-8", false);
    assertThat(r.stalled()).isTrue();
    poll("1-10", false);
    assertThat(r.stalled()).isFalse();
  }

  @Test
  void aQuietPollStallsItUntilItHasWhatThePrimaryHadTheRoundBefore() {
    poll("1-5", false);
    GtidSet primaryBefore = GtidSet.parse(U + ":1-8");
    r.behind(true, primaryBefore);
    observe("1-5");
    assertThat(r.stalled()).as("quiet for a round while behind 1-8").isTrue();
    r.behind(true, primaryBefore);
    observe("1-7");
    assertThat(r.stalled()).as("advanced, still without 1-8").isTrue();
    r.behind(false, primaryBefore);
    observe("1-8");
    assertThat(r.stalled()).isFalse();
  }

  @Test
  void aResetOfItsPositionEndsTheStall() {
    poll("1-5", false);
    assertThat(r.waitMissed(true, GtidSet.parse(U + ":1-9"))).isTrue();
    r.observe(new ServerStatus("u2", GtidSet.parse(U + ":1-5"), true, 1, true, true, 0, "", true), r.knownExecuted(),
        System.nanoTime());
    assertThat(r.stalled()).as("another server now: nothing known of its progress").isFalse();
  }

  private void observe(String executed) {
    r.observe(new ServerStatus("u1", GtidSet.parse(U + ":" + executed), true, 1, true, true, 0, "", true),
        r.knownExecuted(), System.nanoTime());
  }
}
