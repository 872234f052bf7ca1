package dev.ryow.bench;

import dev.ryow.bench.Approaches.Approach;
import dev.ryow.bench.Workload.Cell;
import dev.ryow.bench.Workload.Condition;
import dev.ryow.bench.Workload.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The workload's Markdown table, CSV, chart and targets. */
final class WorkloadReport {
  private final Settings settings;
  private final List<Approach> approaches;
  private final List<Condition> conditions;
  private final List<Cell> cells;

  WorkloadReport(Settings settings, List<Approach> approaches, List<Condition> conditions, List<Cell> cells) {
    this.settings = settings;
    this.approaches = approaches;
    this.conditions = conditions;
    this.cells = cells;
  }

  void write(Path out) throws IOException {
    List<Target> targets = targets();
    List<String> md = new ArrayList<>();
    md.add("# Workload results");
    md.add("");
    md.addAll(settingsLines());
    md.add("");
    md.addAll(table());
    md.add("");
    md.add("![Workload chart](workload.svg)");
    md.add("");
    md.add("## Targets");
    md.add("");
    md.add(Target.header());
    targets.forEach(t -> md.add(t.row()));
    md.add("");
    md.add("## Approaches");
    md.add("");
    approaches.forEach(a -> md.add("- **" + a.name() + "**: " + a.description()));
    md.add("");
    md.add("## How it is counted");
    md.add("");
    md.add("- Each iteration inserts a new row `(id, v)` on the primary and reads it back at once by id; a read "
        + "that finds no row, or another value, is **stale** (counted by the client).");
    md.add("- **Reads on primary**: per server, the `COUNT_STAR` delta of the read's statement digest "
        + "(`SELECT v FROM <table> WHERE id = ?`) in `performance_schema.events_statements_summary_by_digest`; "
        + "every approach and condition has its own table, so digests never mix.");
    md.add("- **Statements / iteration**: per server, the `COUNT_STAR` delta of "
        + "`events_statements_summary_by_user_by_event_name` for the workload user, summed over all three "
        + "servers, divided by the iterations. Lag injection and these counts run as another user "
        + "(`" + Workload.ADMIN_USER + "`); connections are opened and primed (one write and read per thread) "
        + "before the first count, so only the loop is counted.");
    md.add("- Latencies are measured by the client around `write` (everything the approach does to write, e.g. "
        + "`setReadOnly(false)` or the GTID capture) and `read` (everything it does to read, e.g. the wait).");
    md.add("- Cells run one after the other on a shared machine: compare approaches within one run, not "
        + "absolute figures across machines.");
    md.add("");
    Files.write(out.resolve("workload.md"), md);
    Files.write(out.resolve("workload.csv"), csv());
    Files.writeString(out.resolve("workload.svg"), new Chart(approaches, conditions, cells).svg());
    Target.write(out.resolve("workload-targets.tsv"), targets);
    System.out.println(String.join("\n", table()));
    System.out.println();
    System.out.println(Target.header());
    targets.forEach(t -> System.out.println(t.row()));
  }

  List<String> settingsLines() {
    List<String> l = new ArrayList<>(Machine.describe());
    l.add("- MySQL " + settings.mysqlVersion() + " (sandbox: 1 primary, " + settings.topology().replicas().size()
        + " replicas, GTID, row binlog, on this machine); " + settings.connectorVersion());
    l.add(String.format(Locale.ROOT, "- Settings: %d threads, %d s per cell (after a %d s warm-up per approach), "
        + "pulse = appliers paused %d ms of every %d ms, blocked = appliers running but blocked (`FLUSH TABLES "
        + "WITH READ LOCK` held on the replicas) %d ms of every %d ms, storm = appliers paused for the whole cell; "
        + "wait timeout 100 ms (ryow default, and the hand-written code's 0.1 s); ryow approaches with the "
        + "driver's defaults",
        settings.threads(), settings.seconds(), settings.warmup(), settings.pauseMs(), settings.periodMs(),
        settings.pauseMs(), settings.periodMs()));
    l.add("- Run started " + settings.started() + ", took " + settings.elapsedSeconds() + " s; load average "
        + settings.loadAtStart() + " at start, " + settings.loadAtEnd() + " at end");
    return l;
  }

  List<String> table() {
    List<String> l = new ArrayList<>();
    l.add("| Condition | Approach | Iterations/s | Stale reads | Read p50 / p99 ms | Write p50 / p99 ms "
        + "| Reads on primary | Statements / iteration |");
    l.add("|---|---|---:|---:|---:|---:|---:|---:|");
    for (Cell c : cells) {
      l.add(String.format(Locale.ROOT, "| %s | %s | %.0f | %s | %.2f / %.2f | %.2f / %.2f | %.1f %% | %.2f |",
          c.condition().label, c.approach(), c.iterationsPerSecond(),
          (c.stale() == 0 ? "0" : "**" + c.stale() + "**") + " / " + c.iterations()
              + (c.stale() == 0 ? "" : String.format(Locale.ROOT, " (%.1f %%)", 100 * c.staleShare()))
              + (c.errors() == 0 ? "" : ", errors " + c.errors()),
          c.readP50(), c.readP99(), c.writeP50(), c.writeP99(), 100 * c.primaryShare(),
          c.statementsPerIteration()));
    }
    return l;
  }

