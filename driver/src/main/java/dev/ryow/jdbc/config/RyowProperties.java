package dev.ryow.jdbc.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Every {@code ryow.*} property the driver understands. The single source of truth. */
public final class RyowProperties {

  /** The prefix that separates this driver's settings from Connector/J's. */
  public static final String PREFIX = "ryow.";

  /** How the GTID of a write is learned. */
  public static final RyowProperty<GtidCaptureMode> GTID_CAPTURE =
      new RyowProperty<>(
          "ryow.gtidCapture",
          PropertyType.choice(GtidCaptureMode.class),
          "own_gtid",
          "How the GTID of a write is learned: own_gtid (session_track_gtids=OWN_GTID, exact, no extra"
              + " statement) or query (SELECT @@global.gtid_executed on the primary connection, conservative).");

  /** How long a replica read waits for the watermark, in milliseconds. */
  public static final RyowProperty<Integer> WAIT_TIMEOUT_MILLIS =
      new RyowProperty<>(
          "ryow.waitTimeout",
          PropertyType.integer(1, 60_000),
          "100",
          "Milliseconds a replica read waits (WAIT_FOR_EXECUTED_GTID_SET) for the connection's watermark"
              + " before the fallback applies. Keep it short (50-200): a waiting read holds a connection.");

  /** What a replica read does when the wait fails. */
  public static final RyowProperty<FallbackMode> FALLBACK =
      new RyowProperty<>(
          "ryow.fallback",
          PropertyType.choice(FallbackMode.class),
          "primary",
          "What a replica read does when no replica can serve it in time: primary (read there, limited by"
              + " ryow.fallbackRate/ryow.fallbackBurst, then ryow.fallbackDegrade), error (never the primary:"
              + " SQLTransientException) or stale (never the primary: read a reachable replica anyway, counted).");

  /** Sustained rate of reads per second that may fall back to the primary, per cluster in the JVM. */
  public static final RyowProperty<Integer> FALLBACK_RATE =
      new RyowProperty<>(
          "ryow.fallbackRate",
          PropertyType.integer(1, 1_000_000),
          "50",
          "Reads per second that may fall back to the primary (ryow.fallback=primary), shared by all connections"
              + " to the cluster in this JVM (token bucket). Protects the primary from a lag storm.");

  /** Size of the fallback token bucket. */
  public static final RyowProperty<Integer> FALLBACK_BURST =
      new RyowProperty<>(
          "ryow.fallbackBurst",
          PropertyType.integer(1, 1_000_000),
          "50",
          "Fallback reads the primary may take at once beyond the sustained rate (token bucket size; the bucket"
              + " starts full).");

  /** What a read does when the fallback budget is spent. */
  public static final RyowProperty<DegradeMode> FALLBACK_DEGRADE =
      new RyowProperty<>(
          "ryow.fallbackDegrade",
          PropertyType.choice(DegradeMode.class),
          "error",
          "What a read that should fall back to the primary does when ryow.fallbackRate/ryow.fallbackBurst is"
              + " spent: error (SQLTransientException naming the replica, the wait and the setting) or stale (read a"
              + " reachable replica anyway, counted and logged).");

  /** At most this many reads wait on one replica at once. */
  public static final RyowProperty<Integer> MAX_WAITERS_PER_REPLICA =
      new RyowProperty<>(
          "ryow.maxWaitersPerReplica",
          PropertyType.integer(1, 100_000),
          "16",
          "Reads of this JVM's connections that may wait (WAIT_FOR_EXECUTED_GTID_SET) on one replica at once; a"
              + " read beyond it does not wait there: it tries another replica, then the fallback.");

  /** Interval of the cluster's background poll of replica positions and health. */
  public static final RyowProperty<Integer> POLL_INTERVAL_MILLIS =
      new RyowProperty<>(
          "ryow.pollInterval",
          PropertyType.integer(10, 600_000),
          "200",
          "Milliseconds between two polls of each server (one shared daemon thread per cluster, one query per"
              + " server): gtid_executed, server_uuid, replication threads and applier lag; also watches the primary.");

  /** Applier lag beyond which a replica leaves rotation. */
  public static final RyowProperty<Integer> MAX_REPLICA_LAG_MILLIS =
      new RyowProperty<>(
          "ryow.maxReplicaLag",
          PropertyType.integer(1, 86_400_000),
          "30000",
          "Milliseconds of applier lag (now minus the original commit time of the transaction being applied, from"
              + " performance_schema; never Seconds_Behind_Source) beyond which a replica leaves rotation.");

  /** How reads choose among equally suitable replicas. */
  public static final RyowProperty<SelectionStrategy> REPLICA_SELECTION =
      new RyowProperty<>(
          "ryow.replicaSelection",
          PropertyType.choice(SelectionStrategy.class),
          "least_waits",
          "How a read chooses among equally suitable replicas (replicas known to have the watermark come first):"
              + " least_waits (fewest reads waiting there, then the connection's round-robin order), round_robin or"
              + " random.");

  /** How long a connection looks for a writable primary after losing it. */
  public static final RyowProperty<Integer> FAILOVER_TIMEOUT_MILLIS =
      new RyowProperty<>(
          "ryow.failoverTimeout",
          PropertyType.integer(0, 600_000),
          "30000",
          "Milliseconds a statement may spend looking for a writable server (read_only=OFF) among the URL's hosts"
              + " when the primary is unreachable or read-only, before it fails.");

  /** All properties, in documentation order. */
  public static final List<RyowProperty<?>> ALL =
      List.of(
          GTID_CAPTURE,
          WAIT_TIMEOUT_MILLIS,
          FALLBACK,
          FALLBACK_RATE,
          FALLBACK_BURST,
          FALLBACK_DEGRADE,
          MAX_WAITERS_PER_REPLICA,
          POLL_INTERVAL_MILLIS,
          MAX_REPLICA_LAG_MILLIS,
          REPLICA_SELECTION,
          FAILOVER_TIMEOUT_MILLIS);

  private static final Map<String, RyowProperty<?>> BY_LOWER_NAME =
      ALL.stream()
          .collect(Collectors.toUnmodifiableMap(p -> p.name().toLowerCase(java.util.Locale.ROOT), Function.identity()));

  private RyowProperties() {}

  /** Finds a property by key, ignoring case. */
  public static Optional<RyowProperty<?>> find(String key) {
    return Optional.ofNullable(BY_LOWER_NAME.get(key.toLowerCase(java.util.Locale.ROOT)));
  }

  /** The valid keys, for error messages. */
  public static String validNames() {
    return ALL.stream().map(RyowProperty::name).collect(Collectors.joining(", "));
  }
}
