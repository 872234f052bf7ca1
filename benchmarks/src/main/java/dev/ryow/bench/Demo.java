package dev.ryow.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The demonstration the README's first command runs against the sandbox: an application writes a row
 * and reads it back, through {@code jdbc:ryow:} with the default URL (no {@code ryow.*} setting), in two
 * flows: on one connection, and web-style on a HikariCP pool, where the write (a POST) and the read-back
 * (its redirect GET) each borrow a connection. First a few single iterations, each read asking its server
 * for {@code @@port}, with no lag and with the replicas blocked; then every flow, and a plain Connector/J
 * baseline (write on the primary, read on a replica), for a few seconds with threads under replication lag.
 *
 * <p>Usage: {@code Demo [seconds-per-flow=8] [threads=4] [pause-ms=300] [period-ms=1000] [lag=pulse|blocked]}:
 * pulse stops the replicas' appliers for pause-ms of every period-ms, blocked holds
 * {@code FLUSH TABLES WITH READ LOCK} on them instead (appliers running). The topology comes from
 * {@code RYOW_SANDBOX_URL} (printed by {@code sandbox/ryow-sandbox url}).
 */
public final class Demo {
  private static final String TABLE = "demo_rw";

  private final String ryowUrl;
  private final List<String> serverUrls = new ArrayList<>();
  private final List<String> serverNames = new ArrayList<>();
  private final List<Integer> serverPorts = new ArrayList<>();
  private final AtomicLong ids = new AtomicLong();

  private Demo(String ryowUrl) {
    this.ryowUrl = ryowUrl; // the driver's defaults, as an application that only swapped its URL
    // jdbc:ryow:mysql://P,R1,R2/db?query -> plain Connector/J URLs per server.
    String rest = ryowUrl.substring("jdbc:ryow:mysql://".length());
    int slash = rest.indexOf('/');
    String[] hosts = rest.substring(0, slash).split(",");
    String tail = rest.substring(slash);
    String query = tail.contains("?") ? "&allowPublicKeyRetrieval=true" : "?allowPublicKeyRetrieval=true";
    for (int i = 0; i < hosts.length; i++) {
      serverUrls.add("jdbc:mysql://" + hosts[i] + tail + query);
      serverNames.add(i == 0 ? "primary" : "replica" + i);
      int colon = hosts[i].lastIndexOf(':');
      serverPorts.add(colon < 0 ? 3306 : Integer.parseInt(hosts[i].substring(colon + 1)));
    }
  }

