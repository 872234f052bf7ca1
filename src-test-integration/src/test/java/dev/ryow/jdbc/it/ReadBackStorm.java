package dev.ryow.jdbc.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * A storm of reads right after their own writes, for the fleet-protection tests of either server flavour:
 * {@code threads} threads, each with its own {@code jdbc:ryow:} connection, write a row of {@code table}
 * ({@code id INT PRIMARY KEY, v INT NOT NULL}) and read it back ({@code SELECT v, @@port}) until
 * {@code seconds} passed. A read that returns the row is correct (and counted by the {@code @@port} of the
 * server that ran it); one that does not is stale; a {@link SQLTransientException} whose message the
 * caller's {@code documented} accepts (the fallback budget's refusal, naming its settings) is refused;
 * anything else fails.
 */
final class ReadBackStorm {
  /** Opens one logical connection of the cluster under test. */
  @FunctionalInterface
  interface Opener {
    Connection open() throws SQLException;
  }

  /** What a storm saw. */
  record Outcome(long reads, long correct, long stale, long rejected, long maxBlockMillis, double seconds,
      Map<Integer, Long> correctByPort) {
    long correctOn(int port) {
      return correctByPort.getOrDefault(port, 0L);
    }
  }

  private ReadBackStorm() {}

  static Outcome run(Opener opener, String table, int threads, double seconds, int pauseMillis,
      Predicate<String> documented) throws Exception {
    AtomicLong reads = new AtomicLong();
    AtomicLong correct = new AtomicLong();
    AtomicLong stale = new AtomicLong();
    AtomicLong rejected = new AtomicLong();
    AtomicLong maxBlock = new AtomicLong();
    Map<Integer, LongAdder> byPort = new ConcurrentHashMap<>();
    AtomicInteger ids = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    long[] end = new long[1];
    long started;
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          try (Connection c = opener.open();
              PreparedStatement write = c.prepareStatement("INSERT INTO " + table + " (id, v) VALUES (?, ?)");
              PreparedStatement read = c.prepareStatement("SELECT v, @@port FROM " + table + " WHERE id = ?")) {
            // Warm-up: opens the connection's replica connection (no watermark yet, so no wait).
            try (Statement warm = c.createStatement()) {
              warm.executeQuery("SELECT @@port").close();
            }
            ready.countDown();
            go.await();
            while (System.nanoTime() < end[0]) {
              int id = ids.incrementAndGet();
              write.setInt(1, id);
              write.setInt(2, id * 7);
              write.executeUpdate();
              read.setInt(1, id);
              long r0 = System.nanoTime();
              try (ResultSet rs = read.executeQuery()) {
                reads.incrementAndGet();
                if (rs.next() && rs.getInt(1) == id * 7) {
                  correct.incrementAndGet();
                  byPort.computeIfAbsent(rs.getInt(2), p -> new LongAdder()).increment();
                } else {
                  stale.incrementAndGet();
                }
              } catch (SQLTransientException e) {
                reads.incrementAndGet();
                assertThat(e.getMessage()).as("the refusal's message").matches(documented);
                rejected.incrementAndGet();
              }
              maxBlock.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - r0), Math::max);
              if (pauseMillis > 0) {
                Thread.sleep(pauseMillis);
              }
            }
          }
          return null;
        }));
      }
      assertThat(ready.await(60, TimeUnit.SECONDS)).as("storm connections opened").isTrue();
      started = System.nanoTime();
      end[0] = started + (long) (seconds * 1e9);
      go.countDown();
      for (Future<?> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    // From the start signal until the last read returned: the period the budget applies to.
    double elapsed = (System.nanoTime() - started) / 1e9;
    Map<Integer, Long> correctByPort = new java.util.TreeMap<>();
    byPort.forEach((port, n) -> correctByPort.put(port, n.sum()));
    return new Outcome(reads.get(), correct.get(), stale.get(), rejected.get(), maxBlock.get(), elapsed,
        correctByPort);
  }
}
