package dev.ryow.jdbc.micrometer;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * Binds one cluster's counters and health gauges ({@link MetricsSnapshot}) to a Micrometer registry,
 * every meter tagged {@code cluster=<name>}; the same figures as the cluster's JMX MBean. Meters read a
 * fresh snapshot when the registry asks; the statement path is never touched.
 *
 * <pre>{@code
 * try (Connection c = dataSource.getConnection()) {   // any jdbc:ryow: connection of the cluster
 *   RyowMeterBinder.of(c).bindTo(meterRegistry);
 * }
 * }</pre>
 *
 * <p>Meters: {@code ryow.reads} (tag {@code server}: {@code replica} or {@code primary}), {@code
 * ryow.writes}, {@code ryow.waits} (a timer: count and total time of {@code WAIT_FOR_EXECUTED_GTID_SET}
 * round trips), one counter per other counter of {@link MetricsSnapshot} ({@code ryow.waits.timed.out},
 * {@code ryow.fallbacks.to.primary}, {@code ryow.reads.stale}...), and the gauges {@code ryow.replicas}
 * (tag {@code rotation}: {@code in} or {@code out}), {@code ryow.replica.lag.max} (milliseconds),
 * {@code ryow.replica.share} and {@code ryow.replica.no.wait.share} (0..1).
 */
public final class RyowMeterBinder implements MeterBinder {

  /**
   * Meters of one name that differ by a tag share one description (a registry such as Spring Boot
   * Actuator's shows one per name): it says what the tag splits.
   */
  private static final String READS = "Reads, by the server that ran them (tag server: replica; primary, by routing or"
      + " after a failed wait)";
  private static final String REPLICAS = "Replicas at the last poll, by rotation (tag rotation: in, out)";

  /** A counter of {@link MetricsSnapshot}: meter name, extra tags, description, value. */
  private record CounterSpec(String name, Tags tags, String description, ToDoubleFunction<MetricsSnapshot> value) {}

  private static final List<CounterSpec> COUNTERS = List.of(
      new CounterSpec("ryow.reads", Tags.of("server", "replica"), READS, MetricsSnapshot::replicaReads),
      new CounterSpec("ryow.reads", Tags.of("server", "primary"), READS, MetricsSnapshot::primaryReads),
      new CounterSpec("ryow.writes", Tags.empty(), "Other statements that ran on the primary",
          MetricsSnapshot::primaryWrites),
      new CounterSpec("ryow.waits.skipped", Tags.empty(), "Replica reads that needed no wait",
          MetricsSnapshot::waitsSkipped),
      new CounterSpec("ryow.waits.shared", Tags.empty(),
          "Replica reads that rode on another read's wait for the same set instead of sending their own",
          MetricsSnapshot::waitsShared),
      new CounterSpec("ryow.waits.timed.out", Tags.empty(), "Waits that timed out", MetricsSnapshot::waitsTimedOut),
      new CounterSpec("ryow.waits.failed", Tags.empty(), "Waits that returned NULL or failed",
          MetricsSnapshot::waitsFailed),
      new CounterSpec("ryow.waits.capped", Tags.empty(), "Reads that did not wait on a replica at its waiter cap",
          MetricsSnapshot::waitsCapped),
      new CounterSpec("ryow.fallbacks.to.primary", Tags.empty(), "Reads sent to the primary after a failed wait",
          MetricsSnapshot::fallbacksToPrimary),
      new CounterSpec("ryow.fallbacks.rejected", Tags.empty(), "Reads refused after a failed wait",
          MetricsSnapshot::fallbacksRejected),
      new CounterSpec("ryow.fallbacks.throttled", Tags.empty(),
          "Reads that should have gone to the primary when the fallback budget was spent",
          MetricsSnapshot::fallbacksThrottled),
      new CounterSpec("ryow.reads.stale", Tags.empty(), "Reads served by a replica not known to have the watermark",
          MetricsSnapshot::staleReads),
      new CounterSpec("ryow.reads.stale.allowed", Tags.empty(),
          "Reads in an allow-stale scope served without a wait by a replica within its lag bound",
          MetricsSnapshot::staleAllowedReads),
      new CounterSpec("ryow.reads.unknown.gtids", Tags.empty(),
          "Reads sent to the primary because their watermark named GTIDs it never executed",
          MetricsSnapshot::unknownGtidReads),
      new CounterSpec("ryow.hidden.writes", Tags.empty(),
          "Statements classified as reads that a replica refused because they write (stored functions): run on the"
              + " primary", MetricsSnapshot::hiddenWrites),
      new CounterSpec("ryow.reads.retried", Tags.empty(), "Reads run again elsewhere after their connection failed",
          MetricsSnapshot::readsRetried),
      new CounterSpec("ryow.gtid.queries", Tags.empty(), "SELECT @@global.gtid_executed round trips",
          MetricsSnapshot::gtidQueries),
      new CounterSpec("ryow.gtid.subset.checks", Tags.empty(), "GTID_SUBSET checks against the primary",
          MetricsSnapshot::gtidSubsetChecks),
      new CounterSpec("ryow.gtids.lost.forgotten", Tags.empty(), "Watermarks that named GTIDs the primary lacks",
          MetricsSnapshot::lostGtidsForgotten),
      new CounterSpec("ryow.position.reads", Tags.empty(),
          "Positions read on demand so that a monotonic read could leave its scope's server",
          MetricsSnapshot::positionReads),
      new CounterSpec("ryow.replica.skips.out.of.rotation", Tags.empty(),
          "Times a read needing a wait passed over a replica out of rotation", MetricsSnapshot::outOfRotationSkips),
      new CounterSpec("ryow.replica.skips.stalled", Tags.empty(),
          "Times a read needing a wait passed over a replica predicted stalled, with no wait",
          MetricsSnapshot::stalledSkips),
      new CounterSpec("ryow.replica.failures", Tags.empty(), "Replicas leaving rotation",
          MetricsSnapshot::replicaFailures),
      new CounterSpec("ryow.replica.recoveries", Tags.empty(), "Replicas coming back into rotation",
          MetricsSnapshot::replicaRecoveries),
      new CounterSpec("ryow.position.polls", Tags.empty(), "Background polls of a server's position and health",
          MetricsSnapshot::positionPolls),
      new CounterSpec("ryow.position.resets", Tags.empty(), "Replica positions discarded (rebuilt or reset)",
          MetricsSnapshot::positionResets),
      new CounterSpec("ryow.primary.reconnects", Tags.empty(), "New primary connections after one was lost",
          MetricsSnapshot::primaryReconnects),
      new CounterSpec("ryow.primary.failovers", Tags.empty(), "Times the cluster moved to another writable server",
          MetricsSnapshot::primaryFailovers),
      new CounterSpec("ryow.primary.logins.without", Tags.empty(),
          "Logical connections opened on a replica because no writable primary was found",
          MetricsSnapshot::loginsWithoutPrimary),
      new CounterSpec("ryow.transactions.replayed", Tags.empty(),
          "Transactions replayed on a new primary connection after the old one was lost",
          MetricsSnapshot::transactionsReplayed),
      new CounterSpec("ryow.transactions.replays.refused", Tags.empty(),
          "Transaction replays refused because a result differed or the replay failed",
          MetricsSnapshot::transactionReplaysRefused));