  List<String> csv() {
    List<String> l = new ArrayList<>();
    l.add("condition,approach,iterations,seconds,stale,errors,read_p50_ms,read_p99_ms,write_p50_ms,write_p99_ms,"
        + "primary_reads,replica_reads,statements");
    for (Cell c : cells) {
      l.add(String.format(Locale.ROOT, "%s,%s,%d,%.3f,%d,%d,%.4f,%.4f,%.4f,%.4f,%d,%d,%d", c.condition().label,
          c.approach(), c.iterations(), c.seconds(), c.stale(), c.errors(), c.readP50(), c.readP99(), c.writeP50(),
          c.writeP99(), c.primaryReads(), c.replicaReads(), c.statements()));
    }
    return l;
  }

  private Cell find(String approach, Condition condition) {
    for (Cell c : cells) {
      if (c.approach().equals(approach) && c.condition() == condition) {
        return c;
      }
    }
    return null;
  }

  List<Target> targets() {
    List<Target> t = new ArrayList<>();
    // With no lag, ryow reads stay on replicas.
    List<String> figures = new ArrayList<>();
    boolean met = true;
    for (String a : List.of("ryow", "ryow-query", "ryow-pooled")) {
      Cell c = find(a, Condition.NONE);
      if (c != null) {
        double share = 100 * (1 - c.primaryShare());
        figures.add(String.format(Locale.ROOT, "%s %.1f %%", a, share));
        met &= share >= 95;
      }
    }
    if (!figures.isEmpty()) {
      t.add(new Target("No lag: reads served by replicas (ryow)", "≥ 95 %", String.join(", ", figures), met));
    }
    // Stale reads: ryow none, Connector/J's replication driver some.
    long ryowStale = 0;
    long ryowReads = 0;
    for (Cell c : cells) {
      if (c.approach().startsWith("ryow")) {
        ryowStale += c.stale();
        ryowReads += c.iterations();
      }
    }
    if (ryowReads > 0) {
      t.add(new Target("Stale reads, ryow (every approach), every condition", "0",
          ryowStale + " of " + ryowReads + " reads", ryowStale == 0));
    }
    List<String> cj = new ArrayList<>();
    long cjStale = 0;
    for (Condition condition : conditions) {
      Cell c = find("cj-replication", condition);
      if (c != null) {
        cj.add(String.format(Locale.ROOT, "%s %d of %d", condition.label, c.stale(), c.iterations()));
        cjStale += c.stale();
      }
    }
    if (!cj.isEmpty()) {
      t.add(new Target("Stale reads, Connector/J replication driver", "shows them (> 0)", String.join("; ", cj),
          cjStale > 0));
    }
    // Under routine lag, ryow's replicas serve at least the share the hand-written wait-then-primary code gets.
    for (Condition condition : List.of(Condition.PULSE, Condition.BLOCKED)) {
      Cell h = find("hand-written", condition);
      if (h == null) {
        continue;
      }
      List<String> f = new ArrayList<>();
      boolean atLeast = true;
      for (String a : List.of("ryow", "ryow-pooled")) {
        Cell r = find(a, condition);
        if (r != null) {
          f.add(String.format(Locale.ROOT, "%s %.1f %%", a, 100 * (1 - r.primaryShare())));
          atLeast &= 1 - r.primaryShare() >= 1 - h.primaryShare();
        }
      }
      if (!f.isEmpty()) {
        f.add(String.format(Locale.ROOT, "hand-written %.1f %%", 100 * (1 - h.primaryShare())));
        t.add(new Target("Reads served by replicas under " + condition.label + " lag, ryow vs hand-written",
            "≥ hand-written", String.join(", ", f), atLeast));
      }
    }
    // Statements per iteration vs the hand-written approach.
    for (String a : List.of("ryow", "ryow-query")) {
      List<String> f = new ArrayList<>();
      boolean fewer = true;
      boolean any = false;
      for (Condition condition : conditions) {
        Cell r = find(a, condition);
        Cell h = find("hand-written", condition);
        if (r != null && h != null) {
          any = true;
          f.add(String.format(Locale.ROOT, "%s %.2f vs %.2f", condition.label, r.statementsPerIteration(),
              h.statementsPerIteration()));
          fewer &= r.statementsPerIteration() < h.statementsPerIteration();
        }
      }
      if (any) {
        t.add(new Target("Statements per iteration, " + a + " vs hand-written", "fewer", String.join("; ", f),
            fewer));
      }
    }
    return t;
  }
}
