package dev.ryow.jdbc.route;

import static dev.ryow.jdbc.route.MonotonicFixture.gtids;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.PollSnapshot;
import dev.ryow.jdbc.cluster.PrimaryState;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.server.ServerStatus;
import org.junit.jupiter.api.Test;

/** The cluster's primary as one state: a move replaces endpoint, epoch and position together. */
class PrimaryStateTest {
  private final MonotonicFixture f;

  PrimaryStateTest() throws Exception {
    f = new MonotonicFixture();
  }

  @Test
  void aMoveReplacesEndpointEpochAndPositionTogether() {
    PrimaryState before = f.cluster.primary();
    assertThat(before.position().executed()).isEqualTo(gtids("1-100"));
    assertThat(before.poll()).isNotNull();
    PrimaryState moved = before.movedTo(f.r1, 42, f.tick());
    assertThat(moved.endpoint()).isSameAs(f.r1);
    assertThat(moved.epoch()).isEqualTo(before.epoch() + 1);
    assertThat(moved.position().executed()).as("nothing known of the new primary yet").isEqualTo(GtidSet.EMPTY);
    assertThat(moved.position().pollTicket()).as("after every watermark's stamp").isEqualTo(42);
    assertThat(moved.poll()).isNull();
    assertThat(moved.confirmedNanos()).isEqualTo(f.now);
  }

  @Test
  void aPollOfAServerThatIsNotThePrimaryIsDropped() {
    PrimaryState before = f.cluster.primary();
    PollSnapshot poll = f.r1.observePrimary(
        new ServerStatus(MonotonicFixture.U1, gtids("1-500"), GtidSet.EMPTY, false, 0, true, true, 0, "", true, ""),
        f.tick());
    assertThat(f.cluster.primaryPolled(f.r1, poll, f.cluster.tracker().primaryPollTicket())).isFalse();
    assertThat(f.cluster.primary()).as("the primary's state is unchanged").isSameAs(before);
    assertThat(f.cluster.knownOnPrimary().contains(gtids("101-500"))).as("not taken as the primary's").isFalse();

    PollSnapshot own = f.primary.observePrimary(
        new ServerStatus(MonotonicFixture.P, gtids("1-130"), GtidSet.EMPTY, false, 0, true, true, 0, "", true, ""),
        f.tick());
    assertThat(f.cluster.primaryPolled(f.primary, own, 7)).isTrue();
    PrimaryState after = f.cluster.primary();
    assertThat(after.endpoint()).isSameAs(before.endpoint());
    assertThat(after.epoch()).isEqualTo(before.epoch());
    assertThat(after.position().executed()).isEqualTo(gtids("1-130"));
    assertThat(after.poll()).isSameAs(own);
    assertThat(after.confirmedNanos()).isEqualTo(own.startedNanos());
    assertThat(f.cluster.knownOnPrimary()).isEqualTo(gtids("1-130"));
  }
}
