package dev.ryow.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The demonstration the README's first command runs against the sandbox: the same read-after-write
 * workload under pulsed replication lag, once with a plain Connector/J replica connection for the
 * read and once through {@code jdbc:ryow:}. Prints stale reads and the share of reads the replicas
 * served, counted on the servers themselves (performance_schema digests).
 *
 * <p>Usage: {@code Demo [seconds-per-approach=8] [threads=4] [pause-ms=300] [period-ms=1000]}.
 * The topology comes from {@code RYOW_SANDBOX_URL} (printed by {@code sandbox/ryow-sandbox url}).
 */
public final class Demo {
  private final String ryowUrl;
  private final String primaryUrl;
  private final List<String> replicaUrls = new ArrayList<>();

  private Demo(String ryowUrl) {
    this.ryowUrl = ryowUrl; // the driver's defaults, as an application that only swapped its URL
    // jdbc:ryow:mysql://P,R1,R2/db?query -> plain Connector/J URLs per server.
    String rest = ryowUrl.substring("jdbc:ryow:mysql://".length());
    int slash = rest.indexOf('/');
    String[] hosts = rest.substring(0, slash).split(",");
    String tail = rest.substring(slash);
    String query = tail.contains("?") ? "&allowPublicKeyRetrieval=true" : "?allowPublicKeyRetrieval=true";
    this.primaryUrl = "jdbc:mysql://" + hosts[0] + tail + query;
    for (int i = 1; i < hosts.length; i++) {
      replicaUrls.add("jdbc:mysql://" + hosts[i] + tail + query);
    }
  }

  /** Runs the demonstration. */
  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int pauseMs = args.length > 2 ? Integer.parseInt(args[2]) : 300;
    int periodMs = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
    String url = System.getenv().getOrDefault(
        "RYOW_SANDBOX_URL",
        "jdbc:ryow:mysql://127.0.0.1:23306,127.0.0.1:23307,127.0.0.1:23308/ryow?user=ryow&password=ryow");
    new Demo(url).run(seconds, threads, pauseMs, periodMs);
  }

  private void run(int seconds, int threads, int pauseMs, int periodMs) throws Exception {
    exec(primaryUrl, "DROP TABLE IF EXISTS demo_plain", "DROP TABLE IF EXISTS demo_ryow",
        "CREATE TABLE demo_plain (id BIGINT PRIMARY KEY, v INT NOT NULL)",
        "CREATE TABLE demo_ryow (id BIGINT PRIMARY KEY, v INT NOT NULL)");
    Thread.sleep(500);
    System.out.printf("Read-after-write, %d threads x %d s per approach; replica appliers paused %d ms of every %d ms.%n",
        threads, seconds, pauseMs, periodMs);

    AtomicBoolean pulsing = new AtomicBoolean(true);
    Thread pulse = new Thread(() -> pulse(pulsing, pauseMs, periodMs), "lag-pulse");
    pulse.start();
    Result plain;
    Result ryow;
    try {
      plain = workload("plain Connector/J (write primary, read replica)", "demo_plain", seconds, threads, false);
      ryow = workload("jdbc:ryow: (one connection)", "demo_ryow", seconds, threads, true);
    } finally {
      pulsing.set(false);
      pulse.join();
      for (String r : replicaUrls) {
        exec(r, "START REPLICA SQL_THREAD");
      }
    }
    System.out.println();
    System.out.printf("%-50s %10s %10s %9s %22s%n", "approach", "reads", "stale", "stale %", "served by replicas");
    for (Result r : List.of(plain, ryow)) {
      System.out.printf("%-50s %10d %10d %8.2f%% %21.1f%%%n", r.name, r.reads, r.stale, 100.0 * r.stale / r.reads,
          100.0 * r.replicaServed / (r.replicaServed + r.primaryServed));
    }
    System.out.println();
    System.out.println("'served by replicas' is counted on the servers (performance_schema statement digests).");
  }

  private record Result(String name, long reads, long stale, long replicaServed, long primaryServed) {}

  private Result workload(String name, String table, int seconds, int threads, boolean throughRyow) throws Exception {
    String digest = "SELECT `v` FROM `" + table + "`";
    long replicaBefore = replicaCount(digest);
    long primaryBefore = count(primaryUrl, digest);
    LongAdder reads = new LongAdder();
    LongAdder stale = new LongAdder();
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      futures.add(pool.submit(() -> {
        try (Connection writer = DriverManager.getConnection(throughRyow ? ryowUrl : primaryUrl);
            Connection reader = throughRyow ? writer : DriverManager.getConnection(replicaUrls.get(thread % replicaUrls.size()));
            PreparedStatement write = writer.prepareStatement("INSERT INTO " + table + " (id, v) VALUES (?, ?)");
            PreparedStatement read = reader.prepareStatement("SELECT v FROM " + table + " WHERE id = ?")) {
          for (long i = 0; System.nanoTime() < deadline; i++) {
            long id = thread * 1_000_000_000L + i;
            write.setLong(1, id);
            write.setInt(2, (int) i);
            write.executeUpdate();
            read.setLong(1, id);
            try (ResultSet rs = read.executeQuery()) {
              if (!rs.next() || rs.getInt(1) != (int) i) {
                stale.increment();
              }
            }
            reads.increment();
          }
        }
        return null;
      }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    Thread.sleep(200); // let performance_schema summaries settle
    return new Result(name, reads.sum(), stale.sum(), replicaCount(digest) - replicaBefore,
        count(primaryUrl, digest) - primaryBefore);
  }

  private void pulse(AtomicBoolean running, int pauseMs, int periodMs) {
    try {
      List<Connection> admins = new ArrayList<>();
      for (String r : replicaUrls) {
        admins.add(DriverManager.getConnection(r));
      }
      try {
        while (running.get()) {
          for (Connection c : admins) {
            try (Statement s = c.createStatement()) {
              s.execute("STOP REPLICA SQL_THREAD");
            }
          }
          Thread.sleep(pauseMs);
          for (Connection c : admins) {
            try (Statement s = c.createStatement()) {
              s.execute("START REPLICA SQL_THREAD");
            }
          }
          Thread.sleep(Math.max(0, periodMs - pauseMs));
        }
      } finally {
        for (Connection c : admins) {
          c.close();
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("lag pulse failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private long replicaCount(String digest) throws SQLException {
    long sum = 0;
    for (String r : replicaUrls) {
      sum += count(r, digest);
    }
    return sum;
  }

  private static long count(String url, String digestFragment) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement ps = c.prepareStatement(
            "SELECT COALESCE(SUM(COUNT_STAR), 0) FROM performance_schema.events_statements_summary_by_digest"
                + " WHERE DIGEST_TEXT LIKE ?")) {
      ps.setString(1, "%" + digestFragment + "%");
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static void exec(String url, String... statements) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }
}
