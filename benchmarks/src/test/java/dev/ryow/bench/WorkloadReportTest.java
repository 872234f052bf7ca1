package dev.ryow.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.bench.Approaches.Approach;
import dev.ryow.bench.Workload.Cell;
import dev.ryow.bench.Workload.Condition;
import dev.ryow.bench.stub.StubCluster;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.ServerRole;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the workload report shows of issue 24 ("Lag costs no latency"): each replica's share of ryow-pooled's
 * replica reads (a target row of web-style pages), the driver's wait per read and the reads that skipped a
 * stalled replica (a table of the ryow approaches, CSV columns). From made-up cells: no server needed.
 */
class WorkloadReportTest {
  private static final String SHARE_TARGET = "Web-style pages, none: each replica's share of ryow-pooled's replica reads";
  private static final List<Approach> WEB = Approaches.all().stream()
      .filter(a -> List.of("primary-only-pooled", "ryow-pooled", "hand-written").contains(a.name())).toList();

  /** The settings of a run against {@code topology}: web-style pages of 4 reads, or one read-back. */
  private static Workload.Settings settings(Topology topology, boolean page, int runs) {
    return new Workload.Settings("2025-01-01T00:00:00Z", 200, 8, 10, 2, 200, 1000, "9.7.0",
        "MySQL Connector/J 26.10.0", "0.1 0.1 0.1", "0.2 0.2 0.2", topology, runs, -1, null, page ? 4 : 1);
  }

  private static Cell cell(String approach, Condition condition, int run, long[] byReplica, long[] waitNanos,
      long stalledSkips, long driverReads) {
    return cell(approach, condition, run, byReplica, waitNanos, stalledSkips, driverReads, new long[0]);
  }

  private static Cell cell(String approach, Condition condition, int run, long[] byReplica, long[] waitNanos,
      long stalledSkips, long driverReads, long[] cpuNanos) {
    long replicaReads = java.util.Arrays.stream(byReplica).sum();
    return new Cell(approach, condition, 1000, 10, 0, 0, 5.0, 20.0, 1.0, 3.0, 100, replicaReads, 7000,
        Cell.NOT_COUNTED, run, new long[0], byReplica, waitNanos, stalledSkips, driverReads, cpuNanos);
  }

  @Test
  void cpuPerIterationIsSplitIntoClientPrimaryAndReplicasAndSummedOverRuns() {
    // Two runs of 1000 iterations each: JVM, primary, replica1, replica2 in ns.
    Cell first = cell("ryow-pooled", Condition.NONE, 1, new long[] {1, 1}, new long[0], 0, 2,
        new long[] {1_000_000_000L, 500_000_000L, 700_000_000L, 800_000_000L});
    Cell second = cell("ryow-pooled", Condition.NONE, 2, new long[] {1, 1}, new long[0], 0, 2,
        new long[] {3_000_000_000L, 500_000_000L, 1_300_000_000L, 1_200_000_000L});
    assertThat(first.cpuMsPerIteration(0)).isEqualTo(1.0);
    assertThat(first.cpuMsPerIteration(2)).isEqualTo(1.5);
    assertThat(WorkloadReport.cpuText(first)).isEqualTo("1.00 | 0.50 | 1.50 | 3.00");
    Cell unmeasured = cell("primary-only-pooled", Condition.NONE, 1, new long[] {0, 0}, new long[0], -1, -1);
    assertThat(WorkloadReport.cpuText(unmeasured)).isEqualTo("– | – | – | –");
    assertThat(WorkloadReport.cpuCsv(unmeasured)).isEqualTo(",,");

    WorkloadReport report = new WorkloadReport(settings(Topology.fromEnvironment(), true, 2), WEB,
        List.of(Condition.NONE), List.of(first, second));
    // Merged: 2000 iterations; JVM 4 s, primary 1 s, replicas 4 s.
    assertThat(report.cpuTable()).containsExactly("CPU per iteration (see *How it is counted*):", "",
        "| Condition | Approach | Client JVM ms | Primary ms | Replicas ms | Total ms |", "|---|---|---:|---:|---:|---:|",
        "| none | ryow-pooled | 2.00 | 0.50 | 2.00 | 4.50 |");
    // A run without figures leaves the merged cell without them, rather than counting half the iterations.
    WorkloadReport partial = new WorkloadReport(settings(Topology.fromEnvironment(), true, 2), WEB,
        List.of(Condition.NONE), List.of(first, cell("ryow-pooled", Condition.NONE, 2, new long[] {1, 1},
            new long[0], 0, 2)));
    assertThat(partial.cpuTable()).isEmpty();
  }

