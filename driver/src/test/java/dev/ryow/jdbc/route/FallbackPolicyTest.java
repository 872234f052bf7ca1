package dev.ryow.jdbc.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.cluster.FallbackBudget;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.cluster.TokenBucket;
import dev.ryow.jdbc.config.ConfigException;
import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.metrics.ClusterMetrics;
import dev.ryow.jdbc.route.FallbackPolicy.Decision;
import dev.ryow.jdbc.route.FallbackPolicy.Reason;
import java.sql.SQLTransientException;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** "What on failure?" for each mode, table-style. */
class FallbackPolicyTest {
  private final AtomicLong now = new AtomicLong();
  private final ClusterMetrics metrics = new ClusterMetrics();
  private final ReplicaEndpoint replica = new ReplicaEndpoint(new HostSpec("r1", 3307), 1, 4);

  private FallbackPolicy policy(String... settings) throws ConfigException {
    StringBuilder url = new StringBuilder("jdbc:ryow:mysql://p:3306,r1:3307/db?ryow.waitTimeout=80");
    for (String s : settings) {
      url.append('&').append(s);
    }
    RyowConfig config = RyowConfig.from(url.toString(), new Properties());
    int rate = config.get(dev.ryow.jdbc.config.RyowProperties.FALLBACK_RATE);
    return new FallbackPolicy(
        config,
        new FallbackBudget(rate == 0
            ? null
            : new TokenBucket(rate, config.get(dev.ryow.jdbc.config.RyowProperties.FALLBACK_BURST), now::get)));
  }

  private static FallbackPolicy policyOf(RyowConfig config) {
    return new FallbackPolicy(config, new FallbackBudget(config));
  }

  @Test
  void byDefaultEveryReadThatNoReplicaCouldServeGoesToThePrimary() throws Exception {
    FallbackPolicy p = policyOf(RyowConfig.from("jdbc:ryow:mysql://p:3306,r1:3307/db", new Properties()));
    for (int i = 0; i < 100_000; i++) {
      assertThat(p.decide(replica, Reason.TIMED_OUT, true, false, metrics)).isEqualTo(Decision.PRIMARY);
    }
    assertThat(metrics.snapshot().fallbacksThrottled()).isZero();
  }

  @Test
  void primaryModeFallsBackWithinTheBudgetThenFailsNamingWhatToTune() throws Exception {
    FallbackPolicy p = policy("ryow.fallbackRate=1", "ryow.fallbackBurst=2");
    assertThat(p.decide(replica, Reason.TIMED_OUT, true, false, metrics)).isEqualTo(Decision.PRIMARY);
    assertThat(p.decide(replica, Reason.TIMED_OUT, true, false, metrics)).isEqualTo(Decision.PRIMARY);
    assertThatThrownBy(() -> p.decide(replica, Reason.TIMED_OUT, true, false, metrics))
        .isInstanceOf(SQLTransientException.class)
        .hasMessageContaining("r1:3307")
        .hasMessageContaining("ryow.waitTimeout=80 ms")
        .hasMessageContaining("ryow.fallbackRate=1/s")
        .hasMessageContaining("ryow.fallbackDegrade=stale");
    assertThat(metrics.snapshot().fallbacksThrottled()).isEqualTo(1);
    now.addAndGet(1_000_000_000L);
    assertThat(p.decide(replica, Reason.TIMED_OUT, true, false, metrics)).isEqualTo(Decision.PRIMARY);
  }

  @Test
  void primaryModeDegradesToStaleWhenConfigured() throws Exception {
    FallbackPolicy p = policy("ryow.fallbackRate=1", "ryow.fallbackBurst=1", "ryow.fallbackDegrade=stale");
    assertThat(p.decide(replica, Reason.TIMED_OUT, true, false, metrics)).isEqualTo(Decision.PRIMARY);
    assertThat(p.decide(replica, Reason.TIMED_OUT, true, false, metrics)).isEqualTo(Decision.STALE_REPLICA);
    assertThatThrownBy(() -> p.decide(null, Reason.NO_REPLICA, false, false, metrics))
        .isInstanceOf(SQLTransientException.class)
        .hasMessageContaining("no replica is reachable");
  }

  @Test
  void errorModeNeverFallsBack() throws Exception {
    FallbackPolicy p = policy("ryow.fallback=error", "ryow.maxWaitersPerReplica=4");
    assertThatThrownBy(() -> p.decide(replica, Reason.CAPPED, true, false, metrics))
        .isInstanceOf(SQLTransientException.class)
        .hasMessageContaining("ryow.maxWaitersPerReplica=4")
        .hasMessageContaining("ryow.fallback=error");
  }

  @Test
  void staleModeNeverFallsBack() throws Exception {
    FallbackPolicy p = policy("ryow.fallback=stale");
    assertThat(p.decide(replica, Reason.TIMED_OUT, true, false, metrics)).isEqualTo(Decision.STALE_REPLICA);
    assertThatThrownBy(() -> p.decide(replica, Reason.NO_REPLICA, false, false, metrics))
        .isInstanceOf(SQLTransientException.class)
        .hasMessageContaining("ryow.fallback=stale");
  }

  /** While the primary is lost, primary mode waits on the replicas instead; error and stale decide as always. */
  @Test
  void aLostPrimaryTakesNoFallbackTheReadWaitsOnTheReplicas() throws Exception {
    FallbackPolicy byDefault = policy();
    FallbackPolicy capped = policy("ryow.fallbackRate=1", "ryow.fallbackBurst=1");
    for (Reason reason : Reason.values()) {
      for (boolean staleAvailable : new boolean[] {false, true}) {
        assertThat(byDefault.decide(replica, reason, staleAvailable, true, metrics)).isEqualTo(Decision.AWAIT_REPLICA);
        assertThat(capped.decide(replica, reason, staleAvailable, true, metrics)).isEqualTo(Decision.AWAIT_REPLICA);
      }
    }
    assertThat(capped.decide(replica, Reason.TIMED_OUT, true, false, metrics))
        .as("no fallback token was taken while the primary was lost").isEqualTo(Decision.PRIMARY);
    assertThat(policy("ryow.fallback=stale").decide(replica, Reason.TIMED_OUT, true, true, metrics))
        .isEqualTo(Decision.STALE_REPLICA);
    assertThatThrownBy(() -> policy("ryow.fallback=error").decide(replica, Reason.TIMED_OUT, true, true, metrics))
        .isInstanceOf(SQLTransientException.class);
  }
}
