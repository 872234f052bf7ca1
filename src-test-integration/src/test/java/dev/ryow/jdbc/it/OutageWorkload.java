package dev.ryow.jdbc.it;

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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Half readers, half writers on connections from {@code source} (a pool, or held connections shared by a
 * reader and a writer), while the primary goes away. A writer inserts a row and records it once it is
 * acknowledged; a writer whose write failed waits {@link #RETRY_PAUSE_MILLIS} (an application's retry
 * pause) and writes the next row. A reader reads back the last acknowledged row (stale when it misses it)
 * and counts the read by the {@code @@port} that ran it. Everything is counted per phase; each write that
 * began during the outage records how long it took and how it ended. {@link #writeHold} lets a test kill
 * the primary at a moment when no write is in flight.
 */
final class OutageWorkload implements AutoCloseable {
  static final int BEFORE = 0;
  static final int DURING = 1;
  static final int RESTARTING = 2;
  static final int AFTER = 3;
  static final long RETRY_PAUSE_MILLIS = 100;

  /** Where a thread gets its connection and gives it back. */
  interface Source {
    Connection take(int thread) throws SQLException;

    void give(int thread, Connection c) throws SQLException;

    /** Each operation takes a connection from {@code pool} and closes it (gives it back) after. */
    static Source pooled(javax.sql.DataSource pool) {
      return new Source() {
        @Override
        public Connection take(int thread) throws SQLException {
          return pool.getConnection();
        }

        @Override
        public void give(int thread, Connection c) throws SQLException {
          c.close();
        }
      };
    }
  }

  /** How a write that began during the outage ended. */
  record WriteAttempt(long millis, String outcome) {}

  private final String table;
  private final Source source;
  private final ExecutorService threads;
  private final List<Future<?>> futures = new ArrayList<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  final AtomicInteger phase = new AtomicInteger(BEFORE);
  private final AtomicInteger ids = new AtomicInteger(1_000);
  /** The last acknowledged id (0: none yet). */
  private final AtomicInteger lastAcknowledged = new AtomicInteger();
  final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
  final AtomicLongArray reads = new AtomicLongArray(4);
  final AtomicLongArray writes = new AtomicLongArray(4);
  final AtomicLongArray failedReads = new AtomicLongArray(4);
  final AtomicLongArray failedWrites = new AtomicLongArray(4);
  final AtomicLong stale = new AtomicLong();
  /** Reads during the outage by the port that ran them. */
  final Map<Integer, AtomicLong> downReadsByPort = new ConcurrentHashMap<>();
  final ConcurrentLinkedQueue<WriteAttempt> downWrites = new ConcurrentLinkedQueue<>();
  final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  /** Lets a test kill the primary with no write in flight ({@link WriteHold}). */
  final WriteHold writeHold = new WriteHold();

  OutageWorkload(String table, Source source, int readers, int writers) {
    this.table = table;
    this.source = source;
    this.threads = Executors.newFixedThreadPool(readers + writers);
    for (int t = 0; t < readers + writers; t++) {
      int thread = t;
      boolean writer = t % 2 == 1 || t >= 2 * readers;
      futures.add(threads.submit(() -> {
        while (!stop.get()) {
          if (writer) {
            write(thread);
          } else {
            read(thread);
          }
        }
        return null;
      }));
    }
  }

  private void write(int thread) throws InterruptedException {
    writeHold.enter(stop::get);
    try {
      writeOnce(thread);
    } finally {
      writeHold.exit();
    }
  }

  private void writeOnce(int thread) throws InterruptedException {
    int p = phase.get();
    int id = ids.incrementAndGet();
    long start = System.nanoTime();
    String outcome = "ok";
    Connection c = null;
    try {
      c = source.take(thread);
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, v, port) VALUES (?, ?, @@port)")) {
        ps.setInt(1, id);
        ps.setInt(2, id);
        ps.executeUpdate();
      }
      acknowledged.add(id);
      lastAcknowledged.accumulateAndGet(id, Math::max);
      writes.incrementAndGet(p);
    } catch (SQLException e) {
      outcome = e.getSQLState() + " " + e.getClass().getSimpleName();
      failedWrites.incrementAndGet(p);
      note(p, "write", e);
    } finally {
      give(thread, c);
    }
    if (p == DURING) {
      downWrites.add(new WriteAttempt((System.nanoTime() - start) / 1_000_000, outcome));
    }
    if (!"ok".equals(outcome)) {
      Thread.sleep(RETRY_PAUSE_MILLIS);
    }
  }

  private void read(int thread) throws InterruptedException {
    int p = phase.get();
    int id = lastAcknowledged.get();
    Connection c = null;
    boolean failed = false;
    try {
      c = source.take(thread);
      try (PreparedStatement ps = c.prepareStatement("SELECT @@port, COUNT(*) FROM " + table + " WHERE id = ?")) {
        ps.setInt(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (id != 0 && rs.getLong(2) != 1) {
            stale.incrementAndGet();
            failures.add("stale: row " + id + " missing on port " + rs.getInt(1));
          }
          reads.incrementAndGet(p);
          if (p == DURING) {
            downReadsByPort.computeIfAbsent(rs.getInt(1), k -> new AtomicLong()).incrementAndGet();
          }
        }
      }
    } catch (SQLException e) {
      failed = true;
      failedReads.incrementAndGet(p);
      note(p, "read", e);
    } finally {
      give(thread, c);
    }
    if (failed) {
      Thread.sleep(RETRY_PAUSE_MILLIS);
    }
  }

  private void give(int thread, Connection c) {
    if (c != null) {
      try {
        source.give(thread, c);
      } catch (SQLException e) {
        failures.add("giving a connection back: " + e);
      }
    }
  }

  private void note(int p, String what, SQLException e) {
    if (failures.size() < 60) {
      failures.add("phase " + p + " " + what + ": " + e.getSQLState() + " " + e.getMessage());
    }
  }

  /** Stops the threads and waits for them; rethrows what a thread threw. */
  @Override
  public void close() {
    stop.set(true);
    threads.shutdown();
    try {
      if (!threads.awaitTermination(120, TimeUnit.SECONDS)) {
        threads.shutdownNow();
        throw new AssertionError("workload threads did not stop in 120 s");
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new AssertionError("a workload thread failed", e.getCause());
    }
  }
}