  /** A closed-loop cell of 1000 pages in 10 s with CPU ns (JVM, primary, replica1, replica2), or an open-loop one. */
  private static Cell cpuCell(String approach, double share, double p50, double p99, long... cpuNanos) {
    return new Cell(approach, Condition.NONE, 1000, 10, 0, 0, p50, p99, 1.0, 3.0, 100, 900, 7000,
        Cell.NOT_COUNTED, 1, new long[0], new long[] {450, 450}, new long[0], Cell.NOT_COUNTED, Cell.NOT_COUNTED,
        cpuNanos, share, share * 100);
  }

  @Test
  void theFleetBoundIsTheBusiestServersBudgetOverItsCpuPerPageBesideTheMeasuredPagesPerSecond() {
    // primary-only: the primary spends 2 ms per page on 0.5 CPU: 250 pages/s; the replicas 0.5 ms each.
    // ryow: the primary 0.5 ms, replica1 1.0 ms, replica2 0.8 ms: replica1 bounds it at 500 pages/s.
    Cell primaryOnly = cpuCell("primary-only-pooled", 0, 5, 20, 1_000_000_000L, 2_000_000_000L, 500_000_000L,
        500_000_000L);
    Cell ryow = cpuCell("ryow-pooled", 0, 5, 20, 1_500_000_000L, 500_000_000L, 1_000_000_000L, 800_000_000L);
    WorkloadReport.FleetSetup budgets = new WorkloadReport.FleetSetup(true, new double[] {0.5, 0.5, 0.5},
        List.of("ryow-pooled: 3 windows"), List.of());
    WorkloadReport report = new WorkloadReport(settings(Topology.fromEnvironment(), true, 1), WEB,
        List.of(Condition.NONE), List.of(primaryOnly, ryow), List.of(), budgets);
    assertThat(report.fleetTable()).containsExactly(
        "Fleet bound from the servers' CPU per page (see *How it is counted*):", "",
        "| Condition | Approach | Client ms/page | primary ms/page | replica1 ms/page | replica2 ms/page | Busiest server"
            + " | Fleet bound pages/s | One replica at a time: bound pages/s | Measured pages/s | Measured / bound |",
        "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|",
        "| none | primary-only-pooled | 1.000 | 2.000 | 0.500 | 0.500 | primary (0.50 CPU) | 250 | – | 100 | 0.40 |",
        // One home carries both replicas' reads: 1.0 + 0.8 ms less one replica's apply (0.5, primary-only's
        // replicas): 1.3 ms per page on 0.5 CPU, 385 pages/s; measured / bound compares with that one.
        "| none | ryow-pooled | 1.500 | 0.500 | 1.000 | 0.800 | replica1 (0.50 CPU) | 500 | 385 | 100 | 0.26 |");
    assertThat(report.settingsLines()).anyMatch(l -> l.startsWith("- Page: read-heavy, one write per 4 reads"))
        .anyMatch(l -> l.contains("primary 0.50 CPU, replica1 0.50 CPU, replica2 0.50 CPU"))
        .contains("- Warm-up until stable: ryow-pooled: 3 windows");
    // Issue 40's targets against primary-only-pooled, with the bound the table compares with.
    String fleetTarget = "Read-heavy page, none, each server on its own CPU budget: ryow-pooled vs primary-only-pooled, ";
    assertThat(report.targets()).filteredOn(t -> t.name().startsWith(fleetTarget))
        .extracting(t -> t.name().substring(fleetTarget.length()), Target::goal, Target::figure, Target::met)
        .containsExactly(
            tuple("pages/s", "≥ 1.30× and ≥ 0.90 of the bound", "1.00× (100 vs 100), 0.26 of the bound (385)", false),
            tuple("primary CPU per page", "≤ 0.50×", "0.25× (0.500 ms vs 2.000 ms)", true),
            tuple("statements per page", "≤ 1.05×", "1.00× (7.00 vs 7.00)", true),
            tuple("client JVM CPU per page", "≤ 1.10×", "1.50× (1.500 ms vs 1.000 ms)", false));
    // The write-heavy page: its pages against the bound only.
    WorkloadReport writeHeavy = new WorkloadReport(settings(Topology.fromEnvironment(), true, 1), WEB,
        List.of(Condition.NONE), List.of(primaryOnly, ryow), List.of(),
        new WorkloadReport.FleetSetup(false, new double[] {0.5, 0.5, 0.5}, List.of(), List.of()));
    assertThat(writeHeavy.targets()).filteredOn(t -> t.name().startsWith("Write-heavy page"))
        .extracting(Target::goal, Target::figure, Target::met)
        .containsExactly(tuple("≥ 0.95 of the bound", "0.26 (100 pages/s, bound 385)", false));
    // Without budgets (servers on the machine's CPUs) there is no bound, and no table.
    assertThat(new WorkloadReport(settings(Topology.fromEnvironment(), true, 1), WEB, List.of(Condition.NONE),
        List.of(primaryOnly, ryow), List.of(), new WorkloadReport.FleetSetup(false, new double[] {Double.NaN,
            Double.NaN, Double.NaN}, List.of(), List.of())).fleetTable()).isEmpty();
  }

