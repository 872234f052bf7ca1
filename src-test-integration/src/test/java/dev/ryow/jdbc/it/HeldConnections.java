package dev.ryow.jdbc.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Logical connections the application holds, with no pool to evict a broken one (a legacy tool, a
 * batch job, a pool without eviction), busy while the primary goes away: {@code writers} threads share
 * {@code connections} logical {@code jdbc:ryow:} connections (thread t uses connection t mod M, one thread
 * at a time, as JDBC connections are used), each iteration inserts a row and reads it back on the same
 * connection. Half the writer threads prepare their statements for every iteration (as ORMs and legacy
 * code do), the others use plain statements. {@code readers} more threads each hold a connection of their
 * own and read rows other connections wrote (the JVM-wide default consistency must show them).
 *
 * <p>Everything is counted per connection and per phase (before, during, after the event); which
 * server ran each write is in the row ({@code @@port}). Opened on defaults: a test about a setting passes
 * it in the URL.
 */
final class HeldConnections implements AutoCloseable {
  static final int BEFORE = 0;
  static final int DURING = 1;
  static final int AFTER = 2;
  /** A writer thread's pause after a failed write. */
  private static final long FAILED_WRITE_PAUSE_MILLIS = 50;
  /** At most this many failure messages are kept (all are counted). */
  private static final int KEPT_MESSAGES = 40;

  private final String table;
  private final List<Connection> writerConnections = new ArrayList<>();
  private final List<ReentrantLock> locks = new ArrayList<>();
  private final List<Connection> readerConnections = new ArrayList<>();
  private final int writers;
  private final ExecutorService threads;
  private final List<Future<?>> futures = new ArrayList<>();
  final AtomicInteger phase = new AtomicInteger(BEFORE);
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicInteger ids = new AtomicInteger();
  /** Acknowledged writes, in the order they were acknowledged. */
  final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
  private final List<Integer> acknowledgedList = java.util.Collections.synchronizedList(new ArrayList<>());
  /** [phase * M + connection]: writes acknowledged on that connection that began in that phase. */
  private final AtomicLongArray writesByPhase;
  private final AtomicLongArray readsByPhase = new AtomicLongArray(3);
  private final AtomicLongArray readerReadsByPhase = new AtomicLongArray(3);
  final AtomicLong stale = new AtomicLong();
  final AtomicLong failedStatements = new AtomicLong();
  final AtomicLong failedReaderStatements = new AtomicLong();
  /** Failures per writer connection. */
  private final AtomicLongArray failuresByConnection;
  final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  final ConcurrentLinkedQueue<String> readerFailures = new ConcurrentLinkedQueue<>();
  /** SQLState → count, over every failed statement of the writers and the readers. */
  final Map<String, AtomicLong> failuresByState = new ConcurrentHashMap<>();
  /** Lets a test kill the primary with no write in flight ({@link WriteHold}): a write and its read-back are one. */
  final WriteHold writeHold = new WriteHold();

  /**
   * Opens {@code connections} + {@code readers} logical connections to {@code url} and starts the threads;
   * rows go to {@code table} ({@code id INT PRIMARY KEY, v INT NOT NULL, port INT NOT NULL, conn INT NOT NULL}).
   */
  HeldConnections(String url, String table, int connections, int writers, int readers) throws SQLException {
    this.table = table;
    this.writers = writers;
    this.writesByPhase = new AtomicLongArray(3 * connections);
    this.failuresByConnection = new AtomicLongArray(connections);
    try {
      for (int i = 0; i < connections; i++) {
        writerConnections.add(DriverManager.getConnection(url));
        locks.add(new ReentrantLock());
      }
      for (int i = 0; i < readers; i++) {
        readerConnections.add(DriverManager.getConnection(url));
      }
    } catch (SQLException e) {
      closeConnections();
      throw e;
    }
    threads = Executors.newFixedThreadPool(writers + readers);
    for (int t = 0; t < writers; t++) {
      int thread = t;
      futures.add(threads.submit(() -> write(thread)));
    }
    for (int r = 0; r < readers; r++) {
      Connection c = readerConnections.get(r);
      futures.add(threads.submit(() -> read(c)));
    }
  }

  int connections() {
    return writerConnections.size();
  }

  /** Writes acknowledged on connection {@code c} that began in {@code phase}. */
  long writes(int phase, int c) {
    return writesByPhase.get(phase * connections() + c);
  }

  /** Reads (by the writers, of their own rows) that began in {@code phase} and returned the row. */
  long reads(int phase) {
    return readsByPhase.get(phase);
  }

