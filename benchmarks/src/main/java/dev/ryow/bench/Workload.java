package dev.ryow.bench;

import dev.ryow.bench.Approaches.Approach;
import dev.ryow.bench.Approaches.Worker;
import dev.ryow.bench.Approaches.Workers;
import dev.ryow.jdbc.RyowDriver;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The end-to-end workload: N threads, each writes its own row on the primary and reads it back at
 * once, for a fixed time, under four lag conditions, through each {@linkplain Approaches approach}.
 * Stale reads are counted by the client (the row read back is missing or old); where reads ran and
 * how many statements each iteration cost are counted on the servers (performance_schema); the replicas'
 * apply delay (primary's commit to the replica's end of apply) is sampled from the servers' own timestamps
 * by an {@link ApplyDelaySampler}. For the approaches that run the driver, each read's wait is asked of the
 * connection that ran it ({@code RyowConnection.lastRead}), and the driver's cluster counters
 * ({@code RyowDriver.clusterMetrics}) are read before and after each cell.
 *
 * <p>Usage: {@code Workload [--threads 4] [--seconds 10] [--warmup 2] [--pause-ms 200] [--period-ms 1000]
 * [--approaches a,b,…] [--conditions none,pulse,blocked,storm] [--delay-ms D] [--repeat N] [--reads R]
 * [--page write-heavy|read-heavy] [--warmup-window W] [--warmup-max M] [--open-loop 0.5,0.8]
 * [--out benchmarks/results]}: {@code --approaches} picks among {@link Approaches#all} (all of them by default) and
 * may also name those of {@link Approaches#onRequest}. {@code --reads R} (R &gt; 1) makes each iteration a web-style
 * page: the write,
 * then R reads (the new row, then rows the thread wrote before), timed as one request; pulse stops the
 * replicas' appliers, and blocked holds
 * {@code FLUSH TABLES WITH READ LOCK} on the replicas (appliers running), for {@code pause-ms} of every
 * {@code period-ms}. {@code --delay-ms} puts a {@link LatencyForwarder} in front of each server (the
 * approaches connect through them; lag injection and counting do not), adding {@code D} ms each way,
 * and counts round trips; {@code --repeat} runs every cell N times, in rounds. Servers from
 * {@code RYOW_SANDBOX_URL} (see {@link Topology}). Writes {@code workload.md}, {@code workload.svg},
 * {@code workload.csv} and {@code workload-targets.tsv} into the output folder. Every cell (a warm-up window too)
 * starts once both replicas have caught up with the primary and every server is quiet (at most 5 % of a CPU over a
 * second, by its own counters), so that no cell inherits the backlog of the one before.
 *
 * <p>Fleet options (issue 40): {@code --page read-heavy} makes each page one write and
 * {@value PageRead#READ_HEAVY_READS} reads (unless {@code --reads} says otherwise), some of them ranges and joins
 * ({@link PageRead#of}); {@code --page write-heavy} (the default) keeps key reads only. {@code --warmup-window W}
 * warms each approach up in windows of W seconds until the client JVM's CPU per page of two successive windows is
 * within 5 % ({@link Warmup}), for at most {@code --warmup-max} seconds (120), and reports each window instead of
 * the fixed {@code --warmup}. {@code --open-loop 0.5,0.8} adds, after each condition's closed-loop cells,
 * open-loop cells in which pages are due at that share of the reference approach's (primary-only-pooled, else
 * primary-only) closed-loop pages per second of the same condition and run, latency counted from when each page
 * was due ({@link OpenLoop}). With the sandbox's hosts mode ({@code RYOW_SANDBOX_CPUS}), the report computes the
 * fleet's capacity from each server's CPU per page and its budget ({@link Fleet}).
 */
public final class Workload {
  /**
   * Request threads per user in an open loop on a pool ({@code --open-loop}): enough that pages start when due
   * whenever the pool can serve them, as an application server's request threads do.
   */
  static final int OPEN_LOOP_THREADS_PER_USER = 4;

  /** The admin user that runs everything but the workload, so that per-user counts are the workload's. */
  static final String ADMIN_USER = "ryow_bench_admin";

  enum Condition {
    NONE("none", "replicas apply as fast as they can"),
    PULSE("pulse", "replica appliers paused PAUSE ms of every PERIOD ms"),
    BLOCKED("blocked", "replica appliers running but blocked (FLUSH TABLES WITH READ LOCK held) PAUSE ms of every "
        + "PERIOD ms"),
    STORM("storm", "replica appliers paused throughout the cell");

    final String label;
    final String description;

    Condition(String label, String description) {
      this.label = label;
      this.description = description;
    }
  }

  /**
   * One cell's figures.
   *
   * @param replicaReadsByServer the reads counted on each replica, in the topology's order ({@code replicaReads}
   *     is their sum)
   * @param waitNanos sorted: per read through the driver, how long it waited ({@code ReadReport.waitNanos}, 0
   *     when it did not); empty for the approaches that do not run the driver
   * @param stalledSkips the driver's {@code stalledSkips} over the cell, {@link #NOT_COUNTED} without the driver
   * @param driverReads the driver's reads ({@code replicaReads + primaryReads}) over the cell, {@link #NOT_COUNTED}
   *     without the driver
   * @param cpuNanos CPU time used over the cell ({@link CpuClock}): this JVM's, then each server's, primary
   *     first; empty when not measured
   * @param offeredShare in an open loop ({@link OpenLoop}), the share of the reference approach's closed-loop
   *     pages per second offered ({@code --open-loop}); 0 in a closed loop
   * @param offeredRate pages per second offered in an open loop; 0 in a closed loop
   */
  record Cell(String approach, Condition condition, long iterations, double seconds, long stale, long errors,
      double readP50, double readP99, double writeP50, double writeP99, long primaryReads, long replicaReads,
      long statements, long roundTrips, int run, long[] applyDelayMicros, long[] replicaReadsByServer,
      long[] waitNanos, long stalledSkips, long driverReads, long[] cpuNanos, double offeredShare,
      double offeredRate) {
    /** Without forwarders, round trips are not counted; without the driver, its counters are not read. */
    static final long NOT_COUNTED = -1;

    /** A closed-loop cell: each thread starts its next page when the last one ends. */
    Cell(String approach, Condition condition, long iterations, double seconds, long stale, long errors,
        double readP50, double readP99, double writeP50, double writeP99, long primaryReads, long replicaReads,
        long statements, long roundTrips, int run, long[] applyDelayMicros, long[] replicaReadsByServer,
        long[] waitNanos, long stalledSkips, long driverReads, long[] cpuNanos) {
      this(approach, condition, iterations, seconds, stale, errors, readP50, readP99, writeP50, writeP99,
          primaryReads, replicaReads, statements, roundTrips, run, applyDelayMicros, replicaReadsByServer, waitNanos,
          stalledSkips, driverReads, cpuNanos, 0, 0);
    }

    /** Whether pages arrived at a fixed rate ({@link #offeredRate} per second, {@link OpenLoop}). */
    boolean openLoop() {
      return offeredRate > 0;
    }

    /** CPU ms per iteration of server {@code i} (0 the primary, then each replica in order); NaN when not measured. */
    double serverCpuMsPerIteration(int i) {
      return cpuNanos.length < 2 + i || iterations == 0 ? Double.NaN : cpuNanos[1 + i] / 1e6 / iterations;
    }

    /** A cell without per-replica counts or the driver's figures. */
    Cell(String approach, Condition condition, long iterations, double seconds, long stale, long errors,
        double readP50, double readP99, double writeP50, double writeP99, long primaryReads, long replicaReads,
        long statements, long roundTrips, int run, long[] applyDelayMicros) {
      this(approach, condition, iterations, seconds, stale, errors, readP50, readP99, writeP50, writeP99,
          primaryReads, replicaReads, statements, roundTrips, run, applyDelayMicros, new long[0], new long[0],
          NOT_COUNTED, NOT_COUNTED, new long[0]);
    }

    /**
     * CPU milliseconds per iteration (a page, in the web flow) of one part: 0 this JVM, 1 the primary, 2 the
     * replicas together, 3 all; NaN when not measured.
     */
    double cpuMsPerIteration(int part) {
      if (cpuNanos.length < 2 || iterations == 0) {
        return Double.NaN;
      }
      long n = switch (part) {
        case 0 -> cpuNanos[0];
        case 1 -> cpuNanos[1];
        case 2 -> Arrays.stream(cpuNanos, 2, cpuNanos.length).sum();
        default -> Arrays.stream(cpuNanos).sum();
      };
      return n / 1e6 / iterations;
    }

    /** A cell without apply-delay samples. */
    Cell(String approach, Condition condition, long iterations, double seconds, long stale, long errors,
        double readP50, double readP99, double writeP50, double writeP99, long primaryReads, long replicaReads,
        long statements, long roundTrips, int run) {
      this(approach, condition, iterations, seconds, stale, errors, readP50, readP99, writeP50, writeP99,
          primaryReads, replicaReads, statements, roundTrips, run, new long[0]);
    }

    /**
     * Percentile of the replicas' apply delay (primary's commit to replica's end of apply, from the servers'
     * timestamps, see {@link ApplyDelaySampler}) in ms; NaN without samples.
     */
    double applyDelayMs(double p) {
      return percentileMs(applyDelayMicros, p) * 1000;
    }

    /** Percentile of the driver's wait per read ({@link #waitNanos}) in ms; NaN without samples. */
    double waitMs(double p) {
      return percentileMs(waitNanos, p);
    }

    /** The mean wait per read through the driver, in ms (reads that did not wait count as 0); NaN without samples. */
    double waitMeanMs() {
      if (waitNanos.length == 0) {
        return Double.NaN;
      }
      long sum = 0;
      for (long w : waitNanos) {
        sum += w;
      }
      return sum / 1e6 / waitNanos.length;
    }

    /**
     * Reads that passed over a replica predicted stalled, per read the driver ran (0..1, a read that skipped
     * two counts once); NaN when not counted or without reads.
     */
    double stalledSkipShare() {
      return stalledSkips < 0 || driverReads <= 0 ? Double.NaN : (double) stalledSkips / driverReads;
    }

    double iterationsPerSecond() {
      return iterations / seconds;
    }

    double primaryShare() {
      long reads = primaryReads + replicaReads;
      return reads == 0 ? Double.NaN : (double) primaryReads / reads;
    }

    double statementsPerIteration() {
      return iterations == 0 ? Double.NaN : (double) statements / iterations;
    }

    double staleShare() {
      return iterations == 0 ? 0 : (double) stale / iterations;
    }

    /** Client-to-server flights per iteration through the forwarders; NaN when not counted. */
    double roundTripsPerIteration() {
      return roundTrips < 0 || iterations == 0 ? Double.NaN : (double) roundTrips / iterations;
    }
  }

  private final Topology topology;
  /** Where the approaches connect: the servers, or forwarders in front of them. */
  private final Topology clients;
  private final List<LatencyForwarder> forwarders;
  private final int threads;
  private final int seconds;
  private final int pauseMs;
  private final int periodMs;
  /** Reads per iteration: 1 reads the row back; more make a web-style page ({@code --reads}). */
  private final int reads;
  /** The page's shape, warm-up and open-loop settings. */
  private final Modes modes;
  private final PrintStream log = System.out;
  private final boolean console = System.console() != null;
  /** This JVM's and the servers' CPU time, once the servers are prepared (their admin user exists). */
  private CpuClock cpu = CpuClock.of(List.of());

  private Workload(Topology topology, List<LatencyForwarder> forwarders, int threads, int seconds, int pauseMs,
      int periodMs, int reads, Modes modes) {
    this.reads = reads;
    this.modes = modes;
    this.topology = topology;
    this.forwarders = forwarders;
    this.clients = forwarders.isEmpty() ? topology
        : topology.at(forwarders.stream().map(LatencyForwarder::address).toList());
    this.threads = threads;
    this.seconds = seconds;
    this.pauseMs = pauseMs;
    this.periodMs = periodMs;
  }

  /** Runs the workload; see the class comment for the arguments. */
  public static void main(String[] args) throws Exception {
    // HikariCP (the pooled approach) logs each pool's start and shutdown at INFO: one pool per cell.
    if (System.getProperty("org.slf4j.simpleLogger.log.com.zaxxer.hikari") == null) {
      System.setProperty("org.slf4j.simpleLogger.log.com.zaxxer.hikari", "warn");
    }
    int threads = 4;
    int seconds = 10;
    int warmup = 2;
    int pauseMs = 200;
    int periodMs = 1000;
    Path out = Path.of("benchmarks/results");
    List<String> approachNames = null;
    List<Condition> conditions = List.of(Condition.values());
    double delayMs = -1;
    int repeat = 1;
    int reads = 0;
    boolean readHeavy = false;
    int warmupWindow = 0;
    int warmupMax = 120;
    List<Double> openLoop = List.of();
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : "";
      switch (args[i]) {
        case "--threads" -> threads = Integer.parseInt(value);
        case "--seconds" -> seconds = Integer.parseInt(value);
        case "--warmup" -> warmup = Integer.parseInt(value);
        case "--pause-ms" -> pauseMs = Integer.parseInt(value);
        case "--period-ms" -> periodMs = Integer.parseInt(value);
        case "--out" -> out = Path.of(value);
        case "--delay-ms" -> delayMs = Double.parseDouble(value);
        case "--repeat" -> repeat = Integer.parseInt(value);
        case "--reads" -> reads = Integer.parseInt(value);
        case "--page" -> readHeavy = switch (value) {
          case "read-heavy" -> true;
          case "write-heavy" -> false;
          default -> throw new IllegalArgumentException("--page is read-heavy or write-heavy, not " + value);
        };
        case "--warmup-window" -> warmupWindow = Integer.parseInt(value);
        case "--warmup-max" -> warmupMax = Integer.parseInt(value);
        case "--open-loop" -> openLoop = Arrays.stream(value.split(",")).map(Double::valueOf).toList();
        case "--approaches" -> approachNames = List.of(value.split(","));
        case "--conditions" -> conditions = Arrays.stream(value.split(","))
            .map(c -> Condition.valueOf(c.toUpperCase(Locale.ROOT))).toList();
        default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; see the class comment");
      }
      i++;
    }
    List<Approach> approaches = new ArrayList<>();
    for (Approach a : Approaches.all()) {
      if (approachNames == null || approachNames.contains(a.name())) {
        approaches.add(a);
      }
    }
    for (Approach a : Approaches.onRequest()) {
      if (approachNames != null && approachNames.contains(a.name())) {
        approaches.add(a);
      }
    }
    Files.createDirectories(out);
    Topology topology = Topology.fromEnvironment();
    List<LatencyForwarder> forwarders = new ArrayList<>();
    try {
      if (delayMs >= 0) {
        for (String server : topology.servers()) {
          forwarders.add(LatencyForwarder.start(server, delayMs));
        }
      }
      if (reads == 0) {
        reads = readHeavy ? PageRead.READ_HEAVY_READS : 1;
      }
      if (reads < 1) {
        throw new IllegalArgumentException("--reads must be at least 1, not " + reads);
      }
      Workload w = new Workload(topology, forwarders, threads, seconds, pauseMs, periodMs, reads,
          new Modes(readHeavy, warmupWindow, warmupMax, openLoop));
      w.run(approaches, conditions, warmup, repeat, delayMs, out);
    } finally {
      forwarders.forEach(LatencyForwarder::close);
    }
  }

  private void run(List<Approach> approaches, List<Condition> conditions, int warmup, int repeat, double delayMs,
      Path out) throws Exception {
    String loadAtStart = Machine.loadAverage();
    Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    prepareServers(approaches, conditions, repeat);
    cpu = CpuClock.of(topology.servers().stream().map(this::adminUrl).toList());
    double[] addedRoundTripMs = forwarders.isEmpty() ? null : calibrate();
    String mysqlVersion;
    String connectorVersion;
    try (Connection c = DriverManager.getConnection(topology.mysqlUrl(topology.primary()));
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT VERSION()")) {
      rs.next();
      mysqlVersion = rs.getString(1);
      connectorVersion = c.getMetaData().getDriverName() + " " + c.getMetaData().getDriverVersion();
    }
    log.printf("Workload: %d threads x %d s per cell, %d approaches x %d conditions x %d runs (+ %d s warm-up each)%s%n",
        threads, seconds, approaches.size(), conditions.size(), repeat, warmup,
        forwarders.isEmpty() ? "" : String.format(Locale.ROOT, ", forwarders adding %.2f ms each way (measured round"
            + " trip added: p50 %.2f ms, p99 %.2f ms)", delayMs, addedRoundTripMs[0], addedRoundTripMs[1]));
    List<String> warmups = new ArrayList<>();
    if (modes.warmupWindow() > 0) {
      for (Approach a : approaches) {
        warmups.add(warmUntilStable(a));
        log.println("  " + warmups.get(warmups.size() - 1));
      }
    } else if (warmup > 0) {
      for (Approach a : approaches) {
        cell(a, Condition.NONE, table(a, "warmup"), warmup, "warm-up", 0, 0, 0);
      }
    }
    List<Cell> cells = new ArrayList<>();
    List<Cell> openCells = new ArrayList<>();
    int n = 0;
    int total = approaches.size() * conditions.size() * repeat * (1 + modes.openLoop().size());
    // Runs in rounds: every approach once per round, so that a machine's drift touches all of them alike.
    for (int run = 1; run <= repeat; run++) {
      for (Condition condition : conditions) {
        List<Cell> closed = new ArrayList<>();
        for (Approach a : approaches) {
          n++;
          closed.add(cell(a, condition, table(a, suffix(condition, run, repeat)), seconds, n + "/" + total, run, 0,
              0));
        }
        cells.addAll(closed);
        double reference = referenceRate(closed);
        for (double share : modes.openLoop()) {
          for (Approach a : approaches) {
            n++;
            openCells.add(cell(a, condition, table(a, openSuffix(condition, run, repeat, share)), seconds,
                n + "/" + total, run, share, share * reference));
          }
        }
      }
    }
    long elapsed = Instant.now().getEpochSecond() - started.getEpochSecond();
    Settings settings = new Settings(started.toString(), elapsed, threads, seconds, warmup, pauseMs, periodMs,
        mysqlVersion, connectorVersion, loadAtStart, Machine.loadAverage(), topology, repeat, delayMs,
        addedRoundTripMs, reads, topology.flavor().noGtid() ? appliers() : "");
    new WorkloadReport(settings, approaches, conditions, cells, openCells,
        new WorkloadReport.FleetSetup(modes.readHeavy(), cpu.budgets(), warmups, modes.openLoop())).write(out);
    log.println("Wrote " + out.resolve("workload.md") + " and " + out.resolve("workload.svg"));
  }

  /**
   * The page's shape ({@code --page read-heavy}: {@link PageRead#of}), the warm-up until stable
   * ({@code --warmup-window}, {@code --warmup-max}) and the open-loop shares ({@code --open-loop 0.5,0.8}).
   */
  record Modes(boolean readHeavy, int warmupWindow, int warmupMax, List<Double> openLoop) {}

  /** What the report records about the run. */
  record Settings(String started, long elapsedSeconds, int threads, int seconds, int warmup, int pauseMs,
      int periodMs, String mysqlVersion, String connectorVersion, String loadAtStart, String loadAtEnd,
      Topology topology, int runs, double delayMs, double[] addedRoundTripMs, int reads, String positions) {
    /** Servers with GTIDs. */
    Settings(String started, long elapsedSeconds, int threads, int seconds, int warmup, int pauseMs, int periodMs,
        String mysqlVersion, String connectorVersion, String loadAtStart, String loadAtEnd, Topology topology,
        int runs, double delayMs, double[] addedRoundTripMs, int reads) {
      this(started, elapsedSeconds, threads, seconds, warmup, pauseMs, periodMs, mysqlVersion, connectorVersion,
          loadAtStart, loadAtEnd, topology, runs, delayMs, addedRoundTripMs, reads, "");
    }

    /**
     * Whether the servers ran without GTIDs ({@code gtid_mode=OFF}): then {@code positions} says how the replicas
     * applied (their {@code replica_parallel_workers} and {@code replica_checkpoint_period}); empty with GTIDs.
     */
    boolean noGtid() {
      return !positions.isEmpty();
    }

    /** Whether an iteration is a web-style page (a write, then several reads) rather than one read-back. */
    boolean page() {
      return reads > 1;
    }

    /** Whether forwarders stood between the clients and the servers. */
    boolean forwarded() {
      return delayMs >= 0;
    }
  }

  /**
   * Without GTIDs: each replica's {@code replica_parallel_workers} and {@code replica_checkpoint_period}, on which
   * a position wait depends (a multithreaded applier's {@code SOURCE_POS_WAIT} returns only at a checkpoint).
   */
  private String appliers() throws SQLException {
    List<String> each = new ArrayList<>();
    for (String r : topology.replicas()) {
      try (Connection c = DriverManager.getConnection(adminUrl(r));
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery(
              "SELECT @@global.replica_parallel_workers, @@global.replica_checkpoint_period")) {
        rs.next();
        each.add("replica_parallel_workers=" + rs.getInt(1) + ", replica_checkpoint_period=" + rs.getInt(2) + " ms");
      }
    }
    return each.stream().distinct().count() == 1 ? each.get(0) + " on " + (each.size() == 1 ? "the replica"
        : "every replica") : String.join("; ", each) + " (in replica order)";
  }

  private static String suffix(Condition condition, int run, int repeat) {
    return repeat == 1 ? condition.label : condition.label + "_r" + run;
  }

  /** An open-loop cell's table suffix: {@code none_o50} for half the reference's rate. */
  static String openSuffix(Condition condition, int run, int repeat, double share) {
    return suffix(condition, run, repeat) + "_o" + Math.round(share * 100);
  }

  /**
   * What the forwarders add to one round trip, measured: p50 and p99 of {@code SELECT 1} on the
   * primary through its forwarder minus the same directly (200 each, interleaved).
   */
  private double[] calibrate() throws SQLException {
    int n = 200;
    long[] direct = new long[n];
    long[] forwarded = new long[n];
    try (Connection d = DriverManager.getConnection(topology.mysqlUrl(topology.primary()));
        Connection f = DriverManager.getConnection(clients.mysqlUrl(clients.primary()));
        Statement ds = d.createStatement();
        Statement fs = f.createStatement()) {
      for (int i = 0; i < n + 20; i++) {
        long t0 = System.nanoTime();
        ds.executeQuery("SELECT 1").close();
        long t1 = System.nanoTime();
        fs.executeQuery("SELECT 1").close();
        long t2 = System.nanoTime();
        if (i >= 20) {
          direct[i - 20] = t1 - t0;
          forwarded[i - 20] = t2 - t1;
        }
      }
    }
    Arrays.sort(direct);
    Arrays.sort(forwarded);
    return new double[] {percentileMs(forwarded, 50) - percentileMs(direct, 50),
        percentileMs(forwarded, 99) - percentileMs(direct, 99)};
  }

  private static String table(Approach a, String suffix) {
    return "wl_" + a.name().replace('-', '_') + "_" + suffix;
  }

  private String adminUrl(String server) {
    return topology.mysqlUrl(server, ADMIN_USER, ADMIN_USER);
  }

  private void prepareServers(List<Approach> approaches, List<Condition> conditions, int repeat)
      throws SQLException {
    Topology.exec(topology.mysqlUrl(topology.primary()),
        "CREATE USER IF NOT EXISTS '" + ADMIN_USER + "'@'%' IDENTIFIED BY '" + ADMIN_USER + "'",
        topology.flavor().adminGrant(ADMIN_USER));
    // The account reaches the replicas by replication: they are used with it below (a replica that had not
    // applied the grant yet refused it: "Access denied for user 'ryow_bench_admin'@'%' to database 'ryow'").
    topology.awaitReplicasCaughtUp(60);
    List<String> ddl = new ArrayList<>();
    for (Approach a : approaches) {
      List<String> suffixes = new ArrayList<>(List.of("warmup"));
      for (int run = 1; run <= repeat; run++) {
        for (Condition c : conditions) {
          suffixes.add(suffix(c, run, repeat));
          for (double share : modes.openLoop()) {
            suffixes.add(openSuffix(c, run, repeat, share));
          }
        }
      }
      for (String suffix : suffixes) {
        String t = table(a, suffix);
        ddl.add("DROP TABLE IF EXISTS " + t);
        ddl.add("CREATE TABLE " + t + " (id BIGINT PRIMARY KEY, v INT NOT NULL)");
      }
    }
    // MySQL accounts an applier's statements to whoever ran START REPLICA (an integration test, the
    // sandbox...): restarted by the admin user, they never count as the workload user's statements.
    // A Group Replication member's applier is a system thread (and cannot be stopped): nothing to restart.
    Flavor flavor = topology.flavor();
    for (String server : topology.servers()) {
      flavor.countOn(adminUrl(server));
    }
    for (String r : topology.replicas()) {
      if (!flavor.groupMember(adminUrl(r))) {
        Topology.exec(adminUrl(r), "STOP REPLICA SQL_THREAD", "START REPLICA SQL_THREAD");
      }
    }
    Topology.exec(adminUrl(topology.primary()), ddl.toArray(String[]::new));
    topology.awaitReplicasCaughtUp(60);
  }

  /**
   * The closed-loop pages per second of the reference approach (primary-only-pooled, else primary-only) among
   * {@code closed}, which the open-loop shares are of; NaN without it.
   */
  static double referenceRate(List<Cell> closed) {
    for (String name : WorkloadReport.REFERENCES) {
      for (Cell c : closed) {
        if (c.approach().equals(name)) {
          return c.iterationsPerSecond();
        }
      }
    }
    return Double.NaN;
  }

  /**
   * Warms {@code approach} up in windows of {@code --warmup-window} seconds (no lag, its warm-up table) until the
   * client JVM's CPU per page of the last two windows is within 5 % ({@link Warmup}), or {@code --warmup-max}
   * seconds have passed; says which.
   */
  private String warmUntilStable(Approach approach) throws Exception {
    Warmup w = new Warmup();
    int window = modes.warmupWindow();
    for (int spent = 0; spent < modes.warmupMax() && !w.stable(); spent += window) {
      // Every window starts its ids at 0 again: an empty table each time.
      Topology.exec(adminUrl(topology.primary()), "TRUNCATE TABLE " + table(approach, "warmup"));
      topology.awaitReplicasCaughtUp(60);
      Cell c = cell(approach, Condition.NONE, table(approach, "warmup"), window, "warm-up", 0, 0, 0);
      w.add(c.cpuMsPerIteration(0));
    }
    return w.describe(approach.name(), window);
  }

  /** A server is quiet when it used at most this share of one CPU over {@link #QUIET_WINDOW_MILLIS}. */
  private static final double QUIET_CPU = 0.05;
  private static final long QUIET_WINDOW_MILLIS = 1000;
  private static final long QUIET_WAIT_MAX_MILLIS = 60_000;

  /**
   * Waits until every server used at most {@link #QUIET_CPU} of a CPU over a window of {@link #QUIET_WINDOW_MILLIS}
   * (its own counters), at most {@link #QUIET_WAIT_MAX_MILLIS}; says so in the log when one never was.
   */
  private void awaitServersQuiet() throws InterruptedException {
    if (!cpu.measures()) {
      return;
    }
    long deadline = System.nanoTime() + QUIET_WAIT_MAX_MILLIS * 1_000_000L;
    while (true) {
      long[] before = cpu.read();
      Thread.sleep(QUIET_WINDOW_MILLIS);
      long[] used = CpuClock.used(before, cpu.read());
      boolean quiet = used.length > 0;
      for (int i = 1; i < used.length; i++) {
        quiet &= used[i] <= QUIET_CPU * QUIET_WINDOW_MILLIS * 1_000_000L;
      }
      if (quiet || used.length == 0) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        log.println("    servers still busy before the cell (CPU ns over " + QUIET_WINDOW_MILLIS + " ms, client first): "
            + Arrays.toString(used));
        return;
      }
    }
  }

  private Cell cell(Approach approach, Condition condition, String table, int duration, String label, int run,
      double share, double rate) throws Exception {
    if (Double.isNaN(rate)) {
      throw new IllegalArgumentException("--open-loop needs primary-only-pooled or primary-only among the approaches:"
          + " its closed-loop pages per second set the rate");
    }
    // Each cell starts with the replicas caught up and every server quiet: the cell before it (primary-only at full
    // speed leaves the replicas seconds behind, and a server flushes pages after a burst of writes) must not put
    // its backlog into this one's waits, stalls and server CPU.
    topology.awaitReplicasCaughtUp(120);
    awaitServersQuiet();
    Lag lag = new Lag(condition);
    ApplyDelaySampler sampler = null;
    // Cells run one approach at a time: the counters of its URL's cluster over the cell are the cell's.
    Optional<String> ryowUrl = approach.ryowUrl(clients);
    try (Workers workers = approach.open(clients, threads, table)) {
      for (int t = 0; t < threads; t++) {
        // Prime: the first write and read open whatever connections the approach opens lazily.
        workers.get(t).write(-(t + 1), 0);
        workers.get(t).read(-(t + 1));
      }
      Counts before = counts(table);
      Optional<MetricsSnapshot> driverBefore = driverMetrics(ryowUrl);
      long[] cpuBefore = cpu.read();
      long flightsBefore = roundTrips();
      LongAdder iterations = new LongAdder();
      java.util.concurrent.atomic.AtomicLong due = new java.util.concurrent.atomic.AtomicLong();
      LongAdder stale = new LongAdder();
      LongAdder errors = new LongAdder();
      // An open loop on a pool runs as an application server does: more request threads than users, all on the
      // same pool, so that pages due while every user thread is busy still start on time and wait for a connection.
      int loopThreads = rate > 0 && approach instanceof Approaches.Pooled ? threads * OPEN_LOOP_THREADS_PER_USER
          : threads;
      long[][] readNanos = new long[loopThreads][];
      long[][] writeNanos = new long[loopThreads][];
      long[][] waitNanos = new long[loopThreads][];
      AtomicBoolean stop = new AtomicBoolean();
      CountDownLatch done = new CountDownLatch(loopThreads);
      if (topology.flavor().samplesApplyDelay()) {
        sampler = ApplyDelaySampler.start(topology.replicas().stream().map(this::adminUrl).toList());
      }
      lag.start();
      long start = System.nanoTime();
      long end = start + duration * 1_000_000_000L;
      OpenLoop schedule = rate > 0 ? new OpenLoop(start, rate) : null;
      boolean readHeavy = modes.readHeavy();
      List<Thread> running = new ArrayList<>();
      for (int t = 0; t < loopThreads; t++) {
        int thread = t;
        int pageReads = reads;
        Thread th = new Thread(() -> {
          LongList reads = new LongList();
          LongList writes = new LongList();
          LongList waits = new LongList();
          Worker w = workers.get(thread % threads); // a pool's worker is shared by every thread
          try {
            for (long i = 0; !stop.get(); i++) {
              long id = thread * 1_000_000_000L + i;
              int v = (int) (i % 1_000_000_000L);
              long dueAt = 0;
              if (schedule != null) {
                // Open loop: the next page due, whichever thread is free; none due after the cell's end.
                dueAt = schedule.dueNanos(due.getAndIncrement());
                if (dueAt >= end) {
                  break;
                }
                for (long now = System.nanoTime(); now < dueAt && !stop.get(); now = System.nanoTime()) {
                  java.util.concurrent.locks.LockSupport.parkNanos(dueAt - now);
                }
              }
              try {
                long t0 = System.nanoTime();
                w.write(id, v);
                long t1 = System.nanoTime();
                boolean fresh = w.read(id, i, PageRead.of(0, readHeavy), waits) == v;
                long t2 = System.nanoTime();
                // A web-style page reads more after the write: rows this user wrote earlier (each must show
                // its value: read-your-writes and monotonic reads), the latest first.
                for (int k = 1; k < pageReads; k++) {
                  long back = Math.min(k, i);
                  fresh &= w.read(id - back, i - back, PageRead.of(k, readHeavy), waits)
                      == (int) ((i - back) % 1_000_000_000L);
                }
                long t3 = System.nanoTime();
                writes.add(t1 - t0);
                long pageStart = schedule == null ? t0 : Math.min(dueAt, t0);
                reads.add(pageReads == 1 && schedule == null ? t2 - t1 : OpenLoop.latencyNanos(pageStart, t0, t3));
                if (!fresh) {
                  stale.increment();
                }
                iterations.increment();
              } catch (SQLException e) {
                errors.increment();
                if (errors.sum() <= 3) {
                  log.println("\n" + approach.name() + " thread " + thread + ": " + e);
                }
              }
            }
          } finally {
            readNanos[thread] = reads.toSortedArray();
            writeNanos[thread] = writes.toSortedArray();
            waitNanos[thread] = waits.toSortedArray();
            done.countDown();
          }
        }, "workload-" + thread);
        th.start();
        running.add(th);
      }
      long deadline = end;
      while (System.nanoTime() < deadline) {
        Thread.sleep(Math.min(1000, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
        progress(label, condition, approach, start, iterations.sum(), stale.sum(), errors.sum(), false);
      }
      stop.set(true);
      done.await();
      double elapsed = (System.nanoTime() - start) / 1e9;
      for (Thread th : running) {
        th.join();
      }
      long flights = roundTrips() - flightsBefore;
      long[] cpuUsed = CpuClock.used(cpuBefore, cpu.read());
      long[] applyDelays = sampler == null ? new long[0] : sampler.stop();
      if (sampler != null) {
        sampler.close();
      }
      Counts after = counts(table);
      Optional<MetricsSnapshot> driverAfter = driverMetrics(ryowUrl);
      lag.stop();
      progress(label, condition, approach, start, iterations.sum(), stale.sum(), errors.sum(), true);
      if (!workers.note().isEmpty()) {
        log.println("    " + workers.note());
      }
      long[] allReads = merge(readNanos);
      long[] allWrites = merge(writeNanos);
      long stalledSkips = Cell.NOT_COUNTED;
      long driverReads = Cell.NOT_COUNTED;
      if (driverBefore.isPresent() && driverAfter.isPresent()) {
        MetricsSnapshot b = driverBefore.get();
        MetricsSnapshot a = driverAfter.get();
        stalledSkips = a.stalledSkips() - b.stalledSkips();
        driverReads = a.replicaReads() + a.primaryReads() - b.replicaReads() - b.primaryReads();
        long waits = a.waits() - b.waits();
        long positionReads = a.positionReads() - b.positionReads();
        long shared = a.waitsShared() - b.waitsShared();
        log.println(String.format(Locale.ROOT, "    driver: %d reads, %d waits (%.3f per read, %.3f per page), %d rides on"
            + " another read's wait (%.3f per read), %d position reads (%.3f per read), %d stalled skips", driverReads,
            waits, (double) waits / Math.max(1, driverReads), (double) waits / Math.max(1, iterations.sum()), shared,
            (double) shared / Math.max(1, driverReads), positionReads, (double) positionReads / Math.max(1, driverReads),
            stalledSkips));
      }
      long[] byReplica = new long[after.replicaReadsByServer.length];
      for (int i = 0; i < byReplica.length; i++) {
        byReplica[i] = after.replicaReadsByServer[i] - before.replicaReadsByServer[i];
      }
      return new Cell(approach.name(), condition, iterations.sum(), elapsed, stale.sum(), errors.sum(),
          percentileMs(allReads, 50), percentileMs(allReads, 99), percentileMs(allWrites, 50),
          percentileMs(allWrites, 99), after.primaryReads - before.primaryReads,
          after.replicaReads() - before.replicaReads(), after.statements - before.statements,
          forwarders.isEmpty() ? Cell.NOT_COUNTED : flights, run, applyDelays, byReplica, merge(waitNanos),
          stalledSkips, driverReads, cpuUsed, share, rate);
    } finally {
      if (sampler != null) {
        sampler.close();
      }
      lag.stop();
      resumeReplicas();
      topology.awaitReplicasCaughtUp(120);
    }
  }

  private void progress(String label, Condition condition, Approach approach, long start, long iterations,
      long stale, long errors, boolean last) {
    double s = (System.nanoTime() - start) / 1e9;
    String line = String.format(Locale.ROOT, "[%-7s] %-5s %-14s %4.1f s  iterations %7d  (%6.0f/s)  stale %6d%s",
        label, condition.label, approach.name(), s, iterations, iterations / s, stale,
        errors > 0 ? "  errors " + errors : "");
    if (console) {
      log.print("\r" + line + (last ? "\n" : ""));
    } else if (last) {
      log.println(line);
    } else if (Math.round(s) % 2 == 0) {
      log.println(line);
    }
    log.flush();
  }

  /** Client-to-server flights through all forwarders so far (0 without forwarders). */
  private long roundTrips() {
    long sum = 0;
    for (LatencyForwarder f : forwarders) {
      sum += f.roundTrips();
    }
    return sum;
  }

  /**
   * The counters of the driver's cluster behind {@code ryowUrl} (the approach's URL: no properties beside it);
   * empty for an approach without the driver.
   */
  private static Optional<MetricsSnapshot> driverMetrics(Optional<String> ryowUrl) throws SQLException {
    return ryowUrl.isEmpty() ? Optional.empty() : RyowDriver.clusterMetrics(ryowUrl.get(), new Properties());
  }

  /** Statement counts on the servers at one moment; replica reads per replica, in the topology's order. */
  private record Counts(long primaryReads, long[] replicaReadsByServer, long statements) {
    long replicaReads() {
      return Arrays.stream(replicaReadsByServer).sum();
    }
  }

  private Counts counts(String table) throws SQLException {
    Flavor flavor = topology.flavor();
    List<String> replicas = topology.replicas();
    long primaryReads = 0;
    long[] replicaReads = new long[replicas.size()];
    long statements = 0;
    for (String server : topology.servers()) {
      try (Connection c = DriverManager.getConnection(adminUrl(server));
          PreparedStatement digest = c.prepareStatement(flavor.tableReads);
          PreparedStatement byUser = c.prepareStatement(flavor.userStatements)) {
        digest.setString(1, topology.database());
        digest.setString(2, table);
        long reads = single(digest);
        if (server.equals(topology.primary())) {
          primaryReads += reads;
        } else {
          replicaReads[replicas.indexOf(server)] += reads;
        }
        byUser.setString(1, topology.user());
        statements += single(byUser);
      }
    }
    return new Counts(primaryReads, replicaReads, statements);
  }

  private static long single(PreparedStatement ps) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private void resumeReplicas() throws SQLException {
    for (String r : topology.replicas()) {
      if (!topology.flavor().groupMember(adminUrl(r))) {
        Topology.exec(adminUrl(r), "START REPLICA SQL_THREAD");
      }
    }
  }

  private static void execAll(List<Connection> admins, String sql) throws SQLException {
    for (Connection c : admins) {
      try (Statement s = c.createStatement()) {
        s.execute(sql);
      }
    }
  }

  /**
   * Injects the condition's lag, from start to stop, on the replicas' appliers: pulse and storm stop their
   * SQL threads; blocked leaves them running and holds {@code FLUSH TABLES WITH READ LOCK} on each replica,
   * so they cannot commit. Stopping is idempotent and always leaves the appliers running and unblocked.
   */
  private final class Lag {
    private final Condition condition;
    private final AtomicBoolean running = new AtomicBoolean();
    private final List<Connection> admins = new ArrayList<>();
    private Thread pulse;
    private volatile Exception failure;

    Lag(Condition condition) {
      this.condition = condition;
    }

    void start() throws SQLException {
      if (condition == Condition.NONE) {
        return;
      }
      for (String r : topology.replicas()) {
        admins.add(DriverManager.getConnection(adminUrl(r)));
      }
      if (condition == Condition.STORM) {
        execAll(admins, "STOP REPLICA SQL_THREAD");
        return;
      }
      boolean block = condition == Condition.BLOCKED;
      if (block) {
        // A hold that cannot take the lock within 5 s fails the cell instead of hanging it.
        execAll(admins, "SET SESSION lock_wait_timeout = 5");
      }
      String on = block ? "FLUSH TABLES WITH READ LOCK" : "STOP REPLICA SQL_THREAD";
      String off = block ? "UNLOCK TABLES" : "START REPLICA SQL_THREAD";
      running.set(true);
      pulse = new Thread(() -> {
        try {
          while (running.get()) {
            execAll(admins, on);
            Thread.sleep(pauseMs);
            execAll(admins, off);
            Thread.sleep(Math.max(0, periodMs - pauseMs));
          }
        } catch (SQLException e) {
          failure = e;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "lag-" + condition.label);
      pulse.start();
    }

    void stop() throws Exception {
      if (admins.isEmpty()) {
        return;
      }
      running.set(false);
      if (pulse != null) {
        pulse.join();
        pulse = null;
      }
      try {
        execAll(admins, condition == Condition.BLOCKED ? "UNLOCK TABLES" : "START REPLICA SQL_THREAD");
      } finally {
        // Closing the sessions also releases any read lock they still hold.
        for (Connection c : admins) {
          c.close();
        }
        admins.clear();
      }
      if (failure != null) {
        throw new IllegalStateException("lag injection failed", failure);
      }
    }
  }

  private static long[] merge(long[][] parts) {
    int n = 0;
    for (long[] p : parts) {
      n += p == null ? 0 : p.length;
    }
    long[] all = new long[n];
    int at = 0;
    for (long[] p : parts) {
      if (p != null) {
        System.arraycopy(p, 0, all, at, p.length);
        at += p.length;
      }
    }
    Arrays.sort(all);
    return all;
  }

  /** Nearest-rank percentile of sorted nanoseconds, in milliseconds. */
  static double percentileMs(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
  }

  /** A growable array of longs (no boxing while measuring). */
  static final class LongList {
    private long[] a = new long[4096];
    private int n;

    void add(long v) {
      if (n == a.length) {
        a = Arrays.copyOf(a, n * 2);
      }
      a[n++] = v;
    }

    long[] toSortedArray() {
      long[] r = Arrays.copyOf(a, n);
      Arrays.sort(r);
      return r;
    }
  }
}