  @Test
  void openLoopCellsAreTabledApartAndComparedWithTheReferenceAtTheSameRate() {
    Cell closed = cpuCell("primary-only-pooled", 0, 5, 20, 1L, 1L, 1L, 1L);
    List<Cell> open = List.of(
        cpuCell("primary-only-pooled", 0.5, 4, 10, 1_000_000_000L, 2_000_000_000L, 0L, 0L),
        cpuCell("ryow-pooled", 0.5, 5, 11, 1_000_000_000L, 500_000_000L, 1_000_000_000L, 1_000_000_000L),
        cpuCell("ryow-pooled", 0.8, 6, 30, 1_000_000_000L, 500_000_000L, 1_000_000_000L, 1_000_000_000L),
        // A second run at the same share (its rate would differ with its run's reference): merged with the first.
        cpuCell("ryow-pooled", 0.5, 7, 13, 1_000_000_000L, 500_000_000L, 1_000_000_000L, 1_000_000_000L));
    WorkloadReport report = new WorkloadReport(settings(Topology.fromEnvironment(), true, 1), WEB,
        List.of(Condition.NONE), List.of(closed), open, WorkloadReport.FleetSetup.NONE);
    assertThat(report.openLoopTable()).containsExactly(
        "Open loop: pages due at a fixed rate, latency from when each was due (see *How it is counted*):", "",
        "| Condition | Approach | Offered pages/s (share) | Achieved pages/s | Page p50 / p99 ms | p50 / p99 vs "
            + "primary-only-pooled | Reads on primary | CPU ms/page client / primary / replicas |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
        "| none | primary-only-pooled | 50 (50 %) | 100 | 4.00 / 10.00 | 1.00× / 1.00× | 10.0 % | 1.000 / 2.000 / 0.000 |",
        "| none | ryow-pooled | 50 (50 %) | 100 | 6.00 / 12.00 | 1.50× / 1.20× | 10.0 % | 1.000 / 0.500 / 2.000 |",
        "| none | ryow-pooled | 80 (80 %) | 100 | 6.00 / 30.00 | – | 10.0 % | 1.000 / 0.500 / 2.000 |");
    // The closed-loop table is the closed loop's alone.
    assertThat(report.table()).hasSize(3);
    assertThat(new WorkloadReport(settings(Topology.fromEnvironment(), true, 1), WEB, List.of(Condition.NONE),
        List.of(closed)).openLoopTable()).isEmpty();
  }

