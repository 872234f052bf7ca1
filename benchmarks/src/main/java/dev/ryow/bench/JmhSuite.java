package dev.ryow.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the JMH benchmarks of this module in one JMH run (with {@code -prof gc}), then the paired
 * round trips against the sandbox ({@link RoundTripPairs}, a plain harness: one thread, no JMH), and
 * writes {@code jmh.md} (tables, ratios, targets), {@code jmh.json} (JMH's own result file) and
 * {@code jmh-targets.tsv} into the results folder.
 *
 * <p>Usage: {@code JmhSuite [--out DIR] [--no-server] [--smoke]}. {@code --no-server} leaves out
 * {@link RoundTripPairs} (which needs the sandbox, {@code RYOW_SANDBOX_URL});
 * {@code --smoke} runs every benchmark for one short iteration in this JVM and a few pairs of each
 * round trip (a check that they run, not a measurement).
 */
public final class JmhSuite {
  private static final double CLASSIFY_NS = 50;
  private static final double WRAPPER_RATIO = 1.02;
  private static final double NO_WAIT_RATIO = 1.05;
  private static final double SCAN_NS_PER_CHAR = 2;
  private static final double WRAPPER_NS = 150;

  private JmhSuite() {}

  /** Runs the suite. */
  public static void main(String[] args) throws RunnerException, IOException, SQLException {
    Path out = Path.of("benchmarks/results");
    boolean server = true;
    boolean smoke = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--out" -> out = Path.of(args[++i]);
        case "--no-server" -> server = false;
        case "--smoke" -> smoke = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "; usage: JmhSuite [--out DIR] [--no-server] [--smoke]");
      }
    }
    Files.createDirectories(out);
    ChainedOptionsBuilder options = new OptionsBuilder()
        .include(ClassifierBenchmark.class.getName() + "\\.")
        .include(GtidSetBenchmark.class.getName() + "\\.")
        .include(WrapperOverheadBenchmark.class.getName() + "\\.")
        .addProfiler(GCProfiler.class)
        .addProfiler(CpuTimeProfiler.class)
        .resultFormat(ResultFormatType.JSON)
        .result(out.resolve("jmh.json").toString());
    if (smoke) {
      options.forks(0).warmupIterations(0).measurementIterations(1)
          .measurementTime(TimeValue.milliseconds(200));
    }
    List<String> loadBefore = List.of(Machine.loadAverage());
    Collection<RunResult> results = new Runner(options.build()).run();
    RoundTrips roundTrips = null;
    if (server) {
      String load = Machine.loadAverage();
      List<RoundTripPairs.CaseResult> cases =
          RoundTripPairs.run(Topology.fromEnvironment(), smoke ? RoundTripPairs.Plan.SMOKE : RoundTripPairs.Plan.FULL);
      roundTrips = new RoundTrips(cases, load, Machine.loadAverage());
    }
    new Report(results, roundTrips, smoke, loadBefore.get(0)).write(out);
  }

  /**
   * The paired round trips and the load average before and after them.
   *
   * @param cases one per case
   * @param loadBefore load average before the first pair
   * @param loadAfter load average after the last pair
   */
  record RoundTrips(List<RoundTripPairs.CaseResult> cases, String loadBefore, String loadAfter) {}

  /** Turns JMH's results and the paired round trips into Markdown and targets. */
  static final class Report {
    private final Collection<RunResult> results;
    private final @Nullable RoundTrips roundTrips;
    private final boolean smoke;
    private final String loadBefore;
    private final List<Target> targets = new ArrayList<>();

    Report(Collection<RunResult> results, @Nullable RoundTrips roundTrips, boolean smoke, String loadBefore) {
      this.results = results;
      this.roundTrips = roundTrips;
      this.smoke = smoke;
      this.loadBefore = loadBefore;
    }

    void write(Path out) throws IOException {
      List<String> md = new ArrayList<>();
      md.add("# JMH results");
      md.add("");
      if (smoke) {
        md.add("**Smoke run: one short iteration each, not a measurement.**");
        md.add("");
      }
      md.addAll(Machine.describe());
      md.add("- Load average before the run: " + loadBefore + "; after: " + Machine.loadAverage());
      md.add("- JMH " + jmhVersion() + ", `-prof gc`; settings per benchmark below");
      md.add("");
      classification(md);
      gtid(md);
      wrapper(md);
      roundTrips(md);
      md.add("## Targets");
      md.add("");
      md.add(Target.header());
      for (Target t : targets) {
        md.add(t.row());
      }
      md.add("");
      Files.write(out.resolve("jmh.md"), md);
      Target.write(out.resolve("jmh-targets.tsv"), targets);
      System.out.println(String.join("\n", md));
    }

    private List<RunResult> of(Class<?> benchmark) {
      List<RunResult> list = new ArrayList<>();
      for (RunResult r : results) {
        if (r.getParams().getBenchmark().startsWith(benchmark.getName() + ".")) {
          list.add(r);
        }
      }
      return list;
    }

    private static String settings(BenchmarkParams p) {
      return String.format(Locale.ROOT, "%d fork(s), %d×%s warmup, %d×%s measurement, %s, %d thread(s)",
          p.getForks(), p.getWarmup().getCount(), p.getWarmup().getTime(), p.getMeasurement().getCount(),
          p.getMeasurement().getTime(), p.getMode().longLabel(), p.getThreads());
    }

    private void classification(List<String> md) {
      List<RunResult> list = of(ClassifierBenchmark.class);
      if (list.isEmpty()) {
        return;
      }
      md.add("## Statement classification (`SqlClassifier.classify`, `ClassificationCache`)");
      md.add("");
      md.add("Settings: " + settings(list.get(0).getParams()) + ". ns/op (B/op). *scan*: a SQL text seen for the"
          + " first time; *repeated*: the same String sent again through a plain `Statement` (the cluster's"
          + " `ClassificationCache`); *same text, other String*: equal text in another String object.");
      md.add("");
      md.add("Wall-clock ns/op counts the time a thread waits for a CPU on a busy machine; *CPU* is the benchmark "
          + "thread's CPU time per operation (`CpuTimeProfiler`), which does not, and *per char* divides it by the "
          + "statement's length.");
      md.add("");
      md.add("| Statement | SQL | scan (wall) | scan CPU | scan CPU per char | repeated (wall) | repeated CPU "
          + "| same text, other String (wall) |");
      md.add("|---|---|---:|---:|---:|---:|---:|---:|");
      Map<String, Map<String, String>> rows = new LinkedHashMap<>();
      double worstScan = 0;
      double worstPerChar = 0;
      String worstPerCharName = "";
      Map<String, Double> perChar = new LinkedHashMap<>();
      double worstRepeated = 0;
      double worstBytes = 0;
      String worstScanName = "";
      String worstRepeatedName = "";
      for (RunResult r : list) {
        String name = r.getParams().getParam("statement");
        String method = r.getParams().getBenchmark().substring(r.getParams().getBenchmark().lastIndexOf('.') + 1);
        Result<?> p = r.getPrimaryResult();
        double bytes = allocation(r);
        rows.computeIfAbsent(name, k -> new LinkedHashMap<>())
            .put(method, String.format(Locale.ROOT, "%.1f ± %.1f (%s)", p.getScore(), err(p), bytesText(bytes)));
        worstBytes = Math.max(worstBytes, bytes);
        if (method.equals("classify") && p.getScore() > worstScan) {
          worstScan = p.getScore();
          worstScanName = name;
        }
        rows.get(name).put(method + ".cpu", String.format(Locale.ROOT, "%.1f", cpu(r)));
        if (method.equals("classify")) {
          double pc = cpu(r) / ClassifierBenchmark.STATEMENTS.get(name).length();
          perChar.put(name, pc);
          if (pc > worstPerChar && ClassifierBenchmark.STATEMENTS.get(name).length() >= 20) {
            worstPerChar = pc;
            worstPerCharName = name;
          }
        }
        if (method.equals("classifyRepeated") && p.getScore() > worstRepeated) {
          worstRepeated = p.getScore();
          worstRepeatedName = name;
        }
      }
      rows.forEach((name, cells) -> md.add(String.format(Locale.ROOT, "| %s | `%s` | %s | %s | %s | %s | %s | %s |",
          name, ClassifierBenchmark.STATEMENTS.get(name), cells.getOrDefault("classify", ""),
          cells.getOrDefault("classify.cpu", ""),
          perChar.containsKey(name) ? String.format(Locale.ROOT, "%.2f ns (%d chars)", perChar.get(name),
              ClassifierBenchmark.STATEMENTS.get(name).length()) : "",
          cells.getOrDefault("classifyRepeated", ""), cells.getOrDefault("classifyRepeated.cpu", ""),
          cells.getOrDefault("classifyRepeatedTextNewString", ""))));
      md.add("");
      targets.add(new Target("Classification, typical statements sent again (plain Statement, cache)", "≤ 50 ns/op",
          String.format(Locale.ROOT, "slowest %.1f ns/op (%s)", worstRepeated, worstRepeatedName),
          worstRepeated <= CLASSIFY_NS));
      targets.add(new Target("Classification, a SQL text seen for the first time (scan), statements of 20 chars or more",
          "≤ 2 ns per char (CPU)", String.format(Locale.ROOT, "slowest %.2f ns per char (%s); wall-clock, slowest "
              + "statement %.0f ns (%s)", worstPerChar, worstPerCharName, worstScan, worstScanName),
          worstPerChar <= SCAN_NS_PER_CHAR));
      targets.add(new Target("Classification, allocation", "0 B/op",
          "at most " + bytesText(worstBytes) + " B/op", worstBytes < 0.5));
    }

    private void gtid(List<String> md) {
      List<RunResult> list = of(GtidSetBenchmark.class);
      if (list.isEmpty()) {
        return;
      }
      md.add("## GTID sets (`GtidSet`)");
      md.add("");
      md.add("Settings: " + settings(list.get(0).getParams()) + ". ns/op (B/op).");
      md.add("");
      Map<String, Map<String, String>> rows = new LinkedHashMap<>();
      for (RunResult r : list) {
        String b = r.getParams().getBenchmark();
        String method = b.substring(b.lastIndexOf('.') + 1);
        Result<?> p = r.getPrimaryResult();
        rows.computeIfAbsent(r.getParams().getParam("shape"), k -> new LinkedHashMap<>())
            .put(method, String.format(Locale.ROOT, "%.1f ± %.1f (%s)", p.getScore(), err(p), bytesText(allocation(r))));
      }
      md.add("| Watermark shape | parse | unionOwnWrite | containsWatermark |");
      md.add("|---|---:|---:|---:|");
      rows.forEach((shape, m) -> md.add("| " + shape + " | " + m.getOrDefault("parse", "") + " | "
          + m.getOrDefault("unionOwnWrite", "") + " | " + m.getOrDefault("containsWatermark", "") + " |"));
      md.add("");
      md.add("Shapes: one-uuid `A:1-184467`; three-uuids `A:1-184467,B:1-5521,C:1-77`; tagged "
          + "`A:1-184467:audit:1-52:batch:3-9,B:1-5521`; many-intervals: one UUID with 200 intervals.");
      md.add("");
    }

    private void wrapper(List<String> md) {
      List<RunResult> list = of(WrapperOverheadBenchmark.class);
      if (list.isEmpty()) {
        return;
      }
      md.add("## Wrapper overhead against an in-process stub driver (no network)");
      md.add("");
      md.add("Settings: " + settings(list.get(0).getParams()) + ". The same calls on stub physical connections "
          + "(`dev.ryow.bench.stub`: answers at once, one new result set per query, a new GTID in the OK packet of each "
          + "write) directly (*raw*) and through `jdbc:ryow:` over those stub connections (*ryow*, defaults). Wall-clock "
          + "ns/op ± error (99.9 %); *CPU* is the benchmark thread's CPU time per operation (`CpuTimeProfiler`: time "
          + "spent waiting for a CPU on a busy machine not counted); B/op from `-prof gc`; *added* is ryow minus raw. "
          + "See `WrapperOverheadBenchmark` for each case.");
      md.add("");
      md.add("| Case | raw ns/op (wall) | ryow ns/op (wall) | raw CPU ns | ryow CPU ns | added CPU ns | raw B/op "
          + "| ryow B/op | added B/op |");
      md.add("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
      Map<String, RunResult[]> byCase = new LinkedHashMap<>();
      for (RunResult r : list) {
        String b = r.getParams().getBenchmark();
        String method = b.substring(b.lastIndexOf('.') + 1);
        byCase.computeIfAbsent(method, k -> new RunResult[2])[r.getParams().getParam("side").equals("raw") ? 0 : 1] = r;
      }
      double worstExecute = 0;
      String worstExecuteName = "";
      double worstExtraBytes = 0;
      String worstExtraBytesName = "";
      for (Map.Entry<String, RunResult[]> e : byCase.entrySet()) {
        RunResult raw = e.getValue()[0];
        RunResult ryow = e.getValue()[1];
        if (raw == null || ryow == null) {
          continue;
        }
        Result<?> a = raw.getPrimaryResult();
        Result<?> b = ryow.getPrimaryResult();
        double added = cpu(ryow) - cpu(raw);
        double addedBytes = allocation(ryow) - allocation(raw);
        md.add(String.format(Locale.ROOT, "| %s | %.1f ± %.1f | %.1f ± %.1f | %.1f | %.1f | **%.1f** | %s | %s | %s |",
            e.getKey(), a.getScore(), err(a), b.getScore(), err(b), cpu(raw), cpu(ryow), added,
            bytesText(allocation(raw)), bytesText(allocation(ryow)), bytesText(addedBytes)));
        boolean execute = e.getKey().startsWith("statement") || e.getKey().startsWith("prepared");
        if (execute && added > worstExecute) {
          worstExecute = added;
          worstExecuteName = e.getKey();
        }
        boolean query = e.getKey().endsWith("Query");
        if (query && addedBytes > worstExtraBytes) {
          worstExtraBytes = addedBytes;
          worstExtraBytesName = e.getKey();
        }
      }
      md.add("");
      targets.add(new Target("Wrapper overhead per execute (executeQuery/executeUpdate, stub driver)", "≤ 150 ns (CPU)",
          String.format(Locale.ROOT, "largest %.0f ns added (%s)", worstExecute, worstExecuteName),
          worstExecute <= WRAPPER_NS));
      // RoutedResultSet: a 12-byte header and 4 compressed references, 32 bytes once aligned.
      targets.add(new Target("Wrapper allocation per query (stub driver)", "the result-set wrapper only (32 B)",
          String.format(Locale.ROOT, "largest %s B/op added (%s)", bytesText(worstExtraBytes), worstExtraBytesName),
          worstExtraBytes <= 32.5));
    }

    private void roundTrips(List<String> md) {
      if (roundTrips == null) {
        return;
      }
      List<RoundTripPairs.CaseResult> cases = roundTrips.cases();
      RoundTripPairs.Plan plan = cases.get(0).plan();
      md.add("## Round trips: raw Connector/J vs `jdbc:ryow:` (local sandbox, paired)");
      md.add("");
      md.add(String.format(Locale.ROOT, "`RoundTripPairs` (no JMH): per case, in one thread, %d warm-up pairs, then "
          + "%d blocks of %d pairs; a pair is one raw and one ryow execution back to back, each side first in half "
          + "of a block's pairs (random order), each call timed with `System.nanoTime`. The ratio is of the two "
          + "sides' p50s over all pairs; per block, the ratio of the block's p50s: their median with its 95 %% "
          + "confidence interval (order statistics; the targets' interval), and their 5th-95th percentile (the "
          + "spread of a one-block estimate); the paired difference is ryow minus raw of the same pair. "
          + "Identical Connector/J settings on both sides; the servers were asked where both ran (`@@port`, "
          + "statement digests in `performance_schema`). Load average before the pairs: %s; after: %s.",
          plan.warmupPairs(), plan.blocks(), plan.pairsPerBlock(), roundTrips.loadBefore(), roundTrips.loadAfter()));
      md.add("");
      RoundTripPairs.table(md, cases);
      for (RoundTripPairs.CaseResult c : cases) {
        boolean primary = c.name().startsWith("primary");
        double goal = primary ? WRAPPER_RATIO : NO_WAIT_RATIO;
        // A wrapper cannot be faster than what it wraps: a confidence interval wholly below 1 is a measurement
        // error to explain, not a result.
        boolean belowOne = c.high() < 1;
        targets.add(new Target(
            primary ? "End-to-end round trip, primary point select (" + c.name() + ")"
                : "Replica read needing no wait vs plain replica read (" + c.name() + ")",
            String.format(Locale.ROOT, "≤ %.2f× raw Connector/J (p50, paired)", goal),
            String.format(Locale.ROOT, "%.3f× (per block: median %.3f×, 95 %% CI %.3f–%.3f×, 5–95 %% %.3f–%.3f×; "
                + "%d × %d pairs); paired difference %+.1f µs%s", c.ratio(), c.blockMedian(), c.low(), c.high(),
                c.spreadLow(), c.spreadHigh(), c.plan().blocks(), c.plan().pairsPerBlock(), c.differenceNs() / 1e3,
                belowOne ? "; below 1 beyond the interval: a measurement error" : ""),
            c.ratio() <= goal && !belowOne));
      }
    }

    private static double err(Result<?> r) {
      double e = r.getScoreError();
      return Double.isNaN(e) ? 0 : e;
    }

    /** {@code cpu.time.norm} (CPU ns/op, {@link CpuTimeProfiler}), NaN if not reported. */
    private static double cpu(RunResult r) {
      return secondary(r, "cpu.time.norm");
    }

    /** {@code gc.alloc.rate.norm} (B/op), NaN if the profiler did not report it. */
    private static double allocation(RunResult r) {
      return secondary(r, "gc.alloc.rate.norm");
    }

    /** The score of the secondary result whose name ends with {@code suffix}, NaN if none does. */
    private static double secondary(RunResult r, String suffix) {
      // JMH declares the map's values as the raw type Result; only the score is read.
      for (String name : r.getSecondaryResults().keySet()) {
        if (name.endsWith(suffix)) {
          return r.getSecondaryResults().get(name).getScore();
        }
      }
      return Double.NaN;
    }

    private static String bytesText(double bytes) {
      if (Double.isNaN(bytes)) {
        return "?";
      }
      return bytes < 0.01 ? "≈ 0" : String.format(Locale.ROOT, "%.2f", bytes);
    }

    private static String jmhVersion() {
      return org.openjdk.jmh.util.Version.getPlainVersion();
    }
  }
}
