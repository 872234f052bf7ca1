package dev.ryow.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.metrics.ClusterMetrics;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the cluster's figures become health details (the live check runs in TwoInstancesIT). */
class RyowHealthCheckTest {
  private static MetricsSnapshot snapshot(long in, long out, long lag, long fallbacks, long replicaReads, long primaryReads,
      String states) {
    ClusterMetrics metrics = new ClusterMetrics();
    metrics.replicaHealth(in, out, lag, states);
    for (long i = 0; i < fallbacks; i++) {
      metrics.fellBackToPrimary();
    }
    for (long i = 0; i < replicaReads; i++) {
      metrics.replicaRead();
    }
    for (long i = 0; i < primaryReads; i++) {
      metrics.primaryRead();
    }
    return metrics.snapshot();
  }

  @Test
  void allReplicasInRotationIsNotDegraded() {
    Map<String, Object> details = RyowHealthCheck.details("shop", ConsistencyMode.JVM,
        snapshot(2, 0, 12, 3, 90, 10, "r1:3306=UP lag=12ms waiters=0; r2:3306=UP lag=0ms waiters=1"));
    assertThat(details)
        .containsEntry("cluster", "shop")
        .containsEntry("consistency", "jvm")
        .containsEntry("degraded", false)
        .containsEntry("replicasInRotation", 2L)
        .containsEntry("replicasOutOfRotation", 0L)
        .containsEntry("maxApplierLagMillis", 12L)
        .containsEntry("fallbacksToPrimary", 3L)
        .containsEntry("replicaShare", 0.9)
        .containsEntry("replicas", Map.of("r1:3306", "UP lag=12ms waiters=0", "r2:3306", "UP lag=0ms waiters=1"));
  }

  @Test
  void aReplicaOutOfRotationIsDegradedAndSoIsNoneInRotation() {
    assertThat(RyowHealthCheck.details("c", ConsistencyMode.JVM,
            snapshot(1, 1, 0, 0, 0, 0, "r1:3306=UP lag=0ms waiters=0; r2:3306=REPLICATION_STOPPED lag=0ms waiters=0")))
        .containsEntry("degraded", true)
        .containsEntry("replicas", Map.of("r1:3306", "UP lag=0ms waiters=0", "r2:3306", "REPLICATION_STOPPED lag=0ms waiters=0"));
    assertThat(RyowHealthCheck.details("c", ConsistencyMode.JVM, snapshot(0, 0, 0, 0, 0, 0, "r1:3306=UNKNOWN lag=0ms waiters=0")))
        .containsEntry("degraded", true);
  }

  @Test
  void beforeTheFirstPollNothingIsKnownYet() {
    assertThat(RyowHealthCheck.details("c", ConsistencyMode.SCOPE, MetricsSnapshot.EMPTY))
        .containsEntry("degraded", false)
        .containsEntry("consistency", "scope")
        .containsEntry("replicas", Map.of());
  }
}
