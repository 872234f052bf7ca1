package dev.ryow.jdbc.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Threads that write a row and read it back, until closed, while a test does something to the servers:
 * each write records the {@code @@port} of the server that ran it in the row, each read returns the
 * {@code @@port} and {@code @@server_id} of the server that ran it. Connections come from a {@link Source}:
 * one held by each thread for the whole run ({@link #held}), or a pool, borrowed for the write and again
 * for the read-back ({@link #pooled}, a POST and its redirect GET). Everything is counted per phase
 * ({@link #BEFORE}, {@link #DURING}, {@link #AFTER} the event, or further phases the test sets).
 * Rows go to {@code table} ({@code id INT PRIMARY KEY, v INT NOT NULL, port INT NOT NULL}).
 */
final class ReadBackLoad implements AutoCloseable {
  static final int BEFORE = 0;
  static final int DURING = 1;
  static final int AFTER = 2;
  private static final int KEPT_MESSAGES = 10;

  /** A connection for one statement; closing the lease gives it back (or, for a held one, keeps it open). */
  interface Lease extends AutoCloseable {
    Connection connection();

    @Override
    void close() throws SQLException;
  }

  /** Where the threads get their connections. */
  interface Source extends AutoCloseable {
    Lease lease(int thread) throws SQLException;

    @Override
    void close() throws SQLException;
  }

  /** One logical connection per thread, opened by {@code opener}, held until the load is closed. */
  static Source held(int threads, ReadBackStorm.Opener opener) throws SQLException {
    List<Connection> connections = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      connections.add(opener.open());
    }
    return new Source() {
      @Override
      public Lease lease(int thread) {
        Connection c = connections.get(thread);
        return new Lease() {
          @Override
          public Connection connection() {
            return c;
          }

          @Override
          public void close() {
            // held until the load is closed
          }
        };
      }

      @Override
      public void close() throws SQLException {
        for (Connection c : connections) {
          c.close();
        }
      }
    };
  }

  /** A borrow from {@code pool} for every statement; closing the load does not close the pool. */
  static Source pooled(javax.sql.DataSource pool) {
    return new Source() {
      @Override
      public Lease lease(int thread) throws SQLException {
        Connection c = pool.getConnection();
        return new Lease() {
          @Override
          public Connection connection() {
            return c;
          }

          @Override
          public void close() throws SQLException {
            c.close();
          }
        };
      }

      @Override
      public void close() {
        // the test closes its pool
      }
    };
  }

  final AtomicInteger phase = new AtomicInteger(BEFORE);
  final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
  final AtomicLong stale = new AtomicLong();
  /** Reads answered by a server whose {@code @@server_id} is not the sandbox's for its {@code @@port}. */
  final AtomicLong wrongServer = new AtomicLong();
  final AtomicLong failedWrites = new AtomicLong();
  final AtomicLong failedReads = new AtomicLong();
  final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  /** Failed writes by SQLState. */
  final Map<String, AtomicLong> failedWritesByState = new ConcurrentHashMap<>();
  /** Where the first stale reads ran, and why ({@link dev.ryow.jdbc.RyowConnection#lastRead}). */
  final ConcurrentLinkedQueue<String> staleReads = new ConcurrentLinkedQueue<>();
  private final Map<String, LongAdder> readsByPhaseAndPort = new ConcurrentHashMap<>();
  private final Map<Integer, LongAdder> writesByPhase = new ConcurrentHashMap<>();
  private final String table;
  private final Source source;
  private final Map<Integer, Long> serverIdOfPort;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicInteger ids = new AtomicInteger();
  private final ExecutorService threads;
  private final List<Future<?>> futures = new ArrayList<>();

  /**
   * Starts {@code threads} threads on {@code source}; {@code serverIdOfPort} is the topology's
   * {@code @@server_id} for each {@code @@port}.
   */
  ReadBackLoad(String table, Source source, int threads, Map<Integer, Long> serverIdOfPort) {
    this.table = table;
    this.source = source;
    this.serverIdOfPort = serverIdOfPort;
    this.threads = Executors.newFixedThreadPool(threads);
    for (int t = 0; t < threads; t++) {
      int thread = t;
      futures.add(this.threads.submit(() -> work(thread)));
    }
  }

  private Void work(int thread) throws InterruptedException {
    while (!stop.get()) {
      int id = ids.incrementAndGet();
      int began = phase.get();
      try (Lease lease = source.lease(thread);
          PreparedStatement write = lease.connection().prepareStatement(
              "INSERT INTO " + table + " (id, v, port) VALUES (?, ?, @@port)")) {
        write.setInt(1, id);
        write.setInt(2, id * 3);
        write.executeUpdate();
        acknowledged.add(id);
        writesByPhase.computeIfAbsent(began, k -> new LongAdder()).increment();
      } catch (SQLException e) {
        failedWritesByState.computeIfAbsent(String.valueOf(e.getSQLState()), k -> new AtomicLong()).incrementAndGet();
        failed(failedWrites, "write", began, e);
        Thread.sleep(20);
        continue;
      }
      int readBegan = phase.get();
      try (Lease lease = source.lease(thread);
          PreparedStatement read = lease.connection().prepareStatement(
              "SELECT v, @@port, @@server_id FROM " + table + " WHERE id = ?")) {
        read.setInt(1, id);
        try (ResultSet rs = read.executeQuery()) {
          if (rs.next() && rs.getInt(1) == id * 3) {
            int port = rs.getInt(2);
            readsByPhaseAndPort.computeIfAbsent(readBegan + "@" + port, k -> new LongAdder()).increment();
            if (!Long.valueOf(rs.getLong(3)).equals(serverIdOfPort.get(port))) {
              wrongServer.incrementAndGet();
            }
          } else {
            stale.incrementAndGet();
            if (staleReads.size() < KEPT_MESSAGES) {
              staleReads.add("read of " + id + " in phase " + readBegan + ": "
                  + lease.connection().unwrap(dev.ryow.jdbc.RyowConnection.class).lastRead());
            }
          }
        }
      } catch (SQLException e) {
        failed(failedReads, "read", readBegan, e);
      }
      Thread.sleep(2);
    }
    return null;
  }

  private void failed(AtomicLong counter, String what, int inPhase, SQLException e) {
    counter.incrementAndGet();
    if (failures.size() < KEPT_MESSAGES) {
      String m = String.valueOf(e.getMessage());
      failures.add(what + " in phase " + inPhase + ": " + e.getSQLState() + " "
          + (m.length() > 160 ? m.substring(0, 160) : m));
    }
  }

  /**
   * The writes that failed while the primary died and stayed dead, as documented (docs/operations.md): the
   * write each of the {@code threads} threads had running on the primary when it died, with a connection
   * failure (08xxx, not run again: it may have committed), and the writes attempted while no server was
   * writable, with the retryable HYT01 (they fail fast; none ran). Nothing else fails.
   */
  void assertWritesFailedAsDocumentedForADeadPrimary(int threads) {
    assertThat(failedWritesByState.keySet())
        .as("SQLStates of failed writes (%s): 08xxx for the write running at the kill, HYT01 while no server was"
            + " writable", failures)
        .allMatch(state -> state.startsWith("08") || "HYT01".equals(state));
    long inFlight = 0;
    for (Map.Entry<String, AtomicLong> e : failedWritesByState.entrySet()) {
      if (e.getKey().startsWith("08")) {
        inFlight += e.getValue().get();
      }
    }
    assertThat(inFlight).as("writes failed with a connection failure (%s): one running per thread at the kill at"
        + " most", failedWritesByState).isLessThanOrEqualTo(threads);
  }

  /** Reads that began in {@code inPhase}, returned their row, and ran on the server on {@code port}. */
  long reads(int inPhase, int port) {
    LongAdder a = readsByPhaseAndPort.get(inPhase + "@" + port);
    return a == null ? 0 : a.sum();
  }

  /** Acknowledged writes that began in {@code inPhase}. */
  long writes(int inPhase) {
    LongAdder a = writesByPhase.get(inPhase);
    return a == null ? 0 : a.sum();
  }

  /** Blocks until {@code n} reads that began in {@code inPhase} ran on {@code port}, or {@code maxSeconds} passed. */
  void awaitReads(int inPhase, int port, int n, int maxSeconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
    while (reads(inPhase, port) < n && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
  }

  /** Blocks until {@code n} writes that began in {@code inPhase} were acknowledged, or {@code maxSeconds} passed. */
  void awaitWrites(int inPhase, int n, int maxSeconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
    while (writes(inPhase) < n && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
  }

  /** Acknowledged writes that the server behind {@code primary} does not have. */
  Set<Integer> lostOn(Connection primary) throws SQLException {
    return HeldConnections.missingOn(primary, table, acknowledged);
  }

  /** Reads per phase and port, failures. */
  @Override
  public String toString() {
    return acknowledged.size() + " acknowledged writes, writes by phase " + writesByPhase + ", reads by phase@port "
        + readsByPhaseAndPort + ", stale " + stale + " " + staleReads + ", wrong server " + wrongServer + ", failed writes "
        + failedWrites + " " + failedWritesByState + ", failed reads " + failedReads + " " + failures;
  }

  /** Stops the threads (bounded: a thread stuck for 90 s fails the test) and closes the source. */
  @Override
  public void close() throws ExecutionException, TimeoutException, SQLException {
    stop.set(true);
    try {
      HeldConnections.awaitStopped(futures, threads);
    } finally {
      source.close();
    }
  }
}
