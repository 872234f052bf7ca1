package dev.ryow.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated performance block of {@code docs/benchmarks.md}: every table row appears once, each target
 * row names the run it came from, and the block is what {@link Summary} writes from the committed
 * {@code benchmarks/results/} (regenerate it with
 * {@code java -cp benchmarks/target/ryow-benchmarks.jar dev.ryow.bench.Summary --out benchmarks/results
 * --readme docs/benchmarks.md}). The front {@code README.md} carries none: a copy there would go unchecked.
 */
class PerformanceBlockTest {
  private static final Path ROOT = Path.of("..");
  private static final Path RESULTS = ROOT.resolve("benchmarks/results");

  @Test
  void theFrontReadmeHasNoGeneratedBlock() throws IOException {
    List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
    assertThat(readme).as("README.md links to docs/benchmarks.md instead of carrying the generated block")
        .doesNotContain(Summary.BEGIN, Summary.END)
        .anyMatch(l -> l.contains("(docs/benchmarks.md#latest-run)"));
  }

  @Test
  void theBenchmarksPageBlockHasNoDuplicateRowsAndNamesTheRunOfEachTarget() throws IOException {
    List<String> block = block(ROOT.resolve("docs/benchmarks.md"));
    assertThat(duplicates(block)).as("rows that appear more than once in docs/benchmarks.md's block").isEmpty();
    assertThat(targetsWithoutARun(block)).as("target rows of docs/benchmarks.md's block without a run named").isEmpty();
  }

  @Test
  void theBlockIsWhatSummaryWritesFromTheCommittedResults() throws IOException {
    Path page = ROOT.resolve("docs/benchmarks.md");
    assertThat(String.join("\n", block(page)))
        .as("docs/benchmarks.md's block, regenerated with Summary --readme docs/benchmarks.md")
        .isEqualTo(String.join("\n", Summary.summary(RESULTS, Summary.prefixFor(page, RESULTS))));
  }

  @Test
  void aTargetMeasuredByTwoRunsIsOneRowNamingBoth(@TempDir Path out) throws IOException {
    Files.createDirectories(out.resolve(Summary.NETWORK));
    Files.write(out.resolve("workload.md"), List.of("# Workload results", "", "- Run started 2026-01-02T03:04:05Z, took 9 s"));
    Target.write(out.resolve("workload-targets.tsv"), List.of(
        new Target("Stale reads, ryow", "0", "0 of 10 reads", true),
        new Target("Statements, ryow-query vs hand-written", "fewer", "3.9 vs 4.0", true)));
    Target.write(out.resolve(Summary.NETWORK).resolve("workload-targets.tsv"), List.of(
        new Target("Stale reads, ryow", "0", "0 of 5 reads", true),
        new Target("Statements, ryow-query vs hand-written", "fewer", "4.1 vs 4.0", false),
        new Target("Read after write, 0.5 ms each way", "≤ 1.3×", "1.2×", true)));

    List<String> md = List.of(String.join("\n", Summary.targets(out, "r/")).split("\n"));

    assertThat(duplicates(md)).isEmpty();
    assertThat(targetsWithoutARun(md)).isEmpty();
    assertThat(md).contains(
        "| Stale reads, ryow | loopback, 0.5 ms each way | 0 | loopback: 0 of 10 reads; 0.5 ms each way: 0 of 5 reads | met |",
        "| Statements, ryow-query vs hand-written | loopback, 0.5 ms each way | fewer | loopback: 3.9 vs 4.0; 0.5 ms each way:"
            + " 4.1 vs 4.0 | **not met** (0.5 ms each way) |",
        "| Read after write, 0.5 ms each way | 0.5 ms each way | ≤ 1.3× | 1.2× | met |");
    assertThat(md).filteredOn(l -> l.startsWith("Runs: "))
        .singleElement().asString()
        .contains("*loopback*: workload on loopback, started 2026-01-02T03:04:05Z ([workload.md](r/workload.md))")
        .contains("*0.5 ms each way*: workload behind forwarders")
        .doesNotContain("*JMH*");
  }

