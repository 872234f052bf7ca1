package dev.ryow.bench;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.ReadWatermark;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.cluster.TokenBucket;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.SelectionStrategy;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.route.MonotonicReads;
import dev.ryow.jdbc.route.ReadRequirement;
import dev.ryow.jdbc.route.ReplicaSelector;
import dev.ryow.jdbc.server.ConnectorJ;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the fleet protection adds to a replica read that needs no wait (no server involved): choosing
 * the replica (tiers by known position and health, then the strategy), for a fallback taking a token
 * from the cluster's bucket, and the monotonic-read bookkeeping of a read whose scope's last read is
 * pending on its server (the common case: plan the read, record it).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AdmissionBenchmark {
  /** How replicas are ordered within a tier. */
  @Param({"least_waits", "round_robin", "random"})
  public String strategy;

  private List<ReplicaEndpoint> servers;
  private ReplicaEndpoint[] out;
  private long[] keys;
  private GtidSet watermark;
  private SelectionStrategy selection;
  private TokenBucket bucket;
  private final ReadRequirement requirement = new ReadRequirement();
  private MonotonicReads monotonic;
  private ReadWatermark[] scopes;
  private String replicaUuid;

  /** Three hosts (primary + 2 replicas), each replica known to have the watermark. */
  @Setup
  public void setup() throws Exception {
    RyowConfig config = RyowConfig.from("jdbc:ryow:mysql://p:3306,r1:3306,r2:3306/db", new Properties());
    Cluster cluster = new Cluster(config, new ConnectorJ());
    servers = cluster.servers();
    out = new ReplicaEndpoint[servers.size()];
    keys = new long[servers.size()];
    watermark = GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-1000");
    for (ReplicaEndpoint e : servers) {
      e.learn(GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5000"), null);
    }
    selection = SelectionStrategy.valueOf(strategy.toUpperCase(java.util.Locale.ROOT));
    bucket = new TokenBucket(50, 50);
    requirement.plain(watermark);
    monotonic = new MonotonicReads(cluster);
    scopes = new ReadWatermark[] {new ReadWatermark(), cluster.jvm().reads()};
    replicaUuid = "11111111-1111-1111-1111-111111111111";
  }

  /** Orders the candidates for one read. */
  @Benchmark
  public ReplicaEndpoint selectReplica() {
    ReplicaSelector.order(servers, requirement, selection, 1, out, keys);
    return out[0];
  }

  /**
   * A monotonic read's bookkeeping with the connection's and the JVM's read watermarks: the read before
   * it is pending on a replica (no poll since), so the plan keeps it there; then the read is recorded.
   * (The replica's uuid is unknown to the cluster here, so the plan takes the path that looks at every
   * pending read and server, the longest one.)
   */
  @Benchmark
  public ReplicaEndpoint monotonicReadPlan() {
    long now = System.nanoTime();
    scopes[0].observed(replicaUuid, now);
    scopes[1].observed(replicaUuid, now);
    monotonic.plan(watermark, scopes, 2, requirement);
    ReplicaSelector.order(servers, requirement, selection, 1, out, keys);
    return out[0];
  }

  /** Asking the cluster's bucket for a fallback token (refused almost always here: same path, same cost). */
  @Benchmark
  public boolean fallbackToken() {
    return bucket.tryAcquire();
  }
}
