package dev.ryow.jdbc.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.Health;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.config.SelectionStrategy;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.server.ServerStatus;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** "Which replica?": tiers first, then the strategy. */
class ReplicaSelectorTest {
  private static final String U = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private final ReplicaEndpoint primary = endpoint(0);
  private final ReplicaEndpoint r1 = endpoint(1);
  private final ReplicaEndpoint r2 = endpoint(2);
  private final ReplicaEndpoint r3 = endpoint(3);
  private final List<ReplicaEndpoint> servers = List.of(primary, r1, r2, r3);

  ReplicaSelectorTest() {
    primary.health(Health.PRIMARY, 0, "");
  }

  private static ReplicaEndpoint endpoint(int i) {
    return new ReplicaEndpoint(new HostSpec("h" + i, 3306), i, 2);
  }

  private List<ReplicaEndpoint> order(GtidSet wm, SelectionStrategy s, int start) {
    ReplicaEndpoint[] out = new ReplicaEndpoint[servers.size()];
    int n = ReplicaSelector.order(servers, wm, s, start, out, new long[servers.size()]);
    return Arrays.asList(out).subList(0, n);
  }

  private static GtidSet gtids(String intervals) {
    return GtidSet.parse(U + ":" + intervals);
  }

  private static ServerStatus status(String uuid, GtidSet executed) {
    return new ServerStatus(uuid, executed, true, 1, true, true, 0, "", true);
  }

  @Test
  void neverThePrimaryAndRoundRobinFromTheConnectionsStart() {
    assertThat(order(GtidSet.EMPTY, SelectionStrategy.ROUND_ROBIN, 2)).containsExactly(r2, r3, r1);
    assertThat(order(GtidSet.EMPTY, SelectionStrategy.ROUND_ROBIN, 0)).containsExactly(r1, r2, r3);
  }