  /** Reads by the reader threads (of other connections' rows) that began in {@code phase} and returned the row. */
  long readerReads(int phase) {
    return readerReadsByPhase.get(phase);
  }

  long failures(int connection) {
    return failuresByConnection.get(connection);
  }

  /** Blocks until some connection has a write that began in {@code phase} acknowledged, or {@code maxSeconds} passed. */
  void awaitFirstWrite(int phase, int maxSeconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
    while (System.nanoTime() < deadline) {
      for (int c = 0; c < connections(); c++) {
        if (writes(phase, c) > 0) {
          return;
        }
      }
      Thread.sleep(20);
    }
  }

  /** Blocks until every connection has {@code n} writes that began after the event, or {@code maxSeconds} passed. */
  void awaitWritesAfter(int n, int maxSeconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
    while (System.nanoTime() < deadline) {
      boolean all = true;
      for (int c = 0; c < connections(); c++) {
        all &= writes(AFTER, c) >= n;
      }
      if (all) {
        return;
      }
      Thread.sleep(50);
    }
  }

  private Void write(int thread) throws InterruptedException {
    int index = thread % connections();
    Connection c = writerConnections.get(index);
    ReentrantLock lock = locks.get(index);
    boolean prepareEachTime = thread % 2 == 0;
    boolean failedLast = false;
    while (!stop.get()) {
      if (failedLast) {
        // An application's pause before it retries: a write fails fast while no primary takes writes.
        Thread.sleep(FAILED_WRITE_PAUSE_MILLIS);
        failedLast = false;
      }
      writeHold.enter(stop::get);
      int id = ids.incrementAndGet();
      int began = phase.get();
      lock.lock();
      try {
        try {
          if (prepareEachTime) {
            try (PreparedStatement w = c.prepareStatement(
                "INSERT INTO " + table + " (id, v, port, conn) VALUES (?, ?, @@port, ?)")) {
              w.setInt(1, id);
              w.setInt(2, id * 3);
              w.setInt(3, index);
              w.executeUpdate();
            }
          } else {
            try (Statement s = c.createStatement()) {
              s.executeUpdate("INSERT INTO " + table + " (id, v, port, conn) VALUES (" + id + ", " + id * 3
                  + ", @@port, " + index + ")");
            }
          }
        } catch (SQLException e) {
          failed(index, e, "write");
          failedLast = true;
          continue;
        }
        acknowledged.add(id);
        acknowledgedList.add(id);
        writesByPhase.incrementAndGet(began * connections() + index);
        int readBegan = phase.get();
        try {
          boolean found = readBack(c, id, prepareEachTime);
          if (found) {
            readsByPhase.incrementAndGet(readBegan);
          } else {
            stale.incrementAndGet();
          }
        } catch (SQLException e) {
          failed(index, e, "read");
        }
      } finally {
        lock.unlock();
        writeHold.exit();
      }
      Thread.sleep(2);
    }
    return null;
  }