  @Test
  void thePositionModeRowSetsTheNoGtidRunBesideGtidMode(@TempDir Path out) throws IOException {
    String header = "| Condition | Approach | Iterations/s | Stale reads | Read p50 / p99 ms | Write p50 / p99 ms"
        + " | Reads on primary | Statements / iteration";
    Files.createDirectories(out.resolve(Summary.NETWORK));
    Files.createDirectories(out.resolve(Summary.NOGTID));
    Files.write(out.resolve("workload.md"), List.of("# Workload results", "", header + " |", "|---|---|",
        "| none | ryow | 558 | 0 / 5586 | 2.39 / 33.76 | 2.14 / 25.22 | 0.0 % | 3.02 |",
        "| storm | ryow | 2551 | 0 / 25540 | 0.45 / 2.18 | 0.69 / 4.85 | 100.0 % | 2.01 |"));
    Files.write(out.resolve(Summary.NETWORK).resolve("workload.md"), List.of(header + " | Round trips / iteration |",
        "|---|---|", "| none | ryow | 482 | 0 / 19291 | 2.82 / 20.33 | 3.02 / 18.25 | 0.0 % | 3.04 | 2.04 |"));
    Files.write(out.resolve(Summary.NOGTID).resolve("workload.md"), List.of("- Run started 2026-12-03T18:00:00Z, took 9 s",
        "", header + " | Round trips / iteration |", "|---|---|",
        "| none | ryow | 244 | 0 / 3673 | 11.0 / 40.0 | 5.0 / 16.0 | 0.0 % | 4.10 | 3.10 |",
        "| none | hand-written | 228 | 0 / 3400 | 13.0 / 36.0 | 3.3 / 10.6 | 0.4 % | 4.00 | 4.00 |",
        "| storm | ryow | 1300 | **2** / 19000 (0.0 %) | 0.5 / 6.1 | 1.5 / 9.9 | 100.0 % | 3.01 | 3.01 |"));

    List<String> md = new ArrayList<>();
    Summary.addPositionMode(md, out, "r/");

    assertThat(duplicates(md)).isEmpty();
    assertThat(md).contains("- Run started 2026-12-03T18:00:00Z, took 9 s",
        "| none | ryow, GTID mode (*loopback* run) | 3.02 | 2.04 (*0.5 ms each way*) | 100.0 % | 0 / 5586 |",
        "| none | ryow, binary-log positions (*no GTIDs* run) | 4.10 | 3.10 | 100.0 % | 0 / 3673 |",
        "| none | hand-written position loop (*no GTIDs* run) | 4.00 | 4.00 | 99.6 % | 0 / 3400 |",
        "| storm | ryow, GTID mode (*loopback* run) | 2.01 | – | 0.0 % | 0 / 25540 |",
        "| storm | ryow, binary-log positions (*no GTIDs* run) | 3.01 | 3.01 | 0.0 % | **2** / 19000 (0.0 %) |");
    assertThat(md).noneMatch(l -> l.startsWith("| storm | hand-written"));
  }

  @Test
  void withoutANoGtidRunThereIsNoPositionModeRow(@TempDir Path out) throws IOException {
    List<String> md = new ArrayList<>();
    Summary.addPositionMode(md, out, "");
    assertThat(md).isEmpty();
  }

  @Test
  void theDuplicateCheckFindsARepeatedRow() {
    List<String> md = List.of(Summary.TARGETS_HEADER.split("\n")[0], Summary.TARGETS_HEADER.split("\n")[1],
        "| No lag | loopback | ≥ 95 % | 100 % | met |", "| No lag | network | ≥ 95 % | 99 % | met |",
        "| Other | | 0 | 0 | met |");
    assertThat(duplicates(md)).containsExactly("No lag");
    assertThat(targetsWithoutARun(md)).containsExactly("Other");
  }

  /** The lines between the generated block's markers. */
  private static List<String> block(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    int begin = lines.indexOf(Summary.BEGIN);
    int end = lines.indexOf(Summary.END);
    assertThat(begin).as(file + " has a generated block").isNotNegative();
    assertThat(end).as(file + " ends its generated block").isGreaterThan(begin);
    return lines.subList(begin + 1, end);
  }

  /**
   * Rows repeated within one table, by what names a row: its first cell (the target), or its first two in
   * a table keyed by condition and approach.
   */
  static List<String> duplicates(List<String> md) {
    List<String> repeated = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    int keyCells = 1;
    for (int i = 0; i < md.size(); i++) {
      String line = md.get(i);
      if (!line.startsWith("|")) {
        seen.clear();
      } else if (i + 1 < md.size() && md.get(i + 1).startsWith("|---")) {
        List<String> header = cells(line);
        keyCells = header.size() > 1 && header.get(1).equals("Approach") ? 2 : 1;
        seen.clear();
      } else if (!line.startsWith("|---")) {
        List<String> cells = cells(line);
        String key = String.join(" | ", cells.subList(0, Math.min(keyCells, cells.size())));
        if (!seen.add(key)) {
          repeated.add(key);
        }
      }
    }
    return repeated;
  }

  /** Target rows (in a table whose header starts {@code | Target | Run |}) with an empty Run cell. */
  static List<String> targetsWithoutARun(List<String> md) {
    List<String> without = new ArrayList<>();
    boolean targets = false;
    for (String line : md) {
      if (!line.startsWith("|")) {
        targets = false;
        continue;
      }
      if (line.startsWith("| Target |")) {
        assertThat(line).as("a targets table names the run of each row").startsWith("| Target | Run |");
        targets = true;
        continue;
      }
      if (targets && !line.startsWith("|---")) {
        List<String> cells = cells(line);
        if (cells.size() < 2 || cells.get(1).isEmpty()) {
          without.add(cells.get(0));
        }
      }
    }
    return without;
  }

  private static List<String> cells(String row) {
    List<String> cells = new ArrayList<>();
    String inner = row.strip();
    inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
    for (String c : inner.split("\\|", -1)) {
      cells.add(c.strip());
    }
    return cells;
  }
}