  /** Runs the demonstration. */
  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int pauseMs = args.length > 2 ? Integer.parseInt(args[2]) : 300;
    int periodMs = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
    String lag = args.length > 4 ? args[4] : "pulse";
    if (!lag.equals("pulse") && !lag.equals("blocked")) {
      throw new IllegalArgumentException("lag must be pulse or blocked, not " + lag);
    }
    if (System.getProperty("org.slf4j.simpleLogger.log.com.zaxxer.hikari") == null) {
      System.setProperty("org.slf4j.simpleLogger.log.com.zaxxer.hikari", "warn");
    }
    String url = System.getenv().getOrDefault(
        "RYOW_SANDBOX_URL",
        "jdbc:ryow:mysql://127.0.0.1:23306,127.0.0.1:23307,127.0.0.1:23308/ryow?user=ryow&password=ryow");
    new Demo(url).run(seconds, threads, pauseMs, periodMs, lag.equals("blocked"));
  }

  private String primaryUrl() {
    return serverUrls.get(0);
  }

  private List<String> replicaUrls() {
    return serverUrls.subList(1, serverUrls.size());
  }

  private void run(int seconds, int threads, int pauseMs, int periodMs, boolean blocked) throws Exception {
    exec(primaryUrl(), "DROP TABLE IF EXISTS " + TABLE, "CREATE TABLE " + TABLE + " (id BIGINT PRIMARY KEY, v INT NOT NULL)");
    Thread.sleep(500);
    int poolSize = Math.max(1, threads / 2);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(ryowUrl);
    config.setMaximumPoolSize(poolSize);
    config.setPoolName("demo");
    System.out.println("Write a row, read it back: jdbc:ryow: with the default URL (no ryow.* setting).");
    System.out.println("  one connection: write and read on the same connection");
    System.out.printf("  pooled: HikariCP, %d connections; the write (a POST) and the read-back (its redirect GET)"
        + " each borrow one%n%n", poolSize);
    try (HikariDataSource pool = new HikariDataSource(config);
        Connection single = DriverManager.getConnection(ryowUrl)) {
      steps(pool, single);
      System.out.println();
      String lagText = String.format(Locale.ROOT, "%s %d ms of every %d ms",
          blocked ? "replicas blocked (FLUSH TABLES WITH READ LOCK, appliers running)" : "replica appliers paused",
          pauseMs, periodMs);
      System.out.printf("%d threads x %d s per flow; %s.%n", threads, seconds, lagText);
      List<Result> results = new ArrayList<>();
      try (Lag lag = new Lag(blocked, pauseMs, periodMs)) {
        results.add(workload("plain Connector/J (write primary, read replica)", seconds, threads, thread -> {
          Connection w = DriverManager.getConnection(primaryUrl());
          Connection r = DriverManager.getConnection(replicaUrls().get(thread % replicaUrls().size()));
          return flow((id, v) -> writeAndRead(w, r, id, v), w, r);
        }));
        results.add(workload("jdbc:ryow:, one connection per thread", seconds, threads, thread -> {
          Connection c = DriverManager.getConnection(ryowUrl);
          return flow((id, v) -> writeAndRead(c, c, id, v), c);
        }));
        results.add(workload("jdbc:ryow:, pooled, POST + redirect GET", seconds, threads, thread -> flow((id, v) -> {
          Object writer;
          try (Connection post = pool.getConnection()) {
            insert(post, id, v);
            writer = post.unwrap(RyowConnection.class);
          }
          try (Connection get = pool.getConnection()) {
            return new Outcome(read(get, id, v), get.unwrap(RyowConnection.class) != writer);
          }
        })));
        lag.check();
      }
      System.out.println();
      System.out.printf("  %-48s %7s %7s %7s %11s %11s%n", "flow", "reads", "stale", "errors", "on primary",
          "on replicas");
      for (Result r : results) {
        double reads = Math.max(1, r.reads());
        System.out.printf(Locale.ROOT, "  %-48s %7d %7d %7d %10.1f%% %10.1f%%%n", r.name(), r.reads(), r.stale(),
            r.errors(), 100.0 * r.onPrimary() / reads, 100.0 * (r.reads() - r.onPrimary()) / reads);
      }
      for (Result r : results) {
        if (r.firstError() != null) {
          System.out.println("  " + r.name() + ", first error: " + r.firstError());
        }
      }
      Result pooled = results.get(2);
      System.out.printf(Locale.ROOT, "%nWhere each read ran is the server's own @@port answer; stale = the row read back"
          + " was missing or old. Pooled: %.0f%% of read-backs ran on another connection than their write.%n",
          100.0 * pooled.otherConnection() / Math.max(1, pooled.reads()));
    }
  }

  /** A few single iterations per flow, with no lag and then with every replica blocked. */
  private void steps(HikariDataSource pool, Connection single) throws SQLException {
    Map<Object, Integer> labels = new IdentityHashMap<>();
    System.out.printf("  %-8s %-15s %-9s %-8s %-19s %s%n", "lag", "flow", "write on", "read on", "read ran on",
        "saw the write");
    for (boolean blocked : new boolean[] {false, true}) {
      List<Connection> holds = new ArrayList<>();
      try {
        if (blocked) {
          for (String r : replicaUrls()) {
            Connection c = DriverManager.getConnection(r);
            holds.add(c);
            try (Statement s = c.createStatement()) {
              s.execute("FLUSH TABLES WITH READ LOCK");
            }
          }
        }
        String lag = blocked ? "blocked" : "none";
        for (int i = 0; i < 2; i++) {
          long id = ids.incrementAndGet();
          insert(single, id, 1);
          step(lag, "one connection", label(labels, single), label(labels, single), read(single, id, 1));
          // The redirect GET borrows while the POST's connection is still out: another connection.
          try (Connection post = pool.getConnection()) {
            id = ids.incrementAndGet();
            insert(post, id, 1);
            try (Connection get = pool.getConnection()) {
              step(lag, "pooled", label(labels, post), label(labels, get), read(get, id, 1));
            }
          }
        }
      } finally {
        for (Connection c : holds) {
          c.close(); // closing the session releases its read lock
        }
      }
    }
  }

  private void step(String lag, String flow, String writeOn, String readOn, Read read) {
    System.out.printf("  %-8s %-15s %-9s %-8s %-19s %s%n", lag, flow, writeOn, readOn,
        serverName(read.port()) + " (" + read.port() + ")", read.saw() ? "yes" : "NO (stale)");
  }

  private static String label(Map<Object, Integer> labels, Connection c) throws SQLException {
    return "#" + labels.computeIfAbsent(c.unwrap(RyowConnection.class), k -> labels.size() + 1);
  }

  private String serverName(int port) {
    int i = serverPorts.indexOf(port);
    return i < 0 ? "port" : serverNames.get(i);
  }

  /** A read-back: where it ran ({@code @@port}) and whether it saw the write. */
  private record Read(int port, boolean saw) {}

  private record Outcome(Read read, boolean otherConnection) {}

  private record Result(String name, long reads, long stale, long onPrimary, long otherConnection, long errors,
      String firstError) {}

  /** One write and its read-back. */
  @FunctionalInterface
  private interface Iteration {
    Outcome run(long id, int v) throws SQLException;
  }

  /** One thread's flow: its iteration and the connections it closes at the end. */
  private record ThreadFlow(Iteration iteration, Connection[] connections) implements AutoCloseable {
    @Override
    public void close() throws SQLException {
      for (Connection c : connections) {
        c.close();
      }
    }
  }

  private static ThreadFlow flow(Iteration iteration, Connection... connections) {
    return new ThreadFlow(iteration, connections);
  }

  /** Opens a thread's flow. */
  @FunctionalInterface
  private interface Flow {
    ThreadFlow open(int thread) throws SQLException;
  }

  private static Outcome writeAndRead(Connection writer, Connection reader, long id, int v) throws SQLException {
    insert(writer, id, v);
    return new Outcome(read(reader, id, v), false);
  }

  /** Runs {@code flow} on {@code threads} threads for {@code seconds}. */
  private Result workload(String name, int seconds, int threads, Flow flow) throws Exception {
    LongAdder reads = new LongAdder();
    LongAdder stale = new LongAdder();
    LongAdder onPrimary = new LongAdder();
    LongAdder other = new LongAdder();
    LongAdder errors = new LongAdder();
    AtomicReference<String> firstError = new AtomicReference<>();
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    ExecutorService executor = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(executor.submit(() -> {
          try (ThreadFlow f = flow.open(thread)) {
            for (int i = 0; System.nanoTime() < deadline; i++) {
              Outcome o;
              try {
                o = f.iteration().run(ids.incrementAndGet(), i);
              } catch (SQLException e) {
                errors.increment();
                firstError.compareAndSet(null, e.getMessage());
                continue;
              }
              reads.increment();
              if (!o.read().saw()) {
                stale.increment();
              }
              if (o.read().port() == serverPorts.get(0)) {
                onPrimary.increment();
              }
              if (o.otherConnection()) {
                other.increment();
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      executor.shutdown();
    }
    return new Result(name, reads.sum(), stale.sum(), onPrimary.sum(), other.sum(), errors.sum(), firstError.get());
  }

  private static void insert(Connection c, long id, int v) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)")) {
      ps.setLong(1, id);
      ps.setInt(2, v);
      ps.executeUpdate();
    }
  }

  /** Reads the row back with the answering server's {@code @@port}; saw = the row is there with {@code v}. */
  private static Read read(Connection c, long id, int v) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT (SELECT v FROM " + TABLE + " WHERE id = ?), @@port")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        int got = rs.getInt(1);
        boolean saw = !rs.wasNull() && got == v;
        return new Read(rs.getInt(2), saw);
      }
    }
  }

  /**
   * The lag during the timed flows, on plain connections to the replicas: appliers stopped (pulse) or
   * blocked by a held {@code FLUSH TABLES WITH READ LOCK}. Closing always leaves them running and unlocked.
   */
  private final class Lag implements AutoCloseable {
    private final List<Connection> admins = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private final Thread resume;
    private volatile SQLException failure;

    Lag(boolean blocked, int pauseMs, int periodMs) throws SQLException {
      for (String r : replicaUrls()) {
        admins.add(DriverManager.getConnection(r));
      }
      String on = blocked ? "FLUSH TABLES WITH READ LOCK" : "STOP REPLICA SQL_THREAD";
      String off = blocked ? "UNLOCK TABLES" : "START REPLICA SQL_THREAD";
      // Ctrl-C during a pause must not leave the appliers stopped (a held read lock ends with its session).
      resume = new Thread(() -> {
        try {
          execAll("START REPLICA SQL_THREAD");
        } catch (SQLException e) {
          System.err.println("could not restart the replicas' appliers: " + e.getMessage());
        }
      }, "demo-lag-resume");
      Runtime.getRuntime().addShutdownHook(resume);
      thread = new Thread(() -> {
        try {
          while (running.get()) {
            execAll(on);
            Thread.sleep(pauseMs);
            execAll(off);
            Thread.sleep(Math.max(0, periodMs - pauseMs));
          }
        } catch (SQLException e) {
          failure = e;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "demo-lag");
      thread.start();
    }

    private void execAll(String sql) throws SQLException {
      for (Connection c : admins) {
        try (Statement s = c.createStatement()) {
          s.execute(sql);
        }
      }
    }

    void check() throws SQLException {
      if (failure != null) {
        throw new SQLException("lag injection failed", failure);
      }
    }

    /**
     * Waits for the lag thread to stop even if interrupted (else it could stop an applier after the
     * restart below), then restores the caller's interrupt status.
     */
    @Override
    public void close() throws SQLException {
      running.set(false);
      boolean interrupted = false;
      while (true) {
        try {
          thread.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      Runtime.getRuntime().removeShutdownHook(resume);
      try {
        execAll("UNLOCK TABLES");
        execAll("START REPLICA SQL_THREAD");
      } finally {
        for (Connection c : admins) {
          c.close();
        }
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
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
