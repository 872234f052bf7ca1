package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.config.HostSpec;
import org.junit.jupiter.api.Test;

/**
 * When an outage of the primary began: the first round that found no writable server sets it, later
 * rounds of the same outage move only {@code lostNanos}, and finding the primary writable ends it. A
 * statement's short wait for a dead primary is counted from it ({@code PrimaryWaitRule}).
 */
class PrimaryOutageStateTest {
  private final ReplicaEndpoint primary = new ReplicaEndpoint(new HostSpec("db1", 3306), 0, 4);

  @Test
  void theOutageBeginsAtTheFirstRoundThatFoundNoWritableServerAndEndsWhenTheServerIsFoundWritable() {
    PrimaryState up = PrimaryState.first(primary, 1_000);
    assertThat(up.outageNanos()).isZero();
    PrimaryState lost = up.lostAt(2_000);
    assertThat(lost).isNotNull();
    assertThat(lost.outageNanos()).isEqualTo(2_000);
    assertThat(lost.outages()).isEqualTo(1);
    PrimaryState stillLost = lost.lostAt(5_000);
    assertThat(stillLost).isNotNull();
    assertThat(stillLost.lostNanos()).as("the latest round").isEqualTo(5_000);
    assertThat(stillLost.outageNanos()).as("the outage's start").isEqualTo(2_000);
    assertThat(stillLost.outages()).isEqualTo(1);
    PrimaryState back = stillLost.confirmed(9_000);
    assertThat(back.outageNanos()).isZero();
    assertThat(back.lost()).isFalse();
    PrimaryState again = back.lostAt(10_000);
    assertThat(again).isNotNull();
    assertThat(again.outageNanos()).as("a new outage").isEqualTo(10_000);
    assertThat(again.outages()).isEqualTo(2);
  }
}