  @Test
  void aLagBoundLeavesOutReplicasThatLaggedMoreAtTheLastPoll() {
    r1.health(Health.UP, 40, "");
    r2.health(Health.UP, 41, "");
    r3.health(Health.UP, 0, "");
    record Row(long maxLag, List<ReplicaEndpoint> expected) {}
    for (Row row : List.of(
        new Row(Long.MAX_VALUE, List.of(r1, r2, r3)),
        new Row(41, List.of(r1, r2, r3)),
        new Row(40, List.of(r1, r3)),
        new Row(39, List.of(r3)),
        new Row(0, List.of(r3)))) {
      ReplicaEndpoint[] out = new ReplicaEndpoint[servers.size()];
      ReadRequirement req = ReadRequirement.of(GtidSet.EMPTY).lagAtMost(row.maxLag());
      int n = ReplicaSelector.order(servers, req, SelectionStrategy.ROUND_ROBIN, 1, out, new long[servers.size()]);
      assertThat(Arrays.asList(out).subList(0, n)).as("lag <= %d ms", row.maxLag()).isEqualTo(row.expected());
    }
    r3.health(Health.UP, 500, "");
    ReplicaEndpoint[] out = new ReplicaEndpoint[servers.size()];
    assertThat(ReplicaSelector.order(servers, ReadRequirement.of(GtidSet.EMPTY).lagAtMost(39),
        SelectionStrategy.ROUND_ROBIN, 1, out, new long[servers.size()])).as("none within the bound").isZero();
    assertThat(ReadRequirement.of(GtidSet.EMPTY).lagAtMost(39).plain(GtidSet.EMPTY).maxLagMillis())
        .as("refilled for the next read: no bound").isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void replicasKnownToHaveTheWatermarkComeFirst() {
    r3.observe(status("u3", gtids("1-10")), r3.knownExecuted(), System.nanoTime());
    assertThat(order(gtids("5"), SelectionStrategy.ROUND_ROBIN, 1)).containsExactly(r3, r1, r2);
  }

  @Test
  void outOfRotationOnlyWhenItAlreadyHasTheWatermarkAndBeforeAnyWait() {
    r1.observe(status("u1", gtids("1-10")), r1.knownExecuted(), System.nanoTime());
    r1.health(Health.REPLICATION_STOPPED, 0, "applier stopped");
    r2.unreachable("refused", System.nanoTime());
    assertThat(order(gtids("5"), SelectionStrategy.ROUND_ROBIN, 1)).containsExactly(r1, r3);
    assertThat(order(gtids("11"), SelectionStrategy.ROUND_ROBIN, 1)).containsExactly(r3);
  }

  @Test
  void aPausedReplicaIsWaitedOnOnlyAfterTheRunningOnes() {
    r1.health(Health.PAUSED, 0, "applier (SQL thread) not running");
    assertThat(order(gtids("5"), SelectionStrategy.ROUND_ROBIN, 1)).containsExactly(r2, r3, r1);
    r2.health(Health.PAUSED, 0, "applier (SQL thread) not running");
    assertThat(order(gtids("5"), SelectionStrategy.ROUND_ROBIN, 1)).containsExactly(r3, r1, r2);
    assertThat(r1.health().inRotation()).isTrue();
  }

  @Test
  void aStalledReplicaIsTriedLastButFirstForWhatItHas() {
    r1.observe(status("u1", gtids("1-10")), r1.knownExecuted(), System.nanoTime());
    assertThat(r1.waitMissed(true, r1.knownExecuted())).isTrue();
    r2.health(Health.PAUSED, 0, "applier (SQL thread) not running");
    assertThat(order(gtids("11"), SelectionStrategy.ROUND_ROBIN, 1)).as("after the paused one")
        .containsExactly(r3, r2, r1);
    assertThat(order(gtids("5"), SelectionStrategy.ROUND_ROBIN, 1)).as("it has 5: no wait, stalled or not")
        .containsExactly(r1, r3, r2);
  }

  @Test
  void leastWaitsPrefersTheReplicaWithFewerWaiters() {
    assertThat(r1.tryEnterWait()).isTrue();
    assertThat(order(gtids("5"), SelectionStrategy.LEAST_WAITS, 1)).containsExactly(r2, r3, r1);
    r1.exitWait();
    assertThat(order(gtids("5"), SelectionStrategy.LEAST_WAITS, 1)).containsExactly(r1, r2, r3);
  }

  @Test
  void waiterCapIsASemaphoreThatNeverBlocks() {
    assertThat(r1.tryEnterWait()).isTrue();
    assertThat(r1.tryEnterWait()).isTrue();
    assertThat(r1.tryEnterWait()).as("cap of 2").isFalse();
    assertThat(r1.waiters()).isEqualTo(2);
    r1.exitWait();
    assertThat(r1.tryEnterWait()).isTrue();
  }

  @Test
  void positionsGrowButResetWhenTheServerIsRebuiltOrReset() {
    assertThat(r1.observe(status("u1", gtids("1-10")), r1.knownExecuted(), System.nanoTime())).isFalse();
    r1.learn(gtids("1-12"), "u1");
    assertThat(r1.knownExecuted()).isEqualTo(gtids("1-12"));
    r1.learn(gtids("1-20"), "someone-else");
    assertThat(r1.knownExecuted()).as("a wait on another server teaches nothing").isEqualTo(gtids("1-12"));
    assertThat(r1.observe(status("u1", gtids("1-15")), r1.knownExecuted(), System.nanoTime())).isFalse();
    assertThat(r1.knownExecuted()).isEqualTo(gtids("1-15"));
    assertThat(r1.observe(status("u1-rebuilt", gtids("1-3")), r1.knownExecuted(), System.nanoTime()))
        .as("new server_uuid").isTrue();
    assertThat(r1.knownExecuted()).isEqualTo(gtids("1-3"));
    assertThat(r1.observe(status("u1-rebuilt", GtidSet.EMPTY), r1.knownExecuted(), System.nanoTime()))
        .as("RESET BINARY LOGS AND GTIDS").isTrue();
    assertThat(r1.knownExecuted()).isEqualTo(GtidSet.EMPTY);
  }

  @Test
  void aWaitThatLearnsMoreWhileAPollIsUnderWayIsNoReset() {
    r1.observe(status("u1", gtids("1-10")), r1.knownExecuted(), System.nanoTime());
    Position beforePoll = r1.knownExecuted();
    r1.learn(gtids("1-14"), "u1"); // a wait succeeded after the poll's query was sent
    assertThat(r1.observe(status("u1", gtids("1-12")), beforePoll, System.nanoTime()))
        .as("the poll is older, not a reset").isFalse();
    assertThat(r1.knownExecuted()).isEqualTo(gtids("1-14"));
    assertThat(r1.observe(status("u1", gtids("1-9")), r1.knownExecuted(), System.nanoTime()))
        .as("went backwards: reset").isTrue();
    assertThat(r1.knownExecuted()).isEqualTo(gtids("1-9"));
  }

  @Test
  void unreachableBacksOffUpToFiveSeconds() {
    long t = 0;
    r1.unreachable("x", t);
    assertThat(r1.probeDue(t + ReplicaEndpoint.FIRST_BACKOFF_NANOS - 1)).isFalse();
    assertThat(r1.probeDue(t + ReplicaEndpoint.FIRST_BACKOFF_NANOS)).isTrue();
    assertThat(r1.unreachable("another connection failed", t + 1)).as("a failure before the probe is due").isNull();
    assertThat(r1.probeDue(t + ReplicaEndpoint.FIRST_BACKOFF_NANOS)).as("backoff not doubled by it").isTrue();
    assertThat(r1.problem()).isEqualTo("x");
    for (int i = 0; i < 10; i++) {
      t = r1.healthState().probeAtNanos();
      assertThat(r1.unreachable("x", t)).as("a failed probe").isNotNull();
    }
    assertThat(r1.probeDue(t + ReplicaEndpoint.MAX_BACKOFF_NANOS - 1)).isFalse();
    assertThat(r1.probeDue(t + ReplicaEndpoint.MAX_BACKOFF_NANOS)).isTrue();
    r1.health(Health.UP, 0, "");
    r1.unreachable("x", t);
    assertThat(r1.probeDue(t + ReplicaEndpoint.FIRST_BACKOFF_NANOS)).as("backoff reset after recovery").isTrue();
  }

  @Test
  void healthLearnedBeforeAnIdlePeriodIsForgottenWhenPollingStartsAgain() {
    r1.health(Health.REPLICATION_STOPPED, 0, "applier stopped");
    r2.unreachable("refused", 0);
    primary.forgetHealth(10);
    r1.forgetHealth(10);
    r2.forgetHealth(10);
    assertThat(primary.health()).isEqualTo(Health.PRIMARY);
    assertThat(r1.health()).isEqualTo(Health.UP);
    assertThat(r2.health()).isEqualTo(Health.UNREACHABLE);
    assertThat(r2.probeDue(10)).as("probed at the first poll").isTrue();
  }
}
