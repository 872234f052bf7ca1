package dev.ryow.jdbc.route;

import static dev.ryow.jdbc.route.MonotonicFixture.P;
import static dev.ryow.jdbc.route.MonotonicFixture.U1;
import static dev.ryow.jdbc.route.MonotonicFixture.U2;
import static dev.ryow.jdbc.route.MonotonicFixture.U3;
import static dev.ryow.jdbc.route.MonotonicFixture.gtids;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.Health;
import dev.ryow.jdbc.cluster.PrimaryLoss;
import dev.ryow.jdbc.cluster.ReadWatermark;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.config.SelectionStrategy;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.server.ServerPosition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** "Where may this read run?" for monotonic reads, and the order the selector then tries servers in. */
class MonotonicReadsTest {
  private final MonotonicFixture f;
  private final MonotonicReads planner;
  private final ReadRequirement req = new ReadRequirement();
  private final ReadWatermark jvm = new ReadWatermark();
  private final ReadWatermark[] states;

  MonotonicReadsTest() throws Exception {
    f = new MonotonicFixture();
    planner = new MonotonicReads(f.cluster);
    states = new ReadWatermark[] {jvm};
  }

  private List<ReplicaEndpoint> probes(int n) {
    List<ReplicaEndpoint> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(planner.probe(i));
    }
    return out;
  }

  /** Every replica is behind and missed a wait: predicted stalled. */
  private void everyReplicaStalled() {
    for (ReplicaEndpoint r : List.of(f.r1, f.r2, f.r3)) {
      r.behind(true, Positions.EMPTY);
      assertThat(r.waitMissed(true, r.knownExecuted())).isTrue();
    }
  }

  private int plan(GtidSet writes) {
    return planner.plan(writes, states, 1, req);
  }

  private List<ReplicaEndpoint> order() {
    List<ReplicaEndpoint> servers = f.cluster.servers();
    ReplicaEndpoint[] out = new ReplicaEndpoint[servers.size()];
    int n = ReplicaSelector.order(servers, req, SelectionStrategy.ROUND_ROBIN, 0, out, new long[servers.size()]);
    return Arrays.asList(out).subList(0, n);
  }

  @Test
  void nothingSeenYetAnyReplicaFurthestAheadFirst() {
    f.r1.behind(true, Positions.EMPTY);
    assertThat(plan(GtidSet.EMPTY)).isZero();
    assertThat(req.home()).isNull();
    assertThat(order()).containsExactly(f.r2, f.r3, f.r1);
  }

  @Test
  void aPendingReadKeepsTheScopeOnItsServerWithoutAnyRoundTrip() {
    jvm.observed(U2, f.tick());
    assertThat(plan(GtidSet.EMPTY)).isZero();
    assertThat(req.home()).isSameAs(f.r2);
    assertThat(order()).containsExactly(f.r2);
  }

  @Test
  void aBoundReadMayRunOnAnyServerThatHasTheBoundButItsInFlightSourceNeedsOnlyItsExecutedPart() {
    jvm.observed(U1, f.tick());
    f.poll(f.r1, U1, "1-120", "121");
    f.poll(f.r2, U2, "1-121", "");
    f.poll(f.r3, U3, "1-110", "");
    assertThat(plan(GtidSet.EMPTY)).isZero();
    assertThat(req.home()).isNull();
    assertThat(req.of(f.r1)).isEqualTo(gtids("1-120"));
    assertThat(req.of(f.r2)).isEqualTo(gtids("1-121"));
    assertThat(order()).as("r3 would have to wait for 111-121").containsExactly(f.r1, f.r2, f.r3);
  }

  @Test
  void aHomeThatFellBehindIsLeftAfterReadingItsPosition() throws Exception {
    jvm.observed(U1, f.tick());
    f.r1.behind(true, Positions.EMPTY);
    assertThat(plan(GtidSet.EMPTY)).isEqualTo(1);
    assertThat(probes(1)).containsExactly(f.r1);
    long sent = f.tick();
    planner.probed(f.r1, U1, new ServerPosition(gtids("1-90"), gtids("91")), sent, states, 1);
    planner.finish(GtidSet.EMPTY, states, 1, req);
    assertThat(req.home()).isNull();
    assertThat(req.primaryOnly()).isFalse();
    assertThat(order()).as("r2 and r3 have 1-100 ⊇ 1-91; r1 is behind").containsExactly(f.r2, f.r3, f.r1);
  }

  @Test
  void aHomeThatWouldWaitForTheWritesIsLeftWhenAnotherReplicaHasThem() {
    jvm.observed(U1, f.tick());
    f.poll(f.r2, U2, "1-140", "");
    assertThat(plan(gtids("1-130"))).isEqualTo(1);
    assertThat(probes(1)).containsExactly(f.r1);
  }

  @Test
  void aHomeThatWouldWaitStaysWhenNoOtherReplicaHasTheWrites() {
    jvm.observed(U1, f.tick());
    assertThat(plan(gtids("1-130"))).isZero();
    assertThat(req.home()).isSameAs(f.r1);
    assertThat(req.of(f.r1)).isEqualTo(gtids("1-130"));
  }

  @Test
  void readsPendingOnSeveralServersKeepTheBestAndReadTheOthersPositions() {
    f.poll(f.r2, U2, "1-120", "");
    jvm.observed(U1, f.tick());
    jvm.observed(U2, f.tick());
    jvm.observed(U3, f.tick());
    f.r1.behind(true, Positions.EMPTY);
    int n = plan(gtids("1-110"));
    assertThat(req.home()).as("r2 has the writes; r3 does not; r1 is behind").isSameAs(f.r2);
    assertThat(probes(n)).containsExactlyInAnyOrder(f.r1, f.r3);
  }

  /**
   * Two connections of one JVM, each with its own last read on another replica, and the JVM's reads
   * pending on both: with nothing else to choose by, both pick the same home, so that the JVM's reads
   * gather there instead of staying split (which would cost every read a position read).
   */
  @Test
  void connectionsWhoseLastReadsRanOnDifferentReplicasPickTheSameHome() {
    ReadWatermark connectionA = new ReadWatermark();
    ReadWatermark connectionB = new ReadWatermark();
    connectionA.observed(U3, f.tick());
    jvm.observed(U3, f.tick());
    connectionB.observed(U2, f.tick());
    jvm.observed(U2, f.tick());
    planner.plan(gtids("1-110"), new ReadWatermark[] {connectionA, jvm}, 2, req);
    ReplicaEndpoint homeOfA = req.home();
    planner.plan(gtids("1-110"), new ReadWatermark[] {connectionB, jvm}, 2, req);
    assertThat(req.home()).as("home of connection B").isNotNull().isSameAs(homeOfA).isSameAs(f.r2);
  }

  @Test
  void aReadOnThePrimaryStaysThereWhileEveryReplicaIsStalledElseItsPositionIsRead() {
    jvm.observed(P, f.tick());
    everyReplicaStalled();
    assertThat(plan(GtidSet.EMPTY)).isZero();
    assertThat(req.primaryOnly()).isTrue();
    assertThat(order()).isEmpty();

    f.poll(f.r3, U3, "1-101", "");
    assertThat(f.r3.stalled()).as("it advanced").isFalse();
    assertThat(plan(GtidSet.EMPTY)).as("r3 advances: the primary's position is read, then r3 may serve").isEqualTo(1);
    assertThat(probes(1)).containsExactly(f.primary);
  }

  @Test
  void aReadOnALostPrimaryAsksForItsPositionEvenWhileEveryReplicaIsStalled() {
    jvm.observed(P, f.tick());
    everyReplicaStalled();
    assertThat(plan(GtidSet.EMPTY)).as("the primary answers: the read stays there, no position read").isZero();
    assertThat(req.primaryOnly()).isTrue();

    PrimaryLoss.mark(f.cluster);
    assertThat(plan(GtidSet.EMPTY)).as("the primary is lost: staying there serves nothing, its position is asked for")
        .isEqualTo(1);
    assertThat(probes(1)).containsExactly(f.primary);
  }

  @Test
  void theHomeTakesTurnsByPollRoundAmongReplicasThatAreCurrent() {
    jvm.observed(U2, f.tick());
    assertThat(plan(GtidSet.EMPTY)).as("no round yet: the home stays").isZero();
    assertThat(req.home()).isSameAs(f.r2);
    f.cluster.rounds().roundDone(f.tick()); // round 1: r1's turn ((index - round) mod 4 smallest)
    assertThat(plan(GtidSet.EMPTY)).as("the old home's position is read").isEqualTo(1);
    assertThat(probes(1)).containsExactly(f.r2);
    assertThat(req.home()).isSameAs(f.r1);
    assertThat(req.left()).as("should r1 not serve it, r2 may, without a wait").isSameAs(f.r2);
    assertThat(req.allows(f.r2)).as("a stand-by, not a candidate: the turn moves even when r1 must wait").isFalse();
    f.cluster.rounds().roundDone(f.tick()); // round 2: r2's turn
    assertThat(f.r2.waitMissed(true, f.r2.knownExecuted())).isTrue();
    assertThat(plan(GtidSet.EMPTY)).isEqualTo(1);
    assertThat(req.home()).as("r2 is stalled: its turn passes to r3").isSameAs(f.r3);
    assertThat(f.r3.waitMissed(true, f.r3.knownExecuted())).isTrue();
    f.r1.waitMissed(true, f.r1.knownExecuted());
    jvm.observed(U2, f.tick());
    assertThat(plan(GtidSet.EMPTY)).as("no replica may take the turn: the home stays").isZero();
    assertThat(req.home()).isSameAs(f.r2);
    assertThat(req.left()).as("nothing left").isNull();
  }

  @Test
  void aReadOnThePrimaryLeavesItForAReplicaThatIsBehindButNotStalled() {
    jvm.observed(P, f.tick());
    f.r1.behind(true, Positions.EMPTY);
    f.r2.behind(true, Positions.EMPTY);
    f.r3.behind(true, Positions.EMPTY);
    assertThat(plan(GtidSet.EMPTY)).as("no stickiness: a replica that advances may serve").isEqualTo(1);
    assertThat(probes(1)).containsExactly(f.primary);
    assertThat(req.primaryOnly()).isFalse();
  }

  @Test
  void aStalledHomeThatWouldWaitIsLeftForAReplicaThatIsNot() {
    jvm.observed(U1, f.tick());
    assertThat(f.r1.waitMissed(true, f.r1.knownExecuted())).isTrue();
    assertThat(plan(gtids("1-130"))).as("r1's position is read, so that r2 or r3 may serve").isEqualTo(1);
    assertThat(probes(1)).containsExactly(f.r1);
  }

  @Test
  void aStalledHomeStaysWhenEveryOtherReplicaIsStalledToo() {
    jvm.observed(U1, f.tick());
    for (ReplicaEndpoint r : List.of(f.r1, f.r2, f.r3)) {
      r.waitMissed(true, r.knownExecuted());
    }
    assertThat(plan(gtids("1-130"))).isZero();
    assertThat(req.home()).isSameAs(f.r1);
  }

  @Test
  void aReadOfAServerResetSinceIsBoundedByThePrimarysPosition() {
    jvm.observed(U1, f.tick());
    f.poll(f.r1, U1, "1-3", "");
    assertThat(plan(GtidSet.EMPTY)).isEqualTo(1);
    assertThat(probes(1)).containsExactly(f.primary);
    long sent = f.tick();
    planner.probed(f.primary, P, new ServerPosition(gtids("1-105"), GtidSet.EMPTY), sent, states, 1);
    planner.finish(GtidSet.EMPTY, states, 1, req);
    assertThat(req.primaryOnly()).isFalse();
    assertThat(req.forAll()).isEqualTo(gtids("1-105"));
  }

  @Test
  void aProbeThatFailedLeavesOnlyThePrimary() {
    jvm.observed(U1, f.tick());
    f.r1.behind(true, Positions.EMPTY);
    assertThat(planner.plan(GtidSet.EMPTY, states, 1, req)).isEqualTo(1);
    planner.finish(GtidSet.EMPTY, states, 1, req);
    assertThat(req.primaryOnly()).isTrue();
  }

  @Test
  void readsThatBecamePendingDuringTheProbesAreConcurrentAndIgnored() {
    jvm.observed(U1, f.tick());
    f.r1.behind(true, Positions.EMPTY);
    assertThat(plan(GtidSet.EMPTY)).isEqualTo(1);
    long sent = f.tick();
    jvm.observed(U2, f.tick());
    jvm.observed(U1, f.tick());
    planner.probed(f.r1, U1, new ServerPosition(gtids("1-100"), GtidSet.EMPTY), sent, states, 1);
    planner.finish(GtidSet.EMPTY, states, 1, req);
    assertThat(req.primaryOnly()).isFalse();
    assertThat(req.home()).isNull();
    List<String> left = new ArrayList<>();
    jvm.pendingServers(left);
    assertThat(left).as("the next read sees them").containsExactlyInAnyOrder(U1, U2);
  }

  @Test
  void aHomeOutOfRotationIsKeptOnlyIfItNeedsNoWait() {
    jvm.observed(U1, f.tick());
    f.r1.health(Health.LAGGING, 40_000, "lag");
    assertThat(plan(gtids("1-100"))).as("it has 1-100").isZero();
    assertThat(req.home()).isSameAs(f.r1);
    assertThat(plan(gtids("1-101"))).as("it would have to wait").isEqualTo(1);
  }

  @Test
  void aHomeThatWouldWaitIsLeftWhenItsWaiterCapIsReachedAndAnotherReplicaHasRoom() {
    jvm.observed(U1, f.tick());
    int taken = 0;
    while (f.r1.tryEnterWait()) {
      taken++;
    }
    try {
      assertThat(plan(gtids("1-130"))).as("r1 is full: read its position, wait elsewhere").isEqualTo(1);
      assertThat(probes(1)).containsExactly(f.r1);
      assertThat(plan(GtidSet.EMPTY)).as("no wait needed at home: it stays").isZero();
      assertThat(req.home()).isSameAs(f.r1);
    } finally {
      for (int i = 0; i < taken; i++) {
        f.r1.exitWait();
      }
    }
    assertThat(plan(gtids("1-130"))).as("room again: it stays").isZero();
    assertThat(req.home()).isSameAs(f.r1);
  }

  /** Another channel's source of a multi-source replica (issue 28). */
  private static final String S = "99999999-9999-9999-9999-999999999999";

  private static boolean namesS(GtidSet set) {
    return !set.byUuidsOf(GtidSet.parse(S + ":1"), GtidSet.EMPTY, true).isEmpty();
  }

  private static GtidSet withForeign(String intervals, String foreign) {
    return gtids(intervals).union(GtidSet.parse(S + ":" + foreign));
  }

  @Test
  void anotherSourcesGtidsNeverJoinTheBoundAndTheReadWaitsForThePrimarysPollToRuleThemOut() {
    jvm.observed(U1, f.tick());
    f.poll(f.r1, U1, withForeign("1-120", "1-50"));
    assertThat(jvm.resolve(f.cluster)).as("no poll of the primary since r1's: S is undecided, the read pending")
        .isTrue();
    assertThat(jvm.bound().isEmpty()).isTrue();
    f.pollPrimary("1-125", "");
    assertThat(jvm.resolve(f.cluster)).isFalse();
    assertThat(jvm.bound().full()).as("the cluster's part only").isEqualTo(gtids("1-120"));
    assertThat(f.cluster.foreign().foreignSeen()).isEqualTo(GtidSet.parse(S + ":1-50"));
    assertThat(plan(GtidSet.EMPTY)).isZero();
    assertThat(req.of(f.r2)).as("what another replica must have: nothing of S").isEqualTo(gtids("1-120"));

    // S is confirmed foreign now: a position read on demand drops it at once.
    jvm.observed(U1, f.tick());
    f.r1.behind(true, Positions.EMPTY);
    assertThat(plan(GtidSet.EMPTY)).isEqualTo(1);
    planner.probed(f.r1, U1, new ServerPosition(withForeign("1-121", "1-60"), GtidSet.EMPTY), f.tick(), states, 1);
    planner.finish(GtidSet.EMPTY, states, 1, req);
    assertThat(req.primaryOnly()).isFalse();
    assertThat(jvm.bound().full()).isEqualTo(gtids("1-121"));
  }

  @Test
  void aProbedPositionWithAnUndecidedUuidLeavesTheReadToThePrimary() {
    jvm.observed(U1, f.tick());
    f.r1.behind(true, Positions.EMPTY);
    assertThat(plan(GtidSet.EMPTY)).isEqualTo(1);
    planner.probed(f.r1, U1, new ServerPosition(withForeign("1-90", "1-50"), GtidSet.EMPTY), f.tick(), states, 1);
    planner.finish(GtidSet.EMPTY, states, 1, req);
    assertThat(req.primaryOnly()).as("S may be new to the primary: the position bounds nothing yet").isTrue();
    assertThat(jvm.bound().isEmpty()).isTrue();

    // The next poll of the primary, sent after that read, rules S out: the next position read on demand is
    // decided at once (before, no poll was ever sent after a read on demand, and every read leaving r1 ran on
    // the primary: TopologiesIT, a discovered replica never got a read).
    f.pollPrimary("1-95", "");
    assertThat(f.cluster.foreign().foreignSeen()).isEqualTo(GtidSet.parse(S + ":1-50"));
    jvm.observed(U1, f.tick());
    assertThat(plan(GtidSet.EMPTY)).isEqualTo(1);
    planner.probed(f.r1, U1, new ServerPosition(withForeign("1-96", "1-51"), GtidSet.EMPTY), f.tick(), states, 1);
    planner.finish(GtidSet.EMPTY, states, 1, req);
    assertThat(req.primaryOnly()).isFalse();
    assertThat(jvm.bound().full()).as("the cluster's part only").isEqualTo(gtids("1-96"));
  }

  @Test
  void aPollOfThePrimarySentBeforeAPositionWasReadDecidesNothingOfIt() {
    jvm.observed(U1, f.tick());
    f.r1.behind(true, Positions.EMPTY);
    assertThat(plan(GtidSet.EMPTY)).isEqualTo(1);
    long readLater = f.now + 5_000_000; // the read on demand began after the next poll was sent
    planner.probed(f.r1, U1, new ServerPosition(withForeign("1-90", "1-50"), GtidSet.EMPTY), readLater, states, 1);
    f.pollPrimary("1-95", "");
    assertThat(f.cluster.foreign().foreignSeen()).as("that poll may predate S on the primary").isEqualTo(GtidSet.EMPTY);
    while (f.now - readLater <= 0) {
      f.pollPrimary("1-95", "");
    }
    f.pollPrimary("1-95", "");
    assertThat(f.cluster.foreign().foreignSeen()).as("a poll sent after the read").isEqualTo(GtidSet.parse(S + ":1-50"));
  }

  @Test
  void aUuidThePrimaryHasIsNeverRuledOut() {
    jvm.observed(U1, f.tick());
    f.r1.behind(true, Positions.EMPTY);
    assertThat(plan(GtidSet.EMPTY)).isEqualTo(1);
    planner.probed(f.r1, U1, new ServerPosition(withForeign("1-90", "1-50"), GtidSet.EMPTY), f.tick(), states, 1);
    f.pollPrimaryNaming(S + ":1-50");
    assertThat(f.cluster.foreign().foreignSeen()).isEqualTo(GtidSet.EMPTY);
  }
}
