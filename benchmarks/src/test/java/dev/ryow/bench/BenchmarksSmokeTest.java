package dev.ryow.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.bench.Workload.Cell;
import dev.ryow.bench.Workload.Condition;
import dev.ryow.bench.stub.StubCluster;
import dev.ryow.bench.stub.StubDriver;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import dev.ryow.jdbc.server.ServerStatus;
import dev.ryow.jdbc.sql.StatementKind;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Param;

/**
 * Quick checks that the benchmark code does what its names say (no timing is asserted: benchmarks
 * are not tests). The server benchmarks and the workload need the sandbox and are run by
 * {@code benchmarks/run-benchmarks}, not by the build.
 */
class BenchmarksSmokeTest {

  @Test
  void everyClassifierParameterNamesAStatementOfTheExpectedKind() throws Exception {
    String[] params = ClassifierBenchmark.class.getField("statement").getAnnotation(Param.class).value();
    assertThat(Arrays.asList(params)).containsExactlyInAnyOrderElementsOf(ClassifierBenchmark.STATEMENTS.keySet());
    List<StatementKind> kinds = new ArrayList<>();
    for (String p : params) {
      ClassifierBenchmark b = new ClassifierBenchmark();
      b.statement = p;
      b.setUp();
      kinds.add(b.classify());
    }
    assertThat(kinds).containsExactly(StatementKind.READ, StatementKind.READ, StatementKind.READ,
        StatementKind.WRITE, StatementKind.WRITE, StatementKind.PRIMARY_READ, StatementKind.PRIMARY_READ,
        StatementKind.SET_SESSION, StatementKind.COMMIT);
  }

  @Test
  void gtidBenchmarkRunsEveryShape() throws Exception {
    for (String shape : GtidSetBenchmark.class.getField("shape").getAnnotation(Param.class).value()) {
      GtidSetBenchmark b = new GtidSetBenchmark();
      b.shape = shape;
      b.setUp();
      assertThat(b.containsWatermark()).as(shape).isTrue();
      assertThat(b.unionOwnWrite().contains(b.parse())).as(shape).isTrue();
    }
  }

  @Test
  void theRoundTripHintSendsTheSelectToThePrimary() {
    assertThat(dev.ryow.jdbc.sql.SqlClassifier.classify(RoundTripPairs.PRIMARY_SELECT))
        .isEqualTo(StatementKind.PRIMARY_READ);
    assertThat(dev.ryow.jdbc.sql.SqlClassifier.classify(RoundTripPairs.PRIMARY_SELECT_LITERAL))
        .isEqualTo(StatementKind.PRIMARY_READ);
    assertThat(dev.ryow.jdbc.sql.SqlClassifier.classify(RoundTripPairs.REPLICA_SELECT))
        .isEqualTo(StatementKind.READ);
  }

  @Test
  void theRoundTripSidesUseTheSameConnectorJSettings() {
    Topology t = Topology.fromEnvironment();
    // What server.ConnectorJ adds to ryow's primary connection, the raw primary connection has too.
    assertThat(RoundTripPairs.rawPrimaryUrl(t)).contains("trackSessionState=true",
        "sessionVariables=session_track_gtids=OWN_GTID", "allowPublicKeyRetrieval=true");
    assertThat(RoundTripPairs.ryowUrl(t)).contains("allowPublicKeyRetrieval=true");
  }