  private boolean readBack(Connection c, int id, boolean prepared) throws SQLException {
    if (prepared) {
      try (PreparedStatement r = c.prepareStatement("SELECT v FROM " + table + " WHERE id = ?")) {
        r.setInt(1, id);
        try (ResultSet rs = r.executeQuery()) {
          return rs.next() && rs.getInt(1) == id * 3;
        }
      }
    }
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM " + table + " WHERE id = " + id)) {
      return rs.next() && rs.getInt(1) == id * 3;
    }
  }

  private Void read(Connection c) throws InterruptedException {
    while (!stop.get()) {
      int n = acknowledgedList.size();
      if (n == 0) {
        Thread.sleep(10);
        continue;
      }
      // One of the latest rows: the replicas are least likely to have it.
      int id = acknowledgedList.get(Math.max(0, n - 1 - ThreadLocalRandom.current().nextInt(Math.min(n, 8))));
      int began = phase.get();
      try (PreparedStatement r = c.prepareStatement("SELECT v FROM " + table + " WHERE id = ?")) {
        r.setInt(1, id);
        try (ResultSet rs = r.executeQuery()) {
          if (rs.next() && rs.getInt(1) == id * 3) {
            readerReadsByPhase.incrementAndGet(began);
          } else {
            stale.incrementAndGet();
          }
        }
      } catch (SQLException e) {
        failedReaderStatements.incrementAndGet();
        count(e);
        if (readerFailures.size() < KEPT_MESSAGES) {
          readerFailures.add(describe(e, began, "reader"));
        }
      }
      Thread.sleep(5);
    }
    return null;
  }

  private void failed(int connection, SQLException e, String what) {
    failedStatements.incrementAndGet();
    failuresByConnection.incrementAndGet(connection);
    count(e);
    if (failures.size() < KEPT_MESSAGES) {
      failures.add("connection " + connection + " " + describe(e, phase.get(), what));
    }
  }

  private void count(SQLException e) {
    failuresByState.computeIfAbsent(String.valueOf(e.getSQLState()), k -> new AtomicLong()).incrementAndGet();
  }

  private static String describe(SQLException e, int phase, String what) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    m = nl < 0 ? m : m.substring(0, nl);
    return what + " in phase " + phase + ": " + e.getClass().getSimpleName() + " " + e.getSQLState() + " "
        + (m.length() > 200 ? m.substring(0, 200) : m);
  }

  /** Stops the threads (bounded: a thread stuck for 90 s fails the test) and closes the connections. */
  @Override
  public void close() throws java.util.concurrent.ExecutionException, java.util.concurrent.TimeoutException {
    stop.set(true);
    try {
      awaitStopped(futures, threads);
    } finally {
      closeConnections();
    }
  }

  /**
   * Waits for each of {@code futures} (told to stop), 90 s at the most each: a thread stuck longer fails the
   * test, as does one that failed; then shuts {@code threads} down.
   */
  static void awaitStopped(List<Future<?>> futures, ExecutorService threads)
      throws java.util.concurrent.ExecutionException, java.util.concurrent.TimeoutException {
    try {
      for (Future<?> f : futures) {
        f.get(90, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while stopping the workload", e);
    } finally {
      threads.shutdownNow();
    }
  }

  private void closeConnections() {
    for (Connection c : writerConnections) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // closing after the test
      }
    }
    for (Connection c : readerConnections) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // closing after the test
      }
    }
  }

  /** Acknowledged writes that {@code primary} does not have. */
  Set<Integer> lostOn(Connection primary) throws SQLException {
    return missingOn(primary, table, acknowledged);
  }

  /** The ids of {@code ids} that {@code table} on the server of {@code c} does not have (its column {@code id}). */
  static Set<Integer> missingOn(Connection c, String table, Set<Integer> ids) throws SQLException {
    Set<Integer> present = new HashSet<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM " + table)) {
      while (rs.next()) {
        present.add(rs.getInt(1));
      }
    }
    Set<Integer> missing = new HashSet<>(ids);
    missing.removeAll(present);
    return missing;
  }

  /** Per connection: writes before / during / after, failures. */
  String perConnection() {
    StringBuilder b = new StringBuilder();
    for (int c = 0; c < connections(); c++) {
      b.append(c == 0 ? "" : "; ").append('c').append(c).append(' ').append(writes(BEFORE, c)).append('/')
          .append(writes(DURING, c)).append('/').append(writes(AFTER, c)).append(" failed ").append(failures(c));
    }
    return b.toString();
  }

  /**
   * The assertions every event shares: no acknowledged write lost, no stale read, writes resumed on
   * every one of the same logical connections after the event, and at most one failed statement per
   * writer thread, none of them a "connection closed" for a connection the application did not close.
   */
  void assertSurvived(Connection primary, int writesAfter) throws SQLException {
    assertThat(lostOn(primary)).as("acknowledged writes missing on the primary").isEmpty();
    assertThat(stale.get()).as("stale reads").isZero();
    for (int c = 0; c < connections(); c++) {
      assertThat(writes(AFTER, c)).as("writes on held connection %d after the event (%s)", c, perConnection())
          .isGreaterThanOrEqualTo(writesAfter);
    }
    assertThat(failures).as("failed statements").noneMatch(f -> f.contains("No operations allowed after"));
    assertThat(failuresByState.keySet())
        .as("SQLStates of failed statements: a connection failure (08xxx), or a write that found no writable"
            + " server after the primary's death (HYT01, fails fast)")
        .allMatch(state -> state.startsWith("08") || "HYT01".equals(state));
    // Each writer thread has one statement running at most when the primary goes away: at most that one is lost.
    long lostUnder = 0;
    for (Map.Entry<String, AtomicLong> e : failuresByState.entrySet()) {
      if (e.getKey().startsWith("08")) {
        lostUnder += e.getValue().get();
      }
    }
    assertThat(lostUnder).as("statements lost under the event (%s)", failures).isLessThanOrEqualTo(writers);
  }
}