  /** The three approaches of the web run in {@code condition}; ryow-pooled's replica reads split as given. */
  private static List<Cell> webCells(Condition condition, long... ryowByReplica) {
    long[] even = new long[ryowByReplica.length];
    java.util.Arrays.fill(even, 100);
    return List.of(
        cell("ryow-pooled", condition, 1, ryowByReplica, new long[] {0, 0, 300_000}, 0, 4000),
        cell("primary-only-pooled", condition, 1, new long[ryowByReplica.length], new long[0], Cell.NOT_COUNTED,
            Cell.NOT_COUNTED),
        cell("hand-written", condition, 1, even, new long[0], Cell.NOT_COUNTED, Cell.NOT_COUNTED));
  }

  private static List<Target> targets(Topology topology, boolean page, List<Cell> cells) {
    List<Condition> conditions = cells.stream().map(Cell::condition).distinct().toList();
    return new WorkloadReport(settings(topology, page, 1), WEB, conditions, cells).targets();
  }

  private static List<Target> shareTargets(Topology topology, boolean page, List<Cell> cells) {
    return targets(topology, page, cells).stream().filter(t -> t.name().equals(SHARE_TARGET)).toList();
  }

  @Test
  void eachReplicasShareIsATargetOfWebPagesWithNoLagMetAtAnEvenSplit() {
    List<Target> share = shareTargets(Topology.fromEnvironment(), true, webCells(Condition.NONE, 5000, 5000));
    assertThat(share).singleElement().satisfies(t -> {
      assertThat(t.goal()).isEqualTo("40–60 % each");
      assertThat(t.figure()).isEqualTo("replica1 50.0 %, replica2 50.0 %");
      assertThat(t.met()).isTrue();
    });
  }

  @Test
  void aSplitOf35To65IsNotMet() {
    assertThat(shareTargets(Topology.fromEnvironment(), true, webCells(Condition.NONE, 3500, 6500)))
        .singleElement().satisfies(t -> {
          assertThat(t.figure()).isEqualTo("replica1 35.0 %, replica2 65.0 %");
          assertThat(t.met()).isFalse();
        });
    assertThat(shareTargets(Topology.fromEnvironment(), true, webCells(Condition.NONE, 6500, 3500)))
        .singleElement().extracting(Target::met).isEqualTo(false);
  }

  @Test
  void aSplitOfExactly40To60IsMetAndJustBeyondIsNot() {
    assertThat(shareTargets(Topology.fromEnvironment(), true, webCells(Condition.NONE, 4000, 6000)))
        .singleElement().satisfies(t -> {
          assertThat(t.figure()).isEqualTo("replica1 40.0 %, replica2 60.0 %");
          assertThat(t.met()).isTrue();
        });
    assertThat(shareTargets(Topology.fromEnvironment(), true, webCells(Condition.NONE, 6000, 4000)))
        .singleElement().extracting(Target::met).isEqualTo(true);
    assertThat(shareTargets(Topology.fromEnvironment(), true, webCells(Condition.NONE, 3999, 6001)))
        .singleElement().extracting(Target::met).isEqualTo(false);
  }

  @Test
  void withThreeReplicasEachShareIsHeldToTenPointsOfAThird() {
    assertThat(shareTargets(Topology.fromEnvironment(), true, webCells(Condition.NONE, 3400, 3300, 3300)))
        .singleElement().satisfies(t -> {
          assertThat(t.goal()).isEqualTo("23–43 % each");
          assertThat(t.met()).isTrue();
        });
    assertThat(shareTargets(Topology.fromEnvironment(), true, webCells(Condition.NONE, 5000, 2500, 2500)))
        .singleElement().extracting(Target::met).isEqualTo(false);
  }

