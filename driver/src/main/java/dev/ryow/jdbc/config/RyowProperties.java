package dev.ryow.jdbc.config;

import dev.ryow.jdbc.ConsistencyMode;
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
          "What a replica read does when the replica did not reach the watermark in time: primary (read"
              + " there), error (SQLTransientException) or stale (read the replica anyway, counted).");

  /** Whose writes a read must see. */
  public static final RyowProperty<ConsistencyMode> CONSISTENCY =
      new RyowProperty<>(
          "ryow.consistency",
          PropertyType.choice(ConsistencyMode.class),
          "connection",
          "Whose writes a read must see: connection (its own), scope (plus the ConsistencyScope bound to the"
              + " thread), jvm (every write this driver saw), latest (everything the primary committed before the"
              + " read; one extra statement per read), none (plain read/write split).");

  /** What a read does when its watermark names GTIDs the primary never executed. */
  public static final RyowProperty<UnknownGtidPolicy> UNKNOWN_GTIDS =
      new RyowProperty<>(
          "ryow.unknownGtids",
          PropertyType.choice(UnknownGtidPolicy.class),
          "primary",
          "What a read does when its watermark (e.g. from a token) names GTIDs the primary has never executed"
              + " (checked with GTID_SUBSET, once per new set): primary (read there, never wait) or error (SQLDataException).");

  /** Longest consistency token accepted. */
  public static final RyowProperty<Integer> TOKEN_MAX_LENGTH =
      new RyowProperty<>(
          "ryow.tokenMaxLength",
          PropertyType.integer(64, 1_048_576),
          "2048",
          "Longest consistency token accepted, in characters (tokens come from clients: keep it header-sized).");

  /** Most GTID intervals a consistency token may hold. */
  public static final RyowProperty<Integer> TOKEN_MAX_INTERVALS =
      new RyowProperty<>(
          "ryow.tokenMaxIntervals",
          PropertyType.integer(1, 1_000_000),
          "64",
          "Most GTID intervals a consistency token may hold; more is rejected before any server sees it.");

  /** HMAC key for signing consistency tokens. */
  public static final RyowProperty<String> TOKEN_KEY =
      new RyowProperty<>(
          "ryow.tokenKey",
          PropertyType.secret(16, 1024),
          "",
          "If set, tokens are signed with HMAC-SHA256 under this key and unsigned or wrongly signed tokens are"
              + " rejected, so clients cannot forge tokens that make reads wait.");

  /** The cluster's name in log messages and in its JMX MBean's name. */
  public static final RyowProperty<String> CLUSTER_NAME =
      new RyowProperty<>(
          "ryow.clusterName",
          PropertyType.text(100),
          "",
          "Name of the cluster in every log message and in its JMX MBean"
              + " (dev.ryow.jdbc:type=Cluster,name=...). Empty: the primary's host:port. Connections with"
              + " different names keep separate metrics.");

  /** All properties, in documentation order. */
  public static final List<RyowProperty<?>> ALL =
      List.of(
          GTID_CAPTURE,
          WAIT_TIMEOUT_MILLIS,
          FALLBACK,
          CONSISTENCY,
          UNKNOWN_GTIDS,
          TOKEN_MAX_LENGTH,
          TOKEN_MAX_INTERVALS,
          TOKEN_KEY,
          CLUSTER_NAME);

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