  @Test
  void pairedRoundTripsReportEachSidesP50TheirRatioWithTheBlocksSpreadAndThePairedDifference(@TempDir Path dir)
      throws Exception {
    RoundTripPairs.Plan plan = new RoundTripPairs.Plan(0, 20, 5);
    long[] raw = new long[plan.pairs()];
    long[] ryow = new long[plan.pairs()];
    for (int i = 0; i < raw.length; i++) {
      raw[i] = 100_000 + 1_000L * (i % 5) + 10L * (i / 5); // blocks drift slowly, as a machine's load does
      ryow[i] = raw[i] + 500;
    }
    RoundTripPairs.CaseResult slower = RoundTripPairs.summarise("replicaKnownWatermark", plan, raw, ryow, "here");
    assertThat(slower.rawP50Us()).isCloseTo(102.095, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(slower.ryowP50Us()).isCloseTo(102.595, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(slower.differenceNs()).isEqualTo(500.0);
    assertThat(slower.blockRatios()).hasSize(20).isSorted();
    assertThat(slower.blockRatios()[0]).isGreaterThan(1);
    assertThat(slower.low()).isGreaterThan(1).isLessThanOrEqualTo(slower.blockMedian())
        .isEqualTo(slower.blockRatios()[RoundTripPairs.medianCiRank(20)]);
    assertThat(slower.high()).isGreaterThanOrEqualTo(slower.blockMedian());
    // 95 % intervals of a median: the 10th-21st of 30 values, the 6th-15th of 20; none from fewer than 6
    assertThat(RoundTripPairs.medianCiRank(30)).isEqualTo(9);
    assertThat(RoundTripPairs.medianCiRank(20)).isEqualTo(5);
    assertThat(RoundTripPairs.medianCiRank(5)).isZero();

    // A wrapper measured faster than what it wraps, beyond the interval: reported as an error, never as met.
    RoundTripPairs.CaseResult faster = RoundTripPairs.summarise("primaryPrepared", plan, ryow, raw, "here");
    assertThat(faster.high()).isLessThan(1);
    new JmhSuite.Report(List.of(), new JmhSuite.RoundTrips(List.of(slower, faster), "1", "2"), true, "0").write(dir);
    List<Target> targets = Target.read(dir.resolve("jmh-targets.tsv"));
    assertThat(targets).extracting(Target::name).containsExactly(
        "Replica read needing no wait vs plain replica read (replicaKnownWatermark)",
        "End-to-end round trip, primary point select (primaryPrepared)");
    assertThat(targets.get(0).met()).isTrue();
    assertThat(targets.get(0).figure()).startsWith("1.005× (per block: median 1.00").contains("95 % CI 1.00",
        "20 × 5 pairs", "+0.5 µs");
    assertThat(targets.get(1).met()).isFalse();
    assertThat(targets.get(1).figure()).contains("below 1 beyond the interval: a measurement error");
    assertThat(Files.readString(dir.resolve("jmh.md"))).contains("| replicaKnownWatermark | 20 × 5 | 102.1 | 102.6 |");
    boolean[] order = new boolean[1000];
    RoundTripPairs.shuffledHalves(order, new java.util.SplittableRandom(1));
    int rawFirst = 0;
    for (boolean b : order) {
      rawFirst += b ? 1 : 0;
    }
    assertThat(rawFirst).as("raw first in half of a block's pairs").isEqualTo(500);
  }

  @Test
  void percentilesAreNearestRank() {
    long[] sorted = new long[100];
    for (int i = 0; i < 100; i++) {
      sorted[i] = (i + 1) * 1_000_000L;
    }
    assertThat(Workload.percentileMs(sorted, 50)).isEqualTo(50.0);
    assertThat(Workload.percentileMs(sorted, 99)).isEqualTo(99.0);
    assertThat(Workload.percentileMs(new long[] {7_000_000L}, 99)).isEqualTo(7.0);
  }

  @Test
  void reportChartAndSummaryFromMadeUpCells(@TempDir Path dir) throws Exception {
    List<Approaches.Approach> approaches = Approaches.all();
    List<Cell> cells = new ArrayList<>();
    for (Condition c : Condition.values()) {
      for (Approaches.Approach a : approaches) {
        boolean cj = a.name().equals("cj-replication");
        long stale = cj && c != Condition.NONE ? 50 : 0;
        double statements = switch (a.name()) {
          case "ryow" -> 3;
          case "primary-only" -> 2;
          case "cj-replication" -> 10;
          default -> 4;
        };
        cells.add(new Cell(a.name(), c, 1000, 10, stale, 0, 0.5, 3, 0.7, 4, c == Condition.STORM ? 1000 : 0,
            c == Condition.STORM ? 0 : 1000, (long) (statements * 1000), Cell.NOT_COUNTED, 1));
      }
    }
    Topology topology = Topology.fromEnvironment();
    Workload.Settings settings = new Workload.Settings("2025-01-01T00:00:00Z", 200, 4, 10, 2, 200, 1000,
        "9.7.0", "MySQL Connector/J 26.10.0", "0.1 0.1 0.1", "0.2 0.2 0.2", topology, 1, -1, null, 1);
    new WorkloadReport(settings, approaches, List.of(Condition.values()), cells).write(dir);

    String svg = Files.readString(dir.resolve("workload.svg"));
    DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    assertThat(svg).contains("Stale reads", "cj-replication", "ryow-pooled", "primary-only-pooled", "blocked", "storm");

    List<Target> targets = Target.read(dir.resolve("workload-targets.tsv"));
    assertThat(targets).extracting(Target::name).contains("No lag: reads served by replicas (ryow)",
        "Stale reads, ryow (every approach), every condition", "Stale reads, Connector/J replication driver",
        "Reads served by replicas under pulse lag, ryow vs hand-written",
        "Reads served by replicas under blocked lag, ryow vs hand-written");
    assertThat(targets).filteredOn(t -> t.name().equals("Statements per iteration, ryow vs hand-written"))
        .singleElement().extracting(Target::met).isEqualTo(true);
    assertThat(targets).filteredOn(t -> t.name().equals("Statements per iteration, ryow-query vs hand-written"))
        .singleElement().extracting(Target::met).isEqualTo(false);

    Path readme = dir.resolve("README.md");
    Files.write(readme, List.of("# x", "## Benchmarks", Summary.BEGIN, "old", Summary.END, "tail"));
    Summary.updateReadme(readme, Summary.summary(dir, "results/"));
    String updated = Files.readString(readme);
    assertThat(updated).doesNotContain("old").contains("![Workload chart](results/workload.svg)", "| none | ryow |",
        "tail");
  }

  @Test
  void theBenchmarksAndTheDemoRunTheDriverWithItsDefaultFallbackAndConsistency() throws Exception {
    List<String> lifted = new ArrayList<>();
    try (var files = Files.walk(Path.of("src/main/java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String text = Files.readString(f);
        for (String key : List.of("ryow.fallbackRate", "ryow.fallbackBurst", "ryow.consistency")) {
          if (text.contains(key)) {
            lifted.add(f.getFileName() + ": " + key);
          }
        }
      }
    }
    assertThat(lifted).as("ryow settings the benchmarks or the demo change").isEmpty();
    assertThat(Approaches.Pooled.poolSize(4)).as("pool for 4 threads").isLessThan(4).isPositive();
  }

  @Test
  void topologyBuildsTheSameServersForEveryDriver() {
    Topology t = Topology.fromEnvironment();
    assertThat(t.replicas()).hasSizeGreaterThanOrEqualTo(1);
    assertThat(t.mysqlUrl(t.primary())).startsWith("jdbc:mysql://" + t.primary() + "/" + t.database() + "?")
        .contains("allowPublicKeyRetrieval=true");
    assertThat(t.replicationUrl()).startsWith("jdbc:mysql:replication://" + String.join(",", t.servers()) + "/");
    assertThat(t.ryowUrl("ryow.gtidCapture=query")).endsWith("ryow.gtidCapture=query");
    assertThat(t.mysqlUrl(t.primary(), "a", "b")).contains("user=a", "password=b");
    Topology one = t.withOnlyReplica(t.replicas().get(0));
    assertThat(one.servers()).containsExactly(t.primary(), t.replicas().get(0));
    assertThat(one.ryowUrl()).isEqualTo(t.ryowUrl().replace("," + String.join(",", t.replicas()) + "/",
        "," + t.replicas().get(0) + "/"));
  }

  @Test
  void theWrapperOverStubConnectionsRoutesAndTracksGtidsAsOverConnectorJ() throws Exception {
    StubCluster stub = new StubCluster();
    try (Connection c = stub.ryow()) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      try (PreparedStatement read = c.prepareStatement(WrapperOverheadBenchmark.REPLICA_SELECT)) {
        read.setLong(1, 1L);
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(42);
        }
      }
      assertThat(ryow.lastServerRole()).isEqualTo(ServerRole.REPLICA);
      assertThat(ryow.lastServerAddress()).isEqualTo(StubCluster.REPLICA);
      try (Statement s = c.createStatement()) {
        assertThat(s.executeUpdate(WrapperOverheadBenchmark.UPDATE)).isEqualTo(1);
        assertThat(ryow.lastServerRole()).isEqualTo(ServerRole.PRIMARY);
        assertThat(ryow.consistencyToken()).as("the stub's GTID reached the watermark").contains(StubDriver.PRIMARY_UUID);
        try (ResultSet rs = s.executeQuery(WrapperOverheadBenchmark.PRIMARY_SELECT)) {
          assertThat(rs.next()).isTrue();
        }
        assertThat(ryow.lastServerRole()).isEqualTo(ServerRole.PRIMARY);
      }
    }
  }

  @Test
  void theStarterRequestBenchmarkRunsBothSidesAndOnlyTheStarterRenewsTheUsersToken() throws Exception {
    for (String side : java.util.List.of("driver", "starter")) {
      StarterRequestBenchmark b = new StarterRequestBenchmark();
      b.side = side;
      b.setUp();
      try {
        String before = b.userToken();
        assertThat(before).as("the first write's token").contains(StubDriver.PRIMARY_UUID);
        b.write();
        b.read();
        if (side.equals("starter")) {
          assertThat(b.userToken()).as("a write renews the cookie").isNotEqualTo(before);
        } else {
          assertThat(b.userToken()).as("no filter, no cookie").isEqualTo(before);
        }
      } finally {
        b.tearDown();
      }
    }
  }

  @Test
  void theStubAnswersThePollersQueriesAsMySqlDoes() throws Exception {
    StubCluster stub = new StubCluster();
    try (Connection c = stub.ryow(); Statement s = c.createStatement()) {
      s.executeUpdate(WrapperOverheadBenchmark.UPDATE);
    }
    ServerStatus primary = stub.status(true);
    assertThat(primary.gtidExecuted().toString()).as("the primary's gtid_executed after one write")
        .isEqualTo(StubDriver.PRIMARY_UUID + ":1-2");
    assertThat(primary.readOnly()).isFalse();
    assertThat(primary.replicaChannels()).isZero();
    ServerStatus replica = stub.status(false);
    assertThat(replica.readOnly()).isTrue();
    assertThat(replica.replicaChannels()).isEqualTo(1);
    assertThat(replica.receiverRunning() && replica.applierRunning()).isTrue();
    assertThat(stub.primaryPosition().executed()).isEqualTo(primary.gtidExecuted());
  }

  @Test
  void prepareStatementClassifiesThroughTheClustersCache() throws Exception {
    StubCluster stub = new StubCluster();
    String sql = "SELECT v FROM orm_entity WHERE id = ? /* prepared " + System.nanoTime() + " */";
    try (Connection c = stub.ryow()) {
      assertThat(stub.classificationCached(sql)).isFalse();
      c.prepareStatement(sql).close();
      assertThat(stub.classificationCached(sql)).as("classification of a prepared SQL text kept for the next prepare")
          .isTrue();
    }
  }

  @Test
  void repeatedRunsBehindForwardersReportRatiosWithTheirRangeAndRoundTrips(@TempDir Path dir) throws Exception {
    List<Approaches.Approach> approaches = Approaches.all();
    List<Cell> cells = new ArrayList<>();
    for (int run = 1; run <= 3; run++) {
      for (Approaches.Approach a : approaches) {
        double p50 = switch (a.name()) {
          case "primary-only" -> 1.0;
          case "ryow" -> 1.1 + 0.1 * run;
          case "primary-only-pooled" -> 1.6;
          default -> 2.0;
        };
        // Apply delays sampled only in ryow's cells: µs, two per run.
        long[] applied = a.name().equals("ryow") ? new long[] {400 + 100 * run, 900 + 100 * run} : new long[0];
        cells.add(new Cell(a.name(), Condition.NONE, 1000, 10, 0, 0, p50, 3 * p50, 1.0, 3, 0, 1000, 3000,
            a.name().equals("primary-only") ? 2000 : 3000, run, applied));
      }
    }
    Workload.Settings settings = new Workload.Settings("2025-01-01T00:00:00Z", 200, 4, 10, 2, 200, 1000,
        "9.7.0", "MySQL Connector/J 26.10.0", "0.1 0.1 0.1", "0.2 0.2 0.2", Topology.fromEnvironment(), 3, 0.5,
        new double[] {1.05, 1.4}, 1);
    new WorkloadReport(settings, approaches, List.of(Condition.NONE), cells).write(dir);
    List<Target> targets = Target.read(dir.resolve("workload-targets.tsv"));
    assertThat(targets).filteredOn(t -> t.name().startsWith("Read right after own write, 0.5 ms each way:"))
        .singleElement().satisfies(t -> {
          assertThat(t.figure()).startsWith("ryow 1.30× (1.20–1.40 over 3 runs)").contains("hand-written 2.00×")
              .doesNotContain("pooled");
          assertThat(t.met()).isTrue();
        });
    // The pooled approach against its own reference (the same pool and borrows), not against primary-only.
    assertThat(targets).filteredOn(t -> t.name().startsWith("Read right after own write, 0.5 ms each way, pooled"))
        .singleElement().satisfies(t -> {
          assertThat(t.name()).contains("primary-only-pooled's", "wait for a pooled connection");
          assertThat(t.figure()).isEqualTo("ryow-pooled 1.25× (1.25–1.25 over 3 runs)");
          assertThat(t.met()).isTrue();
        });
    assertThat(targets).filteredOn(t -> t.name().startsWith("Round trips per iteration (forwarders)")).singleElement()
        .extracting(Target::figure).isEqualTo("ryow 3.00 vs primary-only 2.00; ryow-pooled 3.00 vs primary-only-pooled 3.00");
    assertThat(targets).filteredOn(t -> t.name().equals("Round trips per iteration, ryow vs hand-written"))
        .singleElement().satisfies(t -> {
          assertThat(t.figure()).isEqualTo("none 3.00 vs 3.00");
          assertThat(t.met()).isFalse();
        });
    String md = Files.readString(dir.resolve("workload.md"));
    assertThat(md).contains("Round trips / iteration", "| none | ryow | 100 |", "| none | primary-only-pooled | 100 |",
        "1.20–1.40", "adds 0.50 ms each way",
        "ryow-pooled and primary-only-pooled: a HikariCP pool of 2 connections for the 4 threads",
        "include the wait for a free pooled connection");
    // Apply delay pooled over the runs (500, 600, 700, 1000, 1100, 1200 µs: nearest-rank p50 700, p99 1200).
    assertThat(md).contains("| Condition | Approach | Transactions sampled | Replica apply delay p50 / p99 ms |",
        "| none | ryow | 6 | 0.70 / 1.20 |", "| none | primary-only | 0 | – |",
        "LAST_APPLIED_TRANSACTION_END_APPLY_TIMESTAMP");
    List<String> csv = Files.readAllLines(dir.resolve("workload.csv"));
    assertThat(csv).hasSize(1 + 3 * approaches.size());
    assertThat(csv.get(0)).contains(",run,apply_delay_samples,apply_delay_p50_ms,apply_delay_p99_ms,");
    // The driver's columns at the end (WorkloadReportTest): none measured in these cells.
    assertThat(csv).contains("none,ryow,1000,10.000,0,0,1.2000,3.6000,1.0000,3.0000,0,1000,3000,3000,1,2,0.500,1.000,"
        + ",0,,,,,,,");
    // The summary copies the main table only, not the apply-delay table.
    Path network = dir.resolve(Summary.NETWORK);
    Files.createDirectories(network);
    Files.copy(dir.resolve("workload.md"), network.resolve("workload.md"));
    assertThat(Summary.summary(dir, "")).anyMatch(l -> l.startsWith("| none | ryow | 100 |"))
        .noneMatch(l -> l.contains("Transactions sampled"));
    assertThat(Files.readString(dir.resolve("workload.svg"))).contains("Round trips per iteration");
  }

  @Test
  void theForwarderDelaysEachDirectionKeepsOrderAndCountsRoundTrips() throws Exception {
    try (java.net.ServerSocket echo = new java.net.ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress())) {
      Thread server = new Thread(() -> {
        try (java.net.Socket s = echo.accept()) {
          s.getInputStream().transferTo(s.getOutputStream());
        } catch (java.io.IOException ignored) {
          // the test closed it
        }
      });
      server.setDaemon(true);
      server.start();
      try (LatencyForwarder f = LatencyForwarder.start("127.0.0.1:" + echo.getLocalPort(), 5);
          java.net.Socket client = new java.net.Socket("127.0.0.1", Integer.parseInt(f.address().split(":")[1]))) {
        client.setTcpNoDelay(true);
        var out = client.getOutputStream();
        var in = client.getInputStream();
        for (int i = 0; i < 5; i++) {
          long t0 = System.nanoTime();
          out.write(new byte[] {(byte) i, (byte) (i + 1)});
          out.flush();
          byte[] answer = in.readNBytes(2);
          long tookMs = (System.nanoTime() - t0) / 1_000_000;
          assertThat(answer).containsExactly((byte) i, (byte) (i + 1));
          assertThat(tookMs).as("a round trip through 5 ms each way").isGreaterThanOrEqualTo(10);
        }
        assertThat(f.roundTrips()).isEqualTo(5);
        assertThat(f.connections()).isEqualTo(1);
      }
    }
  }
}