  @Test
  void theShareTargetNeedsTwoReplicasWebPagesAndTheRunWithNoLag() {
    Topology two = Topology.fromEnvironment();
    Topology one = two.withOnlyReplica(two.replicas().get(0));
    assertThat(shareTargets(one, true, webCells(Condition.NONE, 10_000))).as("one replica").isEmpty();
    assertThat(shareTargets(two, false, webCells(Condition.NONE, 5000, 5000))).as("one read-back, not pages")
        .isEmpty();
    List<Cell> lagged = new ArrayList<>();
    for (Condition c : List.of(Condition.PULSE, Condition.BLOCKED, Condition.STORM)) {
      lagged.addAll(webCells(c, 5000, 5000));
    }
    List<Target> targets = targets(two, true, lagged);
    assertThat(targets).as("the other targets of web pages are there").isNotEmpty();
    assertThat(targets).extracting(Target::name).doesNotContain(SHARE_TARGET);
  }

  @Test
  void theDriverTableShowsOnlyTheRyowApproachesWithTheirRunsPooled(@TempDir Path dir) throws Exception {
    // Two runs: replica reads summed, waits pooled, stalled skips and the driver's reads summed.
    long[] firstWaits = new long[500];
    long[] secondWaits = new long[500];
    for (int i = 0; i < 500; i++) {
      firstWaits[i] = 2L * i * 1_000; // 0, 2, 4, ... µs
      secondWaits[i] = (2L * i + 1) * 1_000; // 1, 3, 5, ... µs: pooled, 0..999 µs
    }
    List<Cell> cells = new ArrayList<>();
    for (int run = 1; run <= 2; run++) {
      cells.add(cell("ryow-pooled", Condition.NONE, run, run == 1 ? new long[] {10_000, 10_034}
          : new long[] {11_034, 10_877}, run == 1 ? firstWaits : secondWaits, 2 + run, 500));
      cells.add(cell("primary-only-pooled", Condition.NONE, run, new long[] {0, 0}, new long[0], Cell.NOT_COUNTED,
          Cell.NOT_COUNTED));
      cells.add(cell("hand-written", Condition.NONE, run, new long[] {9, 11}, new long[0], Cell.NOT_COUNTED,
          Cell.NOT_COUNTED));
    }
    WorkloadReport report = new WorkloadReport(settings(Topology.fromEnvironment(), true, 2), WEB,
        List.of(Condition.NONE), cells);
    assertThat(report.driverTable()).containsExactly(
        "The ryow approaches' reads (see *How it is counted*):",
        "",
        "| Condition | Approach | Replica reads per replica | Wait per read mean / p50 / p99 ms | Reads that skipped a stalled "
            + "replica |",
        "|---|---|---:|---:|---:|",
        "| none | ryow-pooled | 21,034 / 20,911 | 0.50 / 0.50 / 0.99 (1,000 reads) | 0.70 % (7 of 1,000) |");

    report.write(dir);
    String md = Files.readString(dir.resolve("workload.md"));
    int main = md.indexOf("| Condition | Approach | Pages/s");
    int driver = md.indexOf("| Condition | Approach | Replica reads per replica");
    int applyDelay = md.indexOf("| Condition | Approach | Transactions sampled");
    assertThat(main).as("the main table first").isGreaterThan(0).isLessThan(driver);
    assertThat(driver).as("then the ryow approaches' table, before the apply delays").isLessThan(applyDelay);
    String counted = md.substring(md.indexOf("## How it is counted"));
    assertThat(counted).contains("- **Replica reads per replica**", "- **Wait per read mean / p50 / p99 ms**",
        "unwrap(RyowConnection.class).lastRead().waitNanos()", "zeros included",
        "- **Reads that skipped a stalled replica**", "`stalledSkips`", "`replicaReads + primaryReads`");
    // The summary still takes the main table, the first one.
    assertThat(Summary.summary(dir, "")).noneMatch(l -> l.contains("Replica reads per replica"));
  }

  @Test
  void withoutARyowApproachThereIsNoDriverTable(@TempDir Path dir) throws Exception {
    List<Approach> others = WEB.stream().filter(a -> !a.name().startsWith("ryow")).toList();
    List<Cell> cells = List.of(
        cell("primary-only-pooled", Condition.NONE, 1, new long[] {0, 0}, new long[0], Cell.NOT_COUNTED,
            Cell.NOT_COUNTED),
        cell("hand-written", Condition.NONE, 1, new long[] {9, 11}, new long[0], Cell.NOT_COUNTED, Cell.NOT_COUNTED));
    WorkloadReport report = new WorkloadReport(settings(Topology.fromEnvironment(), true, 1), others,
        List.of(Condition.NONE), cells);
    assertThat(report.driverTable()).isEmpty();
    report.write(dir);
    assertThat(Files.readString(dir.resolve("workload.md"))).doesNotContain("Replica reads per replica",
        "Reads that skipped a stalled replica");
  }