  private final String clusterName;
  private final Supplier<MetricsSnapshot> metrics;

  /**
   * A binder for the cluster of {@code connection} (a {@code jdbc:ryow:} connection, or a pool's
   * wrapper of one). The binder keeps the unwrapped connection only to read its cluster's counters,
   * which it can do after the connection is closed.
   *
   * @throws SQLException if {@code connection} is not a {@code jdbc:ryow:} connection
   */
  public static RyowMeterBinder of(Connection connection) throws SQLException {
    RyowConnection ryow = connection.unwrap(RyowConnection.class);
    return new RyowMeterBinder(ryow.clusterName(), ryow::clusterMetrics);
  }

  /**
   * A binder over any source of snapshots.
   *
   * @param clusterName the value of the {@code cluster} tag
   * @param metrics called each time a meter is read
   */
  public RyowMeterBinder(String clusterName, Supplier<MetricsSnapshot> metrics) {
    this.clusterName = Objects.requireNonNull(clusterName, "clusterName");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Tags cluster = Tags.of("cluster", clusterName);
    for (CounterSpec c : COUNTERS) {
      ToDoubleFunction<MetricsSnapshot> value = c.value();
      FunctionCounter.builder(c.name(), metrics, m -> value.applyAsDouble(m.get()))
          .description(c.description())
          .tags(cluster.and(c.tags()))
          .register(registry);
    }
    FunctionTimer.builder(
            "ryow.waits", metrics, m -> m.get().waits(), m -> m.get().waitNanos(), TimeUnit.NANOSECONDS)
        .description("WAIT_FOR_EXECUTED_GTID_SET round trips on replicas")
        .tags(cluster)
        .register(registry);
    gauge(registry, "ryow.replicas", cluster.and("rotation", "in"), REPLICAS, MetricsSnapshot::replicasInRotation, null);
    gauge(registry, "ryow.replicas", cluster.and("rotation", "out"), REPLICAS, MetricsSnapshot::replicasOutOfRotation, null);
    gauge(registry, "ryow.replica.lag.max", cluster, "Largest applier lag at the last poll",
        MetricsSnapshot::maxApplierLagMillis, BaseUnits.MILLISECONDS);
    gauge(registry, "ryow.replica.share", cluster, "Share of reads served by replicas (0..1)",
        MetricsSnapshot::replicaShare, null);
    gauge(registry, "ryow.waits.p50", cluster, "Median wait on a replica since the cluster started",
        MetricsSnapshot::waitP50Millis, BaseUnits.MILLISECONDS);
    gauge(registry, "ryow.waits.p99", cluster, "99th percentile of the waits on replicas since the cluster started",
        MetricsSnapshot::waitP99Millis, BaseUnits.MILLISECONDS);
    gauge(registry, "ryow.replica.skips.stalled.share", cluster,
        "Skips of a replica predicted stalled, per read (0..1)", MetricsSnapshot::stalledSkipShare, null);
    gauge(registry, "ryow.replica.no.wait.share", cluster, "Share of replica reads that needed no wait (0..1)",
        MetricsSnapshot::noWaitShare, null);
  }

  private void gauge(MeterRegistry registry, String name, Tags tags, String description,
      ToDoubleFunction<MetricsSnapshot> value, @Nullable String baseUnit) {
    // Micrometer holds the state of function counters and timers weakly: the gauges hold it strongly,
    // so that the binder's meters keep reading it however the binder itself was kept.
    Gauge.builder(name, metrics, m -> value.applyAsDouble(m.get()))
        .strongReference(true)
        .description(description)
        .tags(tags)
        .baseUnit(baseUnit)
        .register(registry);
  }

  @Override
  public String toString() {
    return "RyowMeterBinder[" + clusterName + "]";
  }
}
