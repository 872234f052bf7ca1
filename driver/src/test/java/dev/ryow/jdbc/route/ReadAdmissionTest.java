package dev.ryow.jdbc.route;

import static org.assertj.core.api.Assertions.assertThat;

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
        // required, verified on this connection, known executed, health -> step
        Arguments.of(NONE, null, NONE, Health.UP, ReadAdmission.Step.READ_NOW),
        Arguments.of(NONE, null, NONE, Health.LAGGING, ReadAdmission.Step.READ_NOW),
        Arguments.of(TO_5, null, TO_9, Health.UP, ReadAdmission.Step.READ_NOW),
        Arguments.of(TO_5, null, TO_9, Health.REPLICATION_STOPPED, ReadAdmission.Step.READ_NOW),
        Arguments.of(TO_9, TO_9, TO_5, Health.LAGGING, ReadAdmission.Step.READ_NOW),
        Arguments.of(TO_9, TO_5, TO_5, Health.UP, ReadAdmission.Step.WAIT),
        Arguments.of(TO_9, null, TO_5, Health.PAUSED, ReadAdmission.Step.WAIT),
        Arguments.of(TO_9, null, TO_5, Health.LAGGING, ReadAdmission.Step.SKIP),
        Arguments.of(TO_9, null, TO_5, Health.REPLICATION_STOPPED, ReadAdmission.Step.SKIP),
        Arguments.of(TO_9, null, TO_5, Health.REPLICATION_ERROR, ReadAdmission.Step.SKIP),
        Arguments.of(TO_9, null, NONE, Health.UNKNOWN, ReadAdmission.Step.SKIP));
  }

  @ParameterizedTest(name = "[{index}] need {0}, verified {1}, known {2}, {3} -> {4}")
  @MethodSource("steps")
  void waitOrSkip(GtidSet required, @Nullable GtidSet verified, GtidSet known, Health health, ReadAdmission.Step step) {
    assertThat(ReadAdmission.judge(required, verified, known, health)).isEqualTo(step);
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