  @Test
  void theCsvAppendsTheDriversColumnsEmptyForTheOtherApproaches() {
    long[] waits = new long[1000];
    for (int i = 0; i < waits.length; i++) {
      waits[i] = i * 1_000L;
    }
    List<Cell> cells = List.of(
        cell("ryow-pooled", Condition.NONE, 1, new long[] {21_034, 20_911}, waits, 7, 1000),
        cell("hand-written", Condition.NONE, 1, new long[] {9, 11}, new long[0], Cell.NOT_COUNTED, Cell.NOT_COUNTED));
    List<String> csv = new WorkloadReport(settings(Topology.fromEnvironment(), true, 1), WEB, List.of(Condition.NONE),
        cells).csv();
    assertThat(csv.get(0)).isEqualTo("condition,approach,iterations,seconds,stale,errors,read_p50_ms,read_p99_ms,"
        + "write_p50_ms,write_p99_ms,primary_reads,replica_reads,statements,round_trips,run,apply_delay_samples,"
        + "apply_delay_p50_ms,apply_delay_p99_ms,replica_reads_per_replica,wait_samples,wait_p50_ms,wait_p99_ms,"
        + "stalled_skips,driver_reads,cpu_client_ms_per_iteration,cpu_primary_ms_per_iteration,"
        + "cpu_replicas_ms_per_iteration");
    assertThat(csv.get(1)).isEqualTo("none,ryow-pooled,1000,10.000,0,0,5.0000,20.0000,1.0000,3.0000,100,41945,7000,"
        + "-1,1,0,NaN,NaN,21034;20911,1000,0.4990,0.9890,7,1000,,,");
    assertThat(csv.get(2)).startsWith("none,hand-written,1000,").endsWith(",0,NaN,NaN,,,,,,,,,");
    int columns = csv.get(0).split(",", -1).length;
    assertThat(csv).allSatisfy(l -> assertThat(l.split(",", -1)).hasSize(columns));
  }

  @Test
  void theStalledSkipShareIsSkipsPerReadOfTheDriver() {
    Cell counted = cell("ryow-pooled", Condition.STORM, 1, new long[] {0, 0}, new long[0], 250, 1000);
    assertThat(counted.stalledSkipShare()).isEqualTo(0.25);
    assertThat(WorkloadReport.stalledSkipText(counted)).isEqualTo("25.00 % (250 of 1,000)");
    Cell every = cell("ryow-pooled", Condition.STORM, 1, new long[] {0, 0}, new long[0], 1200, 1200);
    assertThat(WorkloadReport.stalledSkipText(every)).as("every read skipped one (a read counts once)")
        .isEqualTo("100.00 % (1,200 of 1,200)");
    Cell noReads = cell("ryow-pooled", Condition.STORM, 1, new long[] {0, 0}, new long[0], 3, 0);
    assertThat(noReads.stalledSkipShare()).as("skips without reads: no share").isNaN();
    assertThat(WorkloadReport.stalledSkipText(noReads)).isEqualTo("–");
    Cell notCounted = cell("hand-written", Condition.STORM, 1, new long[] {0, 0}, new long[0], Cell.NOT_COUNTED,
        Cell.NOT_COUNTED);
    assertThat(WorkloadReport.stalledSkipText(notCounted)).isEqualTo("–");
  }

