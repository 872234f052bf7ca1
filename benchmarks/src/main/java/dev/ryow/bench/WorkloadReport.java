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
  /** One per condition and approach: a run's cell, or the runs merged (see {@link #merge}). */
  private final List<Cell> cells;
  /** Every run's cells. */
  private final List<Cell> runs;
  private final boolean counted;
  /** The open-loop cells, merged as {@link #cells} (per condition, approach and offered share). */
  private final List<Cell> openCells;
  private final FleetSetup fleet;

  /**
   * What the fleet figures need beside the cells: the page's shape, each server's CPU budget in CPUs (NaN: none;
   * primary first, as the cells' CPU figures), the warm-up's report per approach, the open-loop shares.
   */
  record FleetSetup(boolean readHeavy, double[] budgets, List<String> warmups, List<Double> openLoop) {
    static final FleetSetup NONE = new FleetSetup(false, new double[0], List.of(), List.of());

    /** Whether some server had a budget (the sandbox's hosts mode). */
    boolean budgeted() {
      return java.util.Arrays.stream(budgets).anyMatch(b -> !Double.isNaN(b));
    }
  }

  WorkloadReport(Settings settings, List<Approach> approaches, List<Condition> conditions, List<Cell> runs) {
    this(settings, approaches, conditions, runs, List.of(), FleetSetup.NONE);
  }

  WorkloadReport(Settings settings, List<Approach> approaches, List<Condition> conditions, List<Cell> runs,
      List<Cell> openRuns, FleetSetup fleet) {
    this.settings = settings;
    this.approaches = approaches;
    this.conditions = conditions;
    this.runs = runs;
    this.cells = merge(runs);
    this.counted = runs.stream().anyMatch(c -> c.roundTrips() >= 0);
    this.openCells = merge(openRuns);
    this.fleet = fleet;
  }

  /**
   * The cells of each condition and approach over all runs, merged: counts summed (so shares and
   * per-iteration figures are pooled), latency percentiles the median of the runs'.
   */
  static List<Cell> merge(List<Cell> runs) {
    java.util.Map<String, List<Cell>> groups = new java.util.LinkedHashMap<>();
    for (Cell c : runs) {
      groups.computeIfAbsent(c.condition().label + "/" + c.approach() + "/" + c.offeredShare(), k -> new ArrayList<>())
          .add(c);
    }
    List<Cell> merged = new ArrayList<>();
    for (List<Cell> g : groups.values()) {
      if (g.size() == 1) {
        merged.add(g.get(0));
        continue;
      }
      Cell f = g.get(0);
      long iterations = 0;
      double seconds = 0;
      long stale = 0;
      long errors = 0;
      long primaryReads = 0;
      long replicaReads = 0;
      long statements = 0;
      long roundTrips = 0;
      long[] byReplica = new long[f.replicaReadsByServer().length];
      long stalledSkips = 0;
      long driverReads = 0;
      List<long[]> applyDelays = new ArrayList<>();
      List<long[]> waits = new ArrayList<>();
      long[] cpu = null;
      double offered = 0;
      for (Cell c : g) {
        offered += c.offeredRate() / g.size();
        cpu = cpu == null ? c.cpuNanos() : sum(cpu, c.cpuNanos());
        applyDelays.add(c.applyDelayMicros());
        waits.add(c.waitNanos());
        for (int i = 0; i < byReplica.length; i++) {
          byReplica[i] += c.replicaReadsByServer()[i];
        }
        stalledSkips = stalledSkips < 0 || c.stalledSkips() < 0 ? Cell.NOT_COUNTED : stalledSkips + c.stalledSkips();
        driverReads = driverReads < 0 || c.driverReads() < 0 ? Cell.NOT_COUNTED : driverReads + c.driverReads();
        iterations += c.iterations();
        seconds += c.seconds();
        stale += c.stale();
        errors += c.errors();
        primaryReads += c.primaryReads();
        replicaReads += c.replicaReads();
        statements += c.statements();
        roundTrips = roundTrips < 0 || c.roundTrips() < 0 ? Cell.NOT_COUNTED : roundTrips + c.roundTrips();
      }
      merged.add(new Cell(f.approach(), f.condition(), iterations, seconds, stale, errors,
          median(g, Cell::readP50), median(g, Cell::readP99), median(g, Cell::writeP50), median(g, Cell::writeP99),
          primaryReads, replicaReads, statements, roundTrips, 0, pooled(applyDelays), byReplica, pooled(waits),
          stalledSkips, driverReads, cpu, f.offeredShare(), offered));
    }
    return merged;
  }

  /** Element by element; empty unless both have the same length (a run without CPU figures empties the sum). */
  private static long[] sum(long[] a, long[] b) {
    if (a.length != b.length) {
      return new long[0];
    }
    long[] s = new long[a.length];
    for (int i = 0; i < s.length; i++) {
      s[i] = a[i] + b[i];
    }
    return s;
  }

  /** The runs' samples in one sorted array. */
  private static long[] pooled(List<long[]> parts) {
    long[] all = parts.stream().flatMapToLong(java.util.Arrays::stream).toArray();
    java.util.Arrays.sort(all);
    return all;
  }

  static double median(List<Cell> cells, java.util.function.ToDoubleFunction<Cell> f) {
    double[] v = cells.stream().mapToDouble(f).sorted().toArray();
    int n = v.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  /** The read p50s of one condition and approach, one per run. */
  private double[] readP50s(String approach, Condition condition) {
    return runs.stream().filter(c -> c.approach().equals(approach) && c.condition() == condition)
        .mapToDouble(Cell::readP50).sorted().toArray();
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
    List<String> driverTable = driverTable();
    if (!driverTable.isEmpty()) {
      md.addAll(driverTable);
      md.add("");
    }
    md.addAll(applyDelayTable());
    md.add("");
    List<String> cpuTable = cpuTable();
    if (!cpuTable.isEmpty()) {
      md.addAll(cpuTable);
      md.add("");
    }
    List<String> fleetTable = fleetTable();
    if (!fleetTable.isEmpty()) {
      md.addAll(fleetTable);
      md.add("");
    }
    List<String> openLoopTable = openLoopTable();
    if (!openLoopTable.isEmpty()) {
      md.addAll(openLoopTable);
      md.add("");
    }
    md.add("![Workload chart](workload.svg)");
    md.add("");
    md.add("## Targets");
    md.add("");
    md.add(Target.header());
    targets.forEach(t -> md.add(t.row()));
    md.add("");
    md.add("## Approaches");
    md.add("");
    approaches.forEach(a -> md.add("- **" + a.name() + "**: " + a.description(settings.noGtid())));
    md.add("");
    md.add("## How it is counted");
    md.add("");
    md.add("- Each iteration inserts a new row `(id, v)` on the primary and reads it back at once by id; a read "
        + "that finds no row, or another value, is **stale** (counted by the client).");
    if (mariaDb()) {
      md.add("- **Reads on primary**: per server, the delta of `KEY_READ_HITS + KEY_READ_MISSES` of the cell's "
          + "table in `information_schema.TABLE_STATISTICS` (MariaDB's `userstat=ON`, set by the workload; "
          + "performance_schema is off by default on MariaDB): each read by id is one lookup, inserts and the "
          + "replicas' appliers none; every approach and condition has its own table.");
      md.add("- **Statements / iteration**: per server, the delta of `SELECT_COMMANDS + UPDATE_COMMANDS + "
          + "OTHER_COMMANDS` in `information_schema.USER_STATISTICS` for the workload user, summed over all three "
          + "servers, divided by the iterations. Lag injection and these counts run as another user "
          + "(`" + Workload.ADMIN_USER + "`); connections are opened and primed (one write and read per thread) "
          + "before the first count, so only the loop is counted.");
    } else {
      md.add("- **Reads on primary**: per server, the `COUNT_STAR` delta of the reads' statement digests "
          + "(`SELECT … FROM <table> …`: the key read `SELECT v FROM <table> WHERE id = ?`, and on a read-heavy page "
          + "also the range and the join) in `performance_schema.events_statements_summary_by_digest`; every "
          + "approach and condition has its own table, so digests never mix.");
      md.add("- **Statements / iteration**: per server, the `COUNT_STAR` delta of "
          + "`events_statements_summary_by_user_by_event_name` for the workload user, summed over all three "
          + "servers, divided by the iterations. Lag injection and these counts run as another user "
          + "(`" + Workload.ADMIN_USER + "`); connections are opened and primed (one write and read per thread) "
          + "before the first count, so only the loop is counted.");
    }
    if (!driverTable.isEmpty()) {
      md.add("- **Replica reads per replica** (the ryow approaches' table): the reads counted on each replica as for "
          + "*Reads on primary*, one figure per replica in the URL's order (replica1 first), pooled over the runs.");
      md.add("- **Wait per read mean / p50 / p99 ms**: after each read through the driver, the client asks the connection "
          + "that ran it (`unwrap(RyowConnection.class).lastRead().waitNanos()`; for `" + POOLED + "`, HikariCP's proxy"
          + " unwraps to the `jdbc:ryow:` connection it pools, asked before it goes back to the pool) how long the read"
          + " waited for its replica to have the session's writes: 0 when it did not wait (or the driver reported no "
          + "read). Every read is one sample, zeros included, so a p50 of 0 says that most reads did not wait, and the "
          + "mean is the wait a read costs on average (times the reads per page, what waiting adds to a page); "
          + "nearest-rank percentiles over all threads and runs, the number of reads sampled in brackets.");
      md.add("- **Reads that skipped a stalled replica**: the driver's cluster counters (`RyowDriver.clusterMetrics` "
          + "with the approach's URL), read after the priming and after the cell: the delta of `stalledSkips` (times a"
          + " read needing a wait passed over a replica in rotation predicted stalled, one that had not advanced while"
          + " the primary had, without waiting on it, including the reads monotonic reads keep on the primary while"
          + " every replica in rotation is stalled) over the delta of the driver's reads (`replicaReads + "
          + "primaryReads`); a read that skipped two replicas counts once. A cluster is shared by every connection "
          + "of one URL in the JVM, and cells run one approach at a time, so the deltas over a cell are its own.");
    }
    if (!cpuTable.isEmpty()) {
      md.add("- **CPU per iteration**: CPU time (user and system) used during the cell, divided by its iterations: "
          + "this JVM's (`OperatingSystemMXBean.getProcessCpuTime`: the clients, the driver with its poller, HikariCP"
          + " and the harness, the same for every approach) and each server's process (`/proc/PID/stat`, PID from "
          + "its `@@pid_file`: servers on this machine only), summed over the runs. On a machine whose CPUs the "
          + "servers and the clients share and keep busy, pages per second follow the total: a page that costs "
          + "more CPU anywhere leaves less for the next.");
    }
    if (!fleetTable.isEmpty()) {
      md.add("- **Fleet bound**: each server's CPU per page (as in *CPU per iteration*, per server) and its CPU budget "
          + "(its cgroup's `cpu.cfs_quota_us / cpu.cfs_period_us`, found from `/proc/PID/cgroup`: the sandbox's hosts "
          + "mode, `RYOW_SANDBOX_CPUS`); the bound is the pages per second at which the busiest server (the largest "
          + "CPU per page per CPU of budget) would use its whole budget: budget × 1000 / its ms per page. Measured / "
          + "bound near 1 says that server was saturated; far below, the pages were latency-bound, not CPU-bound (or, on "
          + "a busy machine, a server got less than its budget: a quota is a ceiling, not a reservation). The client "
          + "JVM has no budget and does not bound it; its CPU includes the harness's threads (the apply-delay "
          + "sampler), a cost per second, not per page. **One replica at a time**: for the `jdbc:ryow:` approaches "
          + "with the default monotonic reads, whose reads in one JVM stay on one replica (the home, which changes "
          + "once a poll round), that replica applies every write and serves every replica read while it is home: "
          + "it spends the replicas' CPU per page less what the others spend on applying alone (the replicas' CPU "
          + "per page under " + POOLED_REFERENCE + ", which reads none of them). That bound, where shown, is the one "
          + "measured / bound compares with.");
    }
    if (!openLoopTable.isEmpty()) {
      md.add("- **Open loop**: pages are due at a fixed rate, the given share of the reference approach's ("
          + POOLED_REFERENCE + ", else primary-only) closed-loop pages per second in the same condition and run; "
          + "page *k* is due *k* / rate seconds after the cell's start, and the first free thread runs it (on a pool, "
          + Workload.OPEN_LOOP_THREADS_PER_USER + " request threads per user share the same pool, as an application "
          + "server's request threads do; without a pool, one thread per user). Page latency "
          + "is counted from when the page was due, so a page that waited for a free thread counts its wait (no "
          + "coordinated omission). *Achieved* below *offered* means the clients could not keep up.");
    }
    if (counted) {
      md.add("- **Round trips / iteration**: client-to-server flights counted by the forwarders (data from the client"
          + " after the server last sent something, per connection), summed over all servers, divided by the"
          + " iterations. They include ryow's background poll (one query per server every `ryow.pollInterval`),"
          + " which is not per iteration." + (settings.delayMs() == 0 ? " The forwarders add no delay here: they"
          + " are there to count, and their hops add to every latency of the run." : ""));
    }
    if (settings.runs() > 1) {
      md.add("- With " + settings.runs() + " runs, each cell ran once per round; the table pools the runs' counts and"
          + " shows the median of their percentiles; *p50 per run* is the range of the runs' read p50s.");
    }
    if (mariaDb()) {
      md.add("- **Replica apply delay**: not sampled on MariaDB (the sampler reads MySQL's performance_schema "
          + "replication tables) (–).");
    } else if (settings.noGtid()) {
      md.add("- **Replica apply delay**: not sampled without GTIDs (the sampler tells transactions apart by GTID; "
          + "without GTIDs every one is `ANONYMOUS`) (–).");
    } else {
      md.add("- **Replica apply delay**: while each cell runs, every " + ApplyDelaySampler.INTERVAL_MS + " ms, the admin "
          + "user reads each replica's `performance_schema.replication_applier_status_by_worker` (one row per applier "
          + "worker: the last transaction it applied) and takes `LAST_APPLIED_TRANSACTION_END_APPLY_TIMESTAMP` − "
          + "`LAST_APPLIED_TRANSACTION_ORIGINAL_COMMIT_TIMESTAMP`: the first is when the replica's worker finished "
          + "applying the transaction (the replica's clock), the second when the primary wrote it to its binary log "
          + "(the primary's clock; all servers here share one machine's clock), both to the microsecond. Each "
          + "transaction counts once per replica (by GTID), those applied before the cell's first sample are left "
          + "out, and p50/p99 pool both replicas and all runs of the cell. It is a sample (the last transaction per "
          + "worker at each poll), not every write; under pulse and blocked lag, transactions still unapplied when "
          + "the cell ends are not in it, and under storm nothing is applied during the cell (–).");
    }
    md.add("- Latencies are measured by the client around `write` (everything the approach does to write, e.g. "
        + "`setReadOnly(false)` or the GTID capture) and `read` (everything it does to read, e.g. the wait).");
    md.add("- The pooled approaches (`" + POOLED + "`, `" + POOLED_REFERENCE + "`) borrow from a HikariCP pool "
        + "smaller than the number of threads, once for the write and once for the read-back: their write and read "
        + "latencies include the wait for a free pooled connection, so each is compared with the other (the same "
        + "pool, the same borrows), not with the approaches that keep one connection per thread.");
    md.add("- Cells run one after the other on a shared machine: compare approaches within one run, not "
        + "absolute figures across machines.");
    md.add("");
    Files.write(out.resolve("workload.md"), md);
    Files.write(out.resolve("workload.csv"), csv());
    Files.writeString(out.resolve("workload.svg"), new Chart(approaches, conditions, cells,
        settings.forwarded() ? String.format(Locale.ROOT, ", %.1f ms each way", settings.delayMs()) : "").svg());
    Target.write(out.resolve("workload-targets.tsv"), targets);
    System.out.println(String.join("\n", table()));
    System.out.println();
    if (!driverTable.isEmpty()) {
      System.out.println(String.join("\n", driverTable));
      System.out.println();
    }
    System.out.println(String.join("\n", applyDelayTable()));
    System.out.println();
    if (!cpuTable.isEmpty()) {
      System.out.println(String.join("\n", cpuTable));
      System.out.println();
    }
    for (List<String> extra : List.of(fleetTable, openLoopTable)) {
      if (!extra.isEmpty()) {
        System.out.println(String.join("\n", extra));
        System.out.println();
      }
    }
    System.out.println(Target.header());
    targets.forEach(t -> System.out.println(t.row()));
  }

  /** Whether the run was against MariaDB servers (their version says so). */
  private boolean mariaDb() {
    return settings.mysqlVersion().contains("MariaDB");
  }

  List<String> settingsLines() {
    List<String> l = new ArrayList<>(Machine.describe());
    l.add("- " + (mariaDb() ? "MariaDB " : "MySQL ") + settings.mysqlVersion() + " (sandbox: 1 primary, "
        + settings.topology().replicas().size() + " replicas, " + (settings.noGtid() ? "no GTIDs (`gtid_mode=OFF`, "
            + "replicas by binary-log file and position, " + settings.positions() + ")" : "GTID")
        + ", row binlog, on this machine); " + settings.connectorVersion());
    String warmedUp = fleet.warmups().isEmpty() ? settings.warmup() + " s warm-up per approach"
        : "warm-up per approach until its client CPU per page was stable, below";
    l.add(String.format(Locale.ROOT, "- Settings: %d threads, %d s per cell (after a %s), "
        + "pulse = appliers paused %d ms of every %d ms, blocked = appliers running but blocked (`FLUSH TABLES "
        + "WITH READ LOCK` held on the replicas) %d ms of every %d ms, storm = appliers paused for the whole cell; "
        + "wait timeout 100 ms (ryow default, and the hand-written code's 0.1 s); ryow approaches with the "
        + "driver's defaults",
        settings.threads(), settings.seconds(), warmedUp, settings.pauseMs(), settings.periodMs(),
        settings.pauseMs(), settings.periodMs()) + pooledNote());
    if (settings.forwarded() && settings.delayMs() == 0) {
      double[] added = settings.addedRoundTripMs();
      l.add(String.format(Locale.ROOT, "- Round trips: a forwarder in front of each server (`LatencyForwarder`) adding "
          + "no delay, to count client-to-server flights; measured, its hop adds %.2f ms (p50) / %.2f ms (p99) to a "
          + "`SELECT 1` round trip on the primary, and to every latency of this run", added[0], added[1]));
    } else if (settings.forwarded()) {
      double[] added = settings.addedRoundTripMs();
      l.add(String.format(Locale.ROOT, "- Network: a forwarder in front of each server (`LatencyForwarder`) adds %.2f ms "
          + "each way; measured, it adds %.2f ms (p50) / %.2f ms (p99) to a `SELECT 1` round trip on the primary "
          + "(timer wake-ups on a busy machine come late, never early)", settings.delayMs(), added[0], added[1]));
    }
    if (settings.page()) {
      l.add("- Flow: web-style pages. Each iteration is one page: a write (a new row), then " + settings.reads()
          + (fleet.readHeavy() ? " reads (see *Page*)" : " reads by id")
          + " (the new row, then rows the same user wrote before, the latest first), each a borrow of"
          + " its own from the pool for the pooled approaches. *Page* latency is the whole page, write included; a"
          + " page is *stale* if any of its reads missed a value the user wrote");
    }
    if (fleet.readHeavy()) {
      l.add("- Page: read-heavy, one write per " + settings.reads() + " reads: 3 of every 8 reads are not key reads (the "
          + "fifth a range over the user's latest " + (PageRead.SPAN + 1) + " rows, `ORDER BY id DESC`, all rows read; "
          + "the eighth a self-join of the row with the user's " + PageRead.SPAN + " rows before it, summed), the rest "
          + "key reads; each still reads back a row the user wrote and counts as stale if it misses it");
    }
    if (fleet.budgeted()) {
      List<String> b = new ArrayList<>();
      List<String> names = settings.topology().servers();
      for (int i = 0; i < fleet.budgets().length; i++) {
        b.add((i == 0 ? "primary" : "replica" + i) + " " + Fleet.budgetText(fleet.budgets()[i]));
      }
      l.add("- Hosts model: each server in a CPU budget of its own (sandbox hosts mode, cgroup `cpu` quota per 2 ms period): "
          + String.join(", ", b) + " (" + names.size() + " servers); the clients outside, on the machine's CPUs");
    }
    for (String w : fleet.warmups()) {
      l.add("- Warm-up until stable: " + w);
    }
    if (settings.runs() > 1) {
      l.add("- Repetitions: " + settings.runs() + " runs of every cell, in rounds");
    }
    l.add("- Run started " + settings.started() + ", took " + settings.elapsedSeconds() + " s; load average "
        + settings.loadAtStart() + " at start, " + settings.loadAtEnd() + " at end");
    return l;
  }

  /** What the Settings line says about the pooled approaches, if any ran. */
  private String pooledNote() {
    List<String> pooled = approaches.stream().map(Approach::name).filter(n -> n.endsWith("-pooled")).toList();
    if (pooled.isEmpty()) {
      return "";
    }
    return String.format(Locale.ROOT, "; %s: a HikariCP pool of %d connections for the %d threads, a borrow for the "
        + "write and another for the read-back, so their latencies include the wait for a free pooled connection "
        + "(compare them with each other, not with one connection per thread)", String.join(" and ", pooled),
        Approaches.Pooled.poolSize(settings.threads()), settings.threads());
  }

  List<String> table() {
    List<String> l = new ArrayList<>();
    boolean ranges = settings.runs() > 1;
    l.add("| Condition | Approach | " + (settings.page() ? "Pages/s | Stale pages | Page p50 / p99 ms"
        : "Iterations/s | Stale reads | Read p50 / p99 ms") + (ranges ? " | p50 per run ms" : "")
        + " | Write p50 / p99 ms | Reads on primary | Statements / iteration" + (counted ? " | Round trips / iteration" : "")
        + " |");
    l.add("|---|---|---:|---:|---:" + (ranges ? "|---:" : "") + "|---:|---:|---:" + (counted ? "|---:" : "") + "|");
    for (Cell c : cells) {
      double[] p50s = readP50s(c.approach(), c.condition());
      l.add(String.format(Locale.ROOT, "| %s | %s | %.0f | %s | %.2f / %.2f%s | %.2f / %.2f | %.1f %% | %.2f%s |",
          c.condition().label, c.approach(), c.iterationsPerSecond(),
          (c.stale() == 0 ? "0" : "**" + c.stale() + "**") + " / " + c.iterations()
              + (c.stale() == 0 ? "" : String.format(Locale.ROOT, " (%.1f %%)", 100 * c.staleShare()))
              + (c.errors() == 0 ? "" : ", errors " + c.errors()),
          c.readP50(), c.readP99(),
          ranges ? String.format(Locale.ROOT, " | %.2f–%.2f", p50s[0], p50s[p50s.length - 1]) : "",
          c.writeP50(), c.writeP99(), 100 * c.primaryShare(),
          c.statementsPerIteration(),
          counted ? String.format(Locale.ROOT, " | %.2f", c.roundTripsPerIteration()) : ""));
    }
    return l;
  }

  /** Whether {@code approach} runs the driver ({@code jdbc:ryow:}), as its name says. */
  static boolean ryow(String approach) {
    return approach.startsWith("ryow");
  }

  /**
   * Issue 24's figures for the approaches that run the driver, per condition: where their replica reads ran,
   * how long the driver waited per read, and how often a read passed over a stalled replica; empty without such
   * approaches.
   */
  List<String> driverTable() {
    List<String> l = new ArrayList<>();
    for (Cell c : cells) {
      if (ryow(c.approach())) {
        l.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |", c.condition().label, c.approach(),
            replicaReadsText(c), waitText(c), stalledSkipText(c)));
      }
    }
    if (l.isEmpty()) {
      return l;
    }
    l.add(0, "The ryow approaches' reads (see *How it is counted*):");
    l.add(1, "");
    l.add(2, "| Condition | Approach | Replica reads per replica | Wait per read mean / p50 / p99 ms | Reads that skipped a "
        + "stalled replica |");
    l.add(3, "|---|---|---:|---:|---:|");
    return l;
  }

  /** Each replica's reads, {@code 21,034 / 20,911}; a dash without per-replica counts. */
  static String replicaReadsText(Cell c) {
    long[] each = c.replicaReadsByServer();
    if (each.length == 0) {
      return "–";
    }
    List<String> l = new ArrayList<>();
    for (long n : each) {
      l.add(String.format(Locale.ROOT, "%,d", n));
    }
    return String.join(" / ", l);
  }

  /** {@code mean / p50 / p99 (N reads)} of the driver's wait per read, in ms; a dash without samples. */
  static String waitText(Cell c) {
    return c.waitNanos().length == 0 ? "–" : String.format(Locale.ROOT, "%.2f / %.2f / %.2f (%,d reads)",
        c.waitMeanMs(), c.waitMs(50), c.waitMs(99), c.waitNanos().length);
  }

  /** {@code share % (skips of reads)}; a dash when the driver's counters were not read or it read nothing. */
  static String stalledSkipText(Cell c) {
    double share = c.stalledSkipShare();
    return Double.isNaN(share) ? "–" : String.format(Locale.ROOT, "%.2f %% (%,d of %,d)", 100 * share,
        c.stalledSkips(), c.driverReads());
  }

  /**
   * Per condition and approach: how long after the primary's commit the replicas had applied the writes
   * (see {@link ApplyDelaySampler}), pooled over both replicas and all runs.
   */
  List<String> applyDelayTable() {
    List<String> l = new ArrayList<>();
    l.add("Replica apply delay (primary's commit to the replica's end of apply, from the servers' timestamps):");
    l.add("");
    l.add("| Condition | Approach | Transactions sampled | Replica apply delay p50 / p99 ms |");
    l.add("|---|---|---:|---:|");
    for (Cell c : cells) {
      l.add(String.format(Locale.ROOT, "| %s | %s | %d | %s |", c.condition().label, c.approach(),
          c.applyDelayMicros().length, applyDelayText(c)));
    }
    return l;
  }

  /**
   * Per condition and approach: what an iteration (a page) cost in CPU, in this JVM and on the servers; empty
   * when no cell was measured (servers not on this machine).
   */
  List<String> cpuTable() {
    if (cells.stream().allMatch(c -> Double.isNaN(c.cpuMsPerIteration(3)))) {
      return List.of();
    }
    List<String> l = new ArrayList<>();
    l.add("CPU per iteration (see *How it is counted*):");
    l.add("");
    l.add("| Condition | Approach | Client JVM ms | Primary ms | Replicas ms | Total ms |");
    l.add("|---|---|---:|---:|---:|---:|");
    for (Cell c : cells) {
      l.add(String.format(Locale.ROOT, "| %s | %s | %s |", c.condition().label, c.approach(), cpuText(c)));
    }
    return l;
  }

  /**
   * Per condition and approach (closed loop): each server's CPU per page, the busiest one against its budget, and
   * the fleet's bound beside the measured pages per second; empty without budgets or CPU figures.
   */
  List<String> fleetTable() {
    if (!fleet.budgeted() || cells.stream().allMatch(c -> Double.isNaN(c.cpuMsPerIteration(3)))) {
      return List.of();
    }
    int servers = fleet.budgets().length;
    List<String> l = new ArrayList<>();
    l.add("Fleet bound from the servers' CPU per page (see *How it is counted*):");
    l.add("");
    StringBuilder head = new StringBuilder("| Condition | Approach | Client ms/page");
    StringBuilder rule = new StringBuilder("|---|---|---:");
    for (int i = 0; i < servers; i++) {
      head.append(" | ").append(serverName(i)).append(" ms/page");
      rule.append("|---:");
    }
    l.add(head + " | Busiest server | Fleet bound pages/s | One replica at a time: bound pages/s | Measured pages/s "
        + "| Measured / bound |");
    l.add(rule + "|---|---:|---:|---:|---:|");
    for (Cell c : cells) {
      l.add(fleetRow(c, servers));
    }
    return l;
  }

  private String fleetRow(Cell c, int servers) {
    double[] ms = serverMs(c, servers);
    StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %s | %s | %s", c.condition().label,
        c.approach(), fmt(c.cpuMsPerIteration(0), "%.3f")));
    for (double m : ms) {
      row.append(" | ").append(fmt(m, "%.3f"));
    }
    int busiest = Fleet.busiest(ms, fleet.budgets());
    double bound = Fleet.capacity(ms, fleet.budgets());
    double oneHome = oneHomeBound(c, ms, servers);
    return row + String.format(Locale.ROOT, " | %s | %s | %s | %.0f | %s |",
        busiest < 0 ? "–" : serverName(busiest) + " (" + Fleet.budgetText(fleet.budgets()[busiest]) + ")",
        fmt(bound, "%.0f"), Double.isNaN(oneHome) ? "–" : fmt(oneHome, "%.0f"), c.iterationsPerSecond(),
        fmt(c.iterationsPerSecond() / bindingBound(c, servers), "%.2f"));
  }

  private static double[] serverMs(Cell c, int servers) {
    double[] ms = new double[servers];
    for (int i = 0; i < servers; i++) {
      ms[i] = c.serverCpuMsPerIteration(i);
    }
    return ms;
  }

  /** The one-home bound of {@code c} (NaN where its reads are not on one replica at a time, or without figures). */
  private double oneHomeBound(Cell c, double[] ms, int servers) {
    return readsOneReplicaAtATime(c.approach())
        ? Fleet.oneHomeCapacity(ms, fleet.budgets(), applyMsPerPage(c.condition(), servers)) : Double.NaN;
  }

  /** The bound measured / bound compares {@code c} with: one replica at a time where that applies, else the servers'. */
  private double bindingBound(Cell c, int servers) {
    double[] ms = serverMs(c, servers);
    double oneHome = oneHomeBound(c, ms, servers);
    return Double.isNaN(oneHome) ? Fleet.capacity(ms, fleet.budgets()) : oneHome;
  }

  /**
   * Issue 40's targets, with each server on a budget of its own and no lag, ryow-pooled against
   * primary-only-pooled: on the read-heavy page at least 1.3× its pages per second and 0.9 of the fleet's bound,
   * at most half its primary CPU, 1.05× its statements and 1.1× its client CPU per page; on the write-heavy page
   * 0.95 of the fleet's bound. The bound is the one measured / bound uses ({@link #fleetTable}).
   */
  private void fleetTargets(List<Target> t) {
    Cell r = find(POOLED, Condition.NONE);
    Cell p = find(POOLED_REFERENCE, Condition.NONE);
    if (!fleet.budgeted() || r == null || p == null || Double.isNaN(r.serverCpuMsPerIteration(0))
        || Double.isNaN(p.serverCpuMsPerIteration(0))) {
      return;
    }
    int servers = fleet.budgets().length;
    double ofBound = r.iterationsPerSecond() / bindingBound(r, servers);
    String page = fleet.readHeavy() ? "Read-heavy page" : "Write-heavy page";
    String name = page + ", none, each server on its own CPU budget: " + POOLED + " vs " + POOLED_REFERENCE;
    if (!fleet.readHeavy()) {
      t.add(new Target(name + ", pages/s against the fleet's bound", "≥ 0.95 of the bound",
          String.format(Locale.ROOT, "%.2f (%.0f pages/s, bound %.0f)", ofBound, r.iterationsPerSecond(),
              bindingBound(r, servers)), ofBound >= 0.95));
      return;
    }
    double speed = r.iterationsPerSecond() / p.iterationsPerSecond();
    t.add(new Target(name + ", pages/s", "≥ 1.30× and ≥ 0.90 of the bound",
        String.format(Locale.ROOT, "%.2f× (%.0f vs %.0f), %.2f of the bound (%.0f)", speed, r.iterationsPerSecond(),
            p.iterationsPerSecond(), ofBound, bindingBound(r, servers)), speed >= 1.3 && ofBound >= 0.9));
    t.add(ratioTarget(name + ", primary CPU per page", 0.5, r.serverCpuMsPerIteration(0),
        p.serverCpuMsPerIteration(0), "%.3f ms"));
    t.add(ratioTarget(name + ", statements per page", 1.05, r.statementsPerIteration(), p.statementsPerIteration(),
        "%.2f"));
    t.add(ratioTarget(name + ", client JVM CPU per page", 1.1, r.cpuMsPerIteration(0), p.cpuMsPerIteration(0),
        "%.3f ms"));
  }

  private static Target ratioTarget(String name, double most, double ryow, double reference, String unit) {
    double ratio = ryow / reference;
    return new Target(name, String.format(Locale.ROOT, "≤ %.2f×", most),
        String.format(Locale.ROOT, "%.2f× (" + unit + " vs " + unit + ")", ratio, ryow, reference), ratio <= most);
  }

  private boolean readsOneReplicaAtATime(String approach) {
    return approaches.stream().anyMatch(a -> a.name().equals(approach) && a.readsOneReplicaAtATime());
  }

  /**
   * What a replica spends per page on applying alone: the replicas' mean CPU per page under the reference approach
   * (primary-only-pooled, else primary-only), which sends them no read; NaN without it.
   */
  private double applyMsPerPage(Condition condition, int servers) {
    Cell ref = null;
    for (int i = 0; i < REFERENCES.size() && ref == null; i++) {
      ref = find(REFERENCES.get(i), condition);
    }
    if (ref == null || servers < 2) {
      return Double.NaN;
    }
    double sum = 0;
    for (int i = 1; i < servers; i++) {
      sum += ref.serverCpuMsPerIteration(i);
    }
    return sum / (servers - 1);
  }

  /**
   * The open-loop cells: offered and achieved pages per second, page latency from when each page was due, and
   * each against the reference approach at the same share; empty without open-loop cells.
   */
  List<String> openLoopTable() {
    if (openCells.isEmpty()) {
      return List.of();
    }
    List<String> l = new ArrayList<>();
    l.add("Open loop: pages due at a fixed rate, latency from when each was due (see *How it is counted*):");
    l.add("");
    l.add("| Condition | Approach | Offered pages/s (share) | Achieved pages/s | Page p50 / p99 ms | p50 / p99 vs "
        + POOLED_REFERENCE + " | Reads on primary | CPU ms/page client / primary / replicas |");
    l.add("|---|---|---:|---:|---:|---:|---:|---:|");
    for (Cell c : openCells) {
      Cell ref = null;
      for (Cell o : openCells) {
        if (o.condition() == c.condition() && o.offeredShare() == c.offeredShare()
            && o.approach().equals(POOLED_REFERENCE)) {
          ref = o;
        }
      }
      l.add(String.format(Locale.ROOT,
          "| %s | %s | %.0f (%.0f %%) | %.0f | %.2f / %.2f | %s | %.1f %% | %s / %s / %s |",
          c.condition().label, c.approach(), c.offeredRate(), 100 * c.offeredShare(), c.iterationsPerSecond(),
          c.readP50(), c.readP99(),
          ref == null ? "–" : String.format(Locale.ROOT, "%.2f× / %.2f×", c.readP50() / ref.readP50(),
              c.readP99() / ref.readP99()),
          100 * c.primaryShare(), fmt(c.cpuMsPerIteration(0), "%.3f"), fmt(c.cpuMsPerIteration(1), "%.3f"),
          fmt(c.cpuMsPerIteration(2), "%.3f")));
    }
    return l;
  }

  /** {@code primary}, {@code replica1}, … by position in the cells' CPU figures. */
  static String serverName(int i) {
    return i == 0 ? "primary" : "replica" + i;
  }

  private static String fmt(double v, String format) {
    return Double.isNaN(v) || Double.isInfinite(v) ? "–" : String.format(Locale.ROOT, format, v);
  }

  /** {@code client | primary | replicas | total} ms per iteration, or dashes when not measured. */
  static String cpuText(Cell c) {
    if (Double.isNaN(c.cpuMsPerIteration(3))) {
      return "– | – | – | –";
    }
    return String.format(Locale.ROOT, "%.2f | %.2f | %.2f | %.2f", c.cpuMsPerIteration(0), c.cpuMsPerIteration(1),
        c.cpuMsPerIteration(2), c.cpuMsPerIteration(3));
  }

  /** {@code p50 / p99} in ms, or a dash without samples. */
  static String applyDelayText(Cell c) {
    return c.applyDelayMicros().length == 0 ? "–"
        : String.format(Locale.ROOT, "%.2f / %.2f", c.applyDelayMs(50), c.applyDelayMs(99));
  }

  List<String> csv() {
    List<String> l = new ArrayList<>();
    l.add("condition,approach,iterations,seconds,stale,errors,read_p50_ms,read_p99_ms,write_p50_ms,write_p99_ms,"
        + "primary_reads,replica_reads,statements,round_trips,run,apply_delay_samples,apply_delay_p50_ms,"
        + "apply_delay_p99_ms,replica_reads_per_replica,wait_samples,wait_p50_ms,wait_p99_ms,stalled_skips,"
        + "driver_reads,cpu_client_ms_per_iteration,cpu_primary_ms_per_iteration,cpu_replicas_ms_per_iteration");
    for (Cell c : runs) {
      l.add(String.format(Locale.ROOT, "%s,%s,%d,%.3f,%d,%d,%.4f,%.4f,%.4f,%.4f,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%s",
          c.condition().label, c.approach(), c.iterations(), c.seconds(), c.stale(), c.errors(), c.readP50(),
          c.readP99(), c.writeP50(), c.writeP99(), c.primaryReads(), c.replicaReads(), c.statements(), c.roundTrips(),
          Math.max(1, c.run()), c.applyDelayMicros().length, c.applyDelayMs(50), c.applyDelayMs(99), driverCsv(c))
          + "," + cpuCsv(c));
    }
    return l;
  }

  /** The CPU columns of a CSV row: ms per iteration in this JVM, the primary and the replicas; empty when not measured. */
  static String cpuCsv(Cell c) {
    if (Double.isNaN(c.cpuMsPerIteration(3))) {
      return ",,";
    }
    return String.format(Locale.ROOT, "%.4f,%.4f,%.4f", c.cpuMsPerIteration(0), c.cpuMsPerIteration(1),
        c.cpuMsPerIteration(2));
  }

  /**
   * The driver's columns of a CSV row: replica reads per replica ({@code ;}-separated), wait samples, wait p50
   * and p99 in ms, stalled skips, the driver's reads; empty for the approaches without the driver, and each
   * figure not measured.
   */
  static String driverCsv(Cell c) {
    if (!ryow(c.approach())) {
      return ",,,,,";
    }
    List<String> each = new ArrayList<>();
    for (long n : c.replicaReadsByServer()) {
      each.add(Long.toString(n));
    }
    int samples = c.waitNanos().length;
    return String.join(",", String.join(";", each), Integer.toString(samples),
        samples == 0 ? "" : String.format(Locale.ROOT, "%.4f", c.waitMs(50)),
        samples == 0 ? "" : String.format(Locale.ROOT, "%.4f", c.waitMs(99)),
        c.stalledSkips() < 0 ? "" : Long.toString(c.stalledSkips()),
        c.driverReads() < 0 ? "" : Long.toString(c.driverReads()));
  }

  private Cell find(String approach, Condition condition) {
    for (Cell c : cells) {
      if (c.approach().equals(approach) && c.condition() == condition) {
        return c;
      }
    }
    return null;
  }

  /** Per run: {@code approach}'s read p50 over {@code reference}'s in the same run and condition; sorted. */
  double[] ratios(String approach, String reference, Condition condition) {
    List<Double> r = new ArrayList<>();
    for (Cell c : runs) {
      if (c.approach().equals(approach) && c.condition() == condition) {
        for (Cell p : runs) {
          if (p.approach().equals(reference) && p.condition() == condition && p.run() == c.run()) {
            r.add(c.readP50() / p.readP50());
          }
        }
      }
    }
    return r.stream().mapToDouble(Double::doubleValue).sorted().toArray();
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static String ratioText(double[] sorted) {
    if (sorted.length == 1) {
      return String.format(Locale.ROOT, "%.2f×", sorted[0]);
    }
    int n = sorted.length;
    return String.format(Locale.ROOT, "%.2f× (%.2f–%.2f over %d runs)", median(sorted), sorted[0], sorted[n - 1], n);
  }

  /** The pooled approaches, each compared with the other: their latencies include the wait for a pooled connection. */
  static final String POOLED = "ryow-pooled";
  static final String POOLED_REFERENCE = "primary-only-pooled";
  /** The approaches figures are compared with, the first one a run has: primary-only-pooled, else primary-only. */
  static final List<String> REFERENCES = List.of(POOLED_REFERENCE, "primary-only");

  private void networkTargets(List<Target> t) {
    if (!settings.forwarded()) {
      return;
    }
    for (Condition condition : conditions) {
      if (condition != Condition.NONE) {
        continue;
      }
      // Without a delay the forwarders only count: no latency target.
      double[] ryow = settings.delayMs() > 0 ? ratios("ryow", "primary-only", condition) : new double[0];
      if (ryow.length > 0) {
        List<String> others = new ArrayList<>();
        for (String a : List.of("hand-written", "cj-replication")) {
          double[] r = ratios(a, "primary-only", condition);
          if (r.length > 0) {
            others.add(a + " " + ratioText(r));
          }
        }
        t.add(new Target(String.format(Locale.ROOT, "Read right after own write, %.1f ms each way: read p50 / "
                + "primary-only's (one connection per thread)", settings.delayMs()), "ryow ≤ 1.3×",
            "ryow " + ratioText(ryow) + (others.isEmpty() ? "" : "; " + String.join(", ", others)),
            median(ryow) <= 1.3));
      }
      double[] pooled = settings.delayMs() > 0 ? ratios(POOLED, POOLED_REFERENCE, condition) : new double[0];
      if (pooled.length > 0) {
        t.add(new Target(String.format(Locale.ROOT, "Read right after own write, %.1f ms each way, pooled: read p50 / "
                + "primary-only-pooled's (both include the wait for a pooled connection)", settings.delayMs()),
            "ryow-pooled ≤ 1.3×", "ryow-pooled " + ratioText(pooled), median(pooled) <= 1.3));
      }
      if (counted) {
        List<String> pairs = new ArrayList<>();
        for (String[] pair : List.of(new String[] {"ryow", "primary-only"}, new String[] {POOLED, POOLED_REFERENCE})) {
          Cell a = find(pair[0], condition);
          Cell b = find(pair[1], condition);
          if (a != null && b != null) {
            pairs.add(String.format(Locale.ROOT, "%s %.2f vs %s %.2f", pair[0], a.roundTripsPerIteration(), pair[1],
                b.roundTripsPerIteration()));
          }
        }
        if (!pairs.isEmpty()) {
          t.add(new Target("Round trips per iteration (forwarders), each against its reference", "report",
              String.join("; ", pairs), true));
        }
      }
    }
  }

  /**
   * Issue 24's targets for web-style pages, ryow-pooled against primary-only-pooled (the same pool, the
   * same borrows): with no lag, at least its pages per second and 95 % of reads on replicas; under pulse and
   * blocked lag, at least 0.95× its pages per second and at most 1.1× its page p99, with 70 % of reads on
   * replicas.
   */
  private void pageTargets(List<Target> t) {
    if (!settings.page()) {
      return;
    }
    for (Condition condition : List.of(Condition.NONE, Condition.PULSE, Condition.BLOCKED)) {
      Cell r = find(POOLED, condition);
      Cell p = find(POOLED_REFERENCE, condition);
      if (r == null || p == null) {
        continue;
      }
      boolean none = condition == Condition.NONE;
      double speed = r.iterationsPerSecond() / p.iterationsPerSecond();
      double tail = r.readP99() / p.readP99();
      double share = 100 * (1 - r.primaryShare());
      double minSpeed = none ? 1.0 : 0.95;
      double minShare = none ? 95 : 70;
      String goal = none ? String.format(Locale.ROOT, "pages/s ≥ 1.00×, replicas ≥ %.0f %%", minShare)
          : String.format(Locale.ROOT, "pages/s ≥ 0.95×, page p99 ≤ 1.1×, replicas ≥ %.0f %%", minShare);
      String figure = String.format(Locale.ROOT, "pages/s %.2f× (%.1f vs %.1f), page p99 %.2f× (%.1f vs %.1f ms), "
          + "replicas %.1f %%", speed, r.iterationsPerSecond(), p.iterationsPerSecond(), tail, r.readP99(),
          p.readP99(), share);
      t.add(new Target("Web-style pages, " + condition.label + ": ryow-pooled vs primary-only-pooled", goal, figure,
          speed >= minSpeed && (none || tail <= 1.1) && share >= minShare));
    }
  }

  /**
   * Issue 24, web-style pages with no lag and two or more replicas: ryow-pooled's replica reads spread over
   * the replicas, each within 10 points of an even share (two replicas: 40–60 % each).
   */
  private void replicaSplitTarget(List<Target> t) {
    Cell c = find(POOLED, Condition.NONE);
    if (!settings.page() || c == null || c.replicaReadsByServer().length < 2) {
      return;
    }
    long total = java.util.Arrays.stream(c.replicaReadsByServer()).sum();
    double even = 100.0 / c.replicaReadsByServer().length;
    List<String> figures = new ArrayList<>();
    boolean met = true;
    for (int i = 0; i < c.replicaReadsByServer().length; i++) {
      double share = total == 0 ? Double.NaN : 100.0 * c.replicaReadsByServer()[i] / total;
      figures.add(String.format(Locale.ROOT, "replica%d %.1f %%", i + 1, share));
      met &= share >= even - 10 && share <= even + 10;
    }
    t.add(new Target("Web-style pages, none: each replica's share of ryow-pooled's replica reads",
        String.format(Locale.ROOT, "%.0f–%.0f %% each", even - 10, even + 10), String.join(", ", figures), met));
  }

  List<Target> targets() {
    List<Target> t = new ArrayList<>();
    pageTargets(t);
    replicaSplitTarget(t);
    fleetTargets(t);
    networkTargets(t);
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
    // Round trips per iteration vs the hand-written approach, where the forwarders counted them.
    if (counted) {
      List<String> f = new ArrayList<>();
      boolean fewer = true;
      for (Condition condition : conditions) {
        Cell r = find("ryow", condition);
        Cell h = find("hand-written", condition);
        if (r != null && h != null) {
          f.add(String.format(Locale.ROOT, "%s %.2f vs %.2f", condition.label, r.roundTripsPerIteration(),
              h.roundTripsPerIteration()));
          fewer &= r.roundTripsPerIteration() < h.roundTripsPerIteration();
        }
      }
      if (!f.isEmpty()) {
        t.add(new Target("Round trips per iteration, ryow vs hand-written", "fewer", String.join("; ", f), fewer));
      }
    }
    return t;
  }
}
