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
          "What a replica read does when no replica can serve it in time: primary (read there, as before the"
              + " driver; capped only if ryow.fallbackRate is set), error (never the primary: SQLTransientException)"
              + " or stale (never the primary: read a reachable replica anyway, counted).");

  /** Sustained rate of reads per second that may fall back to the primary, per cluster in the JVM; 0: no cap. */
  public static final RyowProperty<Integer> FALLBACK_RATE =
      new RyowProperty<>(
          "ryow.fallbackRate",
          PropertyType.integer(0, 1_000_000),
          "0",
          "Reads per second that may fall back to the primary (ryow.fallback=primary), shared by all connections"
              + " to the cluster in this JVM (token bucket); 0: no cap, every such read runs on the primary. An"
              + " opt-in for primaries that cannot take the reads of a lag storm: size it from fallbackToPrimary at"
              + " peak (JMX/Micrometer) and the primary's spare read capacity.");

  /** Size of the fallback token bucket. */
  public static final RyowProperty<Integer> FALLBACK_BURST =
      new RyowProperty<>(
          "ryow.fallbackBurst",
          PropertyType.integer(1, 1_000_000),
          "50",
          "Fallback reads the primary may take at once beyond the sustained rate (token bucket size; the bucket"
              + " starts full). Only with ryow.fallbackRate > 0.");

  /** What a read does when the fallback budget is spent. */
  public static final RyowProperty<DegradeMode> FALLBACK_DEGRADE =
      new RyowProperty<>(
          "ryow.fallbackDegrade",
          PropertyType.choice(DegradeMode.class),
          "error",
          "What a read that should fall back to the primary does when ryow.fallbackRate (if set)/ryow.fallbackBurst is"
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
              + " server): gtid_executed, server_uuid, replication threads and applier lag; also watches the primary."
              + " Between two polls, a replica predicted stalled (it had not advanced while the primary had) is polled"
              + " again every eighth of this interval, so that it serves reads again soon after it advances.");

  /** How long a replica whose replication stopped without an error is still waited on. */
  public static final RyowProperty<Integer> APPLIER_STOP_GRACE_MILLIS =
      new RyowProperty<>(
          "ryow.applierStopGrace",
          PropertyType.integer(0, 600_000),
          "2000",
          "Milliseconds a replica whose receiver or applier stopped without an error (a short STOP REPLICA, a"
              + " restart) stays in rotation as a lagging replica that reads may wait on; longer stops, and every"
              + " replication error, take it out of rotation until it runs again.");

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
              + " when the primary is read-only (a switchover), before it fails; when the primary is unreachable (a"
              + " death) it looks for 2 s from the outage's start at most (this, if smaller). A new connection looks once,"
              + " within its connect and login timeouts, and finding none opens on a replica (its first statement that"
              + " needs the primary then looks as above). While no writable server is found, a read that no"
              + " replica can serve in ryow.waitTimeout waits on the replicas up to this long instead of falling back.");

  /** Whether a transaction interrupted by the loss of the primary is replayed on the new one. */
  public static final RyowProperty<Boolean> TRANSACTION_REPLAY =
      new RyowProperty<>(
          "ryow.transactionReplay",
          PropertyType.bool(),
          "false",
          "true: the statements of each read-write transaction and their parameters are recorded while it runs (at"
              + " most 1,000 statements and 1 MiB of SQL text and parameters), with a checksum of the rows the"
              + " application read and the update counts; a transaction whose primary connection is lost before its"
              + " COMMIT was sent is replayed on the new primary and goes on, but only if every result it read is"
              + " identical on replay, else the application gets the original error. A COMMIT whose outcome is unknown"
              + " is never replayed. false: the interrupted transaction fails and is the application's to run again.");

  /** Whose writes a read must see. */
  public static final RyowProperty<ConsistencyMode> CONSISTENCY =
      new RyowProperty<>(
          "ryow.consistency",
          PropertyType.choice(ConsistencyMode.class),
          "jvm",
          "Whose writes a read must see: jvm (every write any connection of this JVM made through the driver to"
              + " the cluster before the read began; safe in pooled applications), scope (the connection's and the"
              + " ConsistencyScope's bound to the thread, e.g. a user's across instances by token), connection (its"
              + " own only: cheapest, for code that keeps one connection; with a pool a read may miss another"
              + " connection's write and an ORM may save a stale entity back), latest (everything the primary"
              + " committed before the read; one extra statement per read), none (plain read/write split).");

  /** Whether reads in a consistency scope never go back in time. */
  public static final RyowProperty<Boolean> MONOTONIC_READS =
      new RyowProperty<>(
          "ryow.monotonicReads",
          PropertyType.bool(),
          "true",
          "Monotonic reads in the scope of ryow.consistency (jvm: every read of this JVM): once a read has shown"
              + " data, no later read shows an older state, even when replicas lag unevenly. The reads of a scope"
              + " then stay on one replica while it keeps up (the one furthest ahead) instead of spreading over all"
              + " of them, so one JVM's reads get one replica's capacity at a time. false: read-your-writes only"
              + " (each read may go to any replica that has the writes, and may show older data than the read"
              + " before).");

  /** Whether the poller adds the replicas the primary reports ({@code SHOW REPLICAS}) to the URL's. */
  public static final RyowProperty<Boolean> DISCOVER_REPLICAS =
      new RyowProperty<>(
          "ryow.discoverReplicas",
          PropertyType.bool(),
          "false",
          "true: each poll round also reads SHOW REPLICAS on the primary (Host from each replica's report_host,"
              + " Port from its report_port) and serves reads from the replicas it lists that the URL does not name"
              + " too, once each has answered with the URL's credentials, with the server_uuid the primary reports,"
              + " and replicates from this primary; a discovered replica the primary no longer lists leaves"
              + " rotation. Direct replicas only (a replica of a replica is not listed by the primary); at most 9"
              + " servers in all. false: only the URL's hosts.");

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

  /** How long a cluster without connections is kept before it is released. */
  public static final RyowProperty<Integer> CLUSTER_IDLE_TIMEOUT_MILLIS =
      new RyowProperty<>(
          "ryow.clusterIdleTimeout",
          PropertyType.integer(0, 86_400_000),
          "60000",
          "Milliseconds a cluster (its poller, counters, JMX MBean, known replica positions) is kept after its last"
              + " connection closed; then it is released, and the next connection creates it again with counters from"
              + " zero. Its poller stops 2 s after the last connection closed whatever this is.");

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
          APPLIER_STOP_GRACE_MILLIS,
          MAX_REPLICA_LAG_MILLIS,
          REPLICA_SELECTION,
          FAILOVER_TIMEOUT_MILLIS,
          TRANSACTION_REPLAY,
          CONSISTENCY,
          MONOTONIC_READS,
          DISCOVER_REPLICAS,
          UNKNOWN_GTIDS,
          TOKEN_MAX_LENGTH,
          TOKEN_MAX_INTERVALS,
          TOKEN_KEY,
          CLUSTER_NAME,
          CLUSTER_IDLE_TIMEOUT_MILLIS);

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