  @Test
  void theWaitPerReadIsNearestRankInMillisecondsWithItsSampleCount() {
    long[] waits = new long[100];
    for (int i = 0; i < 100; i++) {
      waits[i] = i < 80 ? 0 : 150_000L * (i - 79); // 80 reads without a wait, then 0.15 .. 3.00 ms
    }
    Cell c = cell("ryow", Condition.PULSE, 1, new long[] {1, 1}, waits, 0, 100);
    assertThat(c.waitMs(50)).isZero();
    assertThat(c.waitMs(99)).isEqualTo(2.85);
    assertThat(c.waitMeanMs()).isCloseTo(0.315, org.assertj.core.data.Offset.offset(1e-9)); // 31.5 ms over 100 reads
    assertThat(WorkloadReport.waitText(cell("ryow", Condition.PULSE, 1, new long[] {1, 1},
        new long[] {0, 0, 1_000_000, 3_000_000}, 0, 4))).isEqualTo("1.00 / 0.00 / 3.00 (4 reads)");
    Cell none = cell("ryow", Condition.PULSE, 1, new long[] {1, 1}, new long[0], 0, 0);
    assertThat(WorkloadReport.waitText(none)).isEqualTo("–");
    assertThat(WorkloadReport.replicaReadsText(cell("ryow", Condition.NONE, 1, new long[] {1_234_567, 89}, waits, 0,
        1))).isEqualTo("1,234,567 / 89");
  }

  @Test
  void theWaitOfAPooledReadIsAskedOfTheRyowConnectionBehindHikarisProxy() throws Exception {
    // No poll after the first: a poll between the write and the read (a busy machine's pause is enough) would tell
    // the driver the stub replica has the write, and the read would not wait (failed so, twice in a row, at load 20).
    StubCluster stub = new StubCluster("ryow.pollInterval=600000");
    HikariConfig config = new HikariConfig();
    config.setDataSource(new RyowStubs(stub));
    config.setMaximumPoolSize(1);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      try (Connection c = pool.getConnection()) {
        // The first round has polled both servers before the write: it cannot tell the driver the replica has it.
        RyowConnection ryow = c.unwrap(RyowConnection.class);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (ryow.clusterMetrics().positionPolls() < 2 && System.nanoTime() - deadline < 0) {
          Thread.sleep(5);
        }
        assertThat(ryow.clusterMetrics().positionPolls()).as("the first poll round").isGreaterThanOrEqualTo(2);
        Approaches.insert(c, "bench_point", 7, 1);
      }
      try (Connection c = pool.getConnection()) {
        assertThat(c).as("HikariCP's proxy").isNotInstanceOf(RyowConnection.class);
        assertThat(Approaches.select(c, "bench_point", 7)).isEqualTo(42);
        ReadReport last = c.unwrap(RyowConnection.class).lastRead();
        assertThat(last).isNotNull();
        assertThat(last.role()).isEqualTo(ServerRole.REPLICA);
        assertThat(last.waited()).as("the read after the write waited for the replica").isTrue();
        assertThat(Approaches.lastWaitNanos(c)).isEqualTo(last.waitNanos());
      }
    }
    assertThat(Approaches.ryowUrl("jdbc:mysql://h:3306/d")).isEmpty();
    assertThat(Approaches.all()).filteredOn(a -> a.ryowUrl(Topology.fromEnvironment()).isPresent())
        .extracting(Approach::name).containsExactly("ryow", "ryow-query", "ryow-pooled");
    // Run only when named: apart from the standing comparison, and driving the driver too.
    assertThat(Approaches.onRequest()).extracting(Approach::name).containsExactly("ryow-user-scoped-pooled")
        .doesNotContainAnyElementsOf(Approaches.all().stream().map(Approach::name).toList());
    assertThat(Approaches.onRequest()).allMatch(a -> a.ryowUrl(Topology.fromEnvironment()).isPresent());
    // The driver's default monotonic reads keep a JVM's reads on one replica at a time.
    assertThat(Approaches.all()).filteredOn(Approach::readsOneReplicaAtATime).extracting(Approach::name)
        .containsExactly("ryow", "ryow-query", "ryow-pooled");
  }

  /** A data source of {@code jdbc:ryow:} connections over the stub servers, for HikariCP. */
  private record RyowStubs(StubCluster stub) implements DataSource {
    @Override
    public Connection getConnection() throws SQLException {
      return stub.ryow();
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      return stub.ryow();
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
      return false;
    }
  }
}
