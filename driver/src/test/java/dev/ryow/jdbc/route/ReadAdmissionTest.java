package dev.ryow.jdbc.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.Health;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.gtid.GtidSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ReadAdmissionTest {
  private static final String U = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final GtidSet NONE = GtidSet.EMPTY;
  private static final GtidSet TO_5 = GtidSet.parse(U + ":1-5");
  private static final GtidSet TO_9 = GtidSet.parse(U + ":1-9");

  static Stream<Arguments> steps() {
    return Stream.of(
        // required, verified on this connection, known executed, health, stalled, primary lost -> step
        Arguments.of(NONE, null, NONE, Health.UP, false, false, ReadAdmission.Step.READ_NOW),
        Arguments.of(NONE, null, NONE, Health.LAGGING, false, false, ReadAdmission.Step.READ_NOW),
        Arguments.of(NONE, null, NONE, Health.UP, true, false, ReadAdmission.Step.READ_NOW),
        Arguments.of(TO_5, null, TO_9, Health.UP, false, false, ReadAdmission.Step.READ_NOW),
        Arguments.of(TO_5, null, TO_9, Health.UP, true, false, ReadAdmission.Step.READ_NOW),
        Arguments.of(TO_5, null, TO_9, Health.REPLICATION_STOPPED, false, false, ReadAdmission.Step.READ_NOW),
        Arguments.of(TO_9, TO_9, TO_5, Health.LAGGING, false, false, ReadAdmission.Step.READ_NOW),
        Arguments.of(TO_9, TO_9, TO_5, Health.UP, true, false, ReadAdmission.Step.READ_NOW),
        Arguments.of(TO_9, TO_5, TO_5, Health.UP, false, false, ReadAdmission.Step.WAIT),
        Arguments.of(TO_9, TO_5, TO_5, Health.UP, true, false, ReadAdmission.Step.SKIP_STALLED),
        Arguments.of(TO_9, null, TO_5, Health.PAUSED, false, false, ReadAdmission.Step.WAIT),
        Arguments.of(TO_9, null, TO_5, Health.PAUSED, true, false, ReadAdmission.Step.SKIP_STALLED),
        Arguments.of(TO_9, null, TO_5, Health.LAGGING, false, false, ReadAdmission.Step.SKIP),
        Arguments.of(TO_9, null, TO_5, Health.LAGGING, true, false, ReadAdmission.Step.SKIP),
        Arguments.of(TO_9, null, TO_5, Health.REPLICATION_STOPPED, false, false, ReadAdmission.Step.SKIP),
        Arguments.of(TO_9, null, TO_5, Health.REPLICATION_ERROR, false, false, ReadAdmission.Step.SKIP),
        Arguments.of(TO_9, null, NONE, Health.UNKNOWN, false, false, ReadAdmission.Step.SKIP),
        // While the primary is lost no cheaper server can serve the read: a stalled replica is waited on.
        Arguments.of(TO_9, TO_5, TO_5, Health.UP, true, true, ReadAdmission.Step.WAIT),
        Arguments.of(TO_9, null, TO_5, Health.PAUSED, true, true, ReadAdmission.Step.WAIT),
        Arguments.of(TO_9, null, TO_5, Health.UP, false, true, ReadAdmission.Step.WAIT),
        Arguments.of(TO_5, null, TO_9, Health.UP, true, true, ReadAdmission.Step.READ_NOW),
        Arguments.of(TO_9, null, TO_5, Health.LAGGING, true, true, ReadAdmission.Step.SKIP),
        Arguments.of(TO_9, null, TO_5, Health.REPLICATION_STOPPED, false, true, ReadAdmission.Step.SKIP));
  }

  @ParameterizedTest(name = "[{index}] need {0}, verified {1}, known {2}, {3}, stalled {4}, primary lost {5} -> {6}")
  @MethodSource("steps")
  void waitOrSkip(GtidSet required, @Nullable GtidSet verified, GtidSet known, Health health, boolean stalled,
      boolean primaryLost, ReadAdmission.Step step) {
    assertThat(ReadAdmission.judge(required, verified, known, health, stalled, primaryLost)).isEqualTo(step);
  }

  @Test
  void onlyStalledReplicasFallBackAsStalledBlamingTheFirstAndServingStaleFromIt() {
    ReplicaEndpoint r1 = endpoint(1);
    ReplicaEndpoint r2 = endpoint(2);
    ReadAdmission<String> a = new ReadAdmission<>();
    a.start();
    a.stalled(r1, "slot1");
    a.stalled(r2, "slot2");
    assertThat(a.waitFailed()).as("a stalled replica is passed over, not waited on").isFalse();
    assertThat(a.reason()).isEqualTo(FallbackPolicy.Reason.STALLED);
    assertThat(a.blamed()).isSameAs(r1);
    assertThat(a.staleCandidate()).isEqualTo("slot1");
    a.start();
    assertThat(a.wasStalled()).isFalse();
    assertThat(a.reason()).isEqualTo(FallbackPolicy.Reason.NO_REPLICA);
  }

  @Test
  void aFailedWaitAfterAStalledSkipIsTheReason() {
    ReplicaEndpoint r1 = endpoint(1);
    ReplicaEndpoint r2 = endpoint(2);
    ReadAdmission<String> a = new ReadAdmission<>();
    a.start();
    a.stalled(r1, "slot1");
    a.waitFailed(true, r2, "slot2");
    assertThat(a.reason()).isEqualTo(FallbackPolicy.Reason.TIMED_OUT);
    assertThat(a.blamed()).isSameAs(r2);
  }

  @Test
  void nothingTriedFallsBackForNoReplica() {
    ReadAdmission<String> a = new ReadAdmission<>();
    a.start();
    assertThat(a.reason()).isEqualTo(FallbackPolicy.Reason.NO_REPLICA);
    assertThat(a.blamed()).isNull();
    assertThat(a.staleCandidate()).isNull();
    assertThat(a.waitFailed()).isFalse();
  }

  @Test
  void fullCapsFallBackAsCappedBlamingTheLastAndServingStaleFromTheFirst() {
    ReplicaEndpoint r1 = endpoint(1);
    ReplicaEndpoint r2 = endpoint(2);
    ReadAdmission<String> a = new ReadAdmission<>();
    a.start();
    a.capped(r1, "slot1");
    assertThat(a.waitFailed()).isFalse(); // a full cap moves on to the next candidate
    a.capped(r2, "slot2");
    assertThat(a.reason()).isEqualTo(FallbackPolicy.Reason.CAPPED);
    assertThat(a.blamed()).isSameAs(r2);
    assertThat(a.staleCandidate()).isEqualTo("slot1");
  }

  @Test
  void aFailedWaitEndsTheAdmissionAndWinsOverAnEarlierCap() {
    ReplicaEndpoint r1 = endpoint(1);
    ReplicaEndpoint r2 = endpoint(2);
    ReadAdmission<String> a = new ReadAdmission<>();
    a.start();
    a.capped(r1, "slot1");
    a.waitFailed(true, r2, "slot2");
    assertThat(a.waitFailed()).isTrue();
    assertThat(a.reason()).isEqualTo(FallbackPolicy.Reason.TIMED_OUT);
    assertThat(a.blamed()).isSameAs(r2);
    assertThat(a.staleCandidate()).isEqualTo("slot2");

    a.start();
    a.waitFailed(false, r1, "slot1");
    assertThat(a.reason()).isEqualTo(FallbackPolicy.Reason.WAIT_FAILED);
    a.start(); // the next read starts afresh
    assertThat(a.reason()).isEqualTo(FallbackPolicy.Reason.NO_REPLICA);
    assertThat(a.wasCapped()).isFalse();
  }

  private static ReplicaEndpoint endpoint(int index) {
    return new ReplicaEndpoint(new dev.ryow.jdbc.config.HostSpec("replica" + index, 3306), index, 0);
  }
}
