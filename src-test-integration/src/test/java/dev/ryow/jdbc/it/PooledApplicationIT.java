package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.it.pooled.Item;
import dev.ryow.jdbc.it.pooled.ItemService;
import dev.ryow.jdbc.it.pooled.PooledApplication;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * What a user gets by swapping the URL in a pooled application and changing nothing else: the
 * default URL (no {@code ryow.*} setting), a HikariCP pool smaller than the number of request
 * threads, and two flows a web application runs all day. As in a web server, each request of a user
 * runs on whichever request thread is free, so it borrows whichever pooled connection that thread gets.
 *
 * <ul>
 *   <li>POST then redirect-GET in plain JDBC: the insert borrows one pooled connection, the read-back
 *       borrows another (often a different one), as two requests would.
 *   <li>A form edit through Spring {@code @Transactional} services over JPA: load the record in a
 *       read-only transaction (as Spring Data's {@code findById}), change it, save it in another
 *       transaction ({@code merge}). A stale load here does not just show old data: saving it back
 *       overwrites the previous edit, so the edit counter on the primary comes out short.
 * </ul>
 *
 * Under no lag, appliers stopped in pulses, and appliers blocked while running: 0 stale reads, 0
 * errors, 0 lost updates. Every read returns the {@code @@port} of the server that ran it, and the
 * servers' own statement counts confirm the replicas served reads.
 */
class PooledApplicationIT {
  private static final String TABLE = "it_pool_item";
  private static final int THREADS = 8;
  private static final int POOL = 4;
  private static final int ITERATIONS = 12;
  private static final int EDITS = 3;

  private AnnotationConfigApplicationContext app;
  /** The web server's request threads: each request of a user runs on whichever is free. */
  private ExecutorService requests;
  private DataSource pool;
  private ItemService items;

  @BeforeEach
  void start() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id BIGINT AUTO_INCREMENT PRIMARY KEY, title VARCHAR(64) NOT NULL, edits INT NOT NULL");
    app = PooledApplication.start(Topology.ryowUrl(), POOL);
    pool = app.getBean(DataSource.class);
    items = app.getBean(ItemService.class);
  }

  @AfterEach
  void stop() throws SQLException {
    if (app != null) {
      app.close();
    }
    Topology.resumeAppliers();
  }

  /** What one run counted, from the rows and the servers. */
  private static final class Tally {
    final AtomicInteger reads = new AtomicInteger();
    final AtomicInteger readsOnReplicas = new AtomicInteger();
    final AtomicInteger stale = new AtomicInteger();
    final AtomicInteger crossConnection = new AtomicInteger();
    final AtomicInteger errors = new AtomicInteger();
    final Map<String, Integer> errorTexts = new ConcurrentHashMap<>();
    int lostUpdates;

    void read(int port) {
      reads.incrementAndGet();
      if (REPLICA_PORTS.contains(port)) {
        readsOnReplicas.incrementAndGet();
      } else if (port != PRIMARY_PORT) {
        throw new AssertionError("a read answered by an unknown server, port " + port);
      }
    }

    double replicaShare() {
      return reads.get() == 0 ? 0 : (double) readsOnReplicas.get() / reads.get();
    }

    @Override
    public String toString() {
      return String.format("%d reads, %.1f%% on replicas (by @@port), %d stale, %d errors %s, %d lost updates,"
              + " %d read-backs on another pooled connection than the write",
          reads.get(), 100 * replicaShare(), stale.get(), errors.get(), errorTexts.keySet(), lostUpdates,
          crossConnection.get());
    }
  }

  private Tally run() throws Exception {
    Tally tally = new Tally();
    List<Long> ids = new ArrayList<>();
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    requests = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<List<Long>>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(threads.submit(() -> {
          List<Long> mine = new ArrayList<>();
          for (int i = 0; i < ITERATIONS; i++) {
            try {
              mine.add(oneUserFlow(tally, "t" + thread + "-" + i));
            } catch (Exception e) {
              tally.errors.incrementAndGet();
              tally.errorTexts.merge(e.getClass().getSimpleName() + ": " + e.getMessage(), 1, Integer::sum);
            }
          }
          return mine;
        }));
      }
      for (Future<List<Long>> f : futures) {
        ids.addAll(f.get(5, TimeUnit.MINUTES));
      }
    } finally {
      threads.shutdownNow();
      requests.shutdownNow();
    }
    // The truth, asked of the primary: every edit of every record is there.
    try (Connection primary = Topology.plain(PRIMARY_PORT);
        PreparedStatement edits = primary.prepareStatement("SELECT edits FROM " + TABLE + " WHERE id = ?")) {
      for (long id : ids) {
        edits.setLong(1, id);
        try (ResultSet rs = edits.executeQuery()) {
          assertThat(rs.next()).as("record %d on the primary", id).isTrue();
          tally.lostUpdates += EDITS - rs.getInt(1);
        }
      }
    }
    return tally;
  }

  /** One request, on whichever request thread is free; the user waits for its answer. */
  private <T> T request(java.util.concurrent.Callable<T> handler) throws Exception {
    try {
      return requests.submit(handler).get(2, TimeUnit.MINUTES);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /** One user: creates a record, follows the redirect, then edits the record three times through JPA. */
  private long oneUserFlow(Tally tally, String title) throws Exception {
    Object[] writer = new Object[1];
    long id = request(() -> {
      try (Connection c = pool.getConnection();
          PreparedStatement insert = c.prepareStatement(
              "INSERT INTO " + TABLE + " (title, edits) VALUES (?, 0)", Statement.RETURN_GENERATED_KEYS)) {
        writer[0] = c.unwrap(dev.ryow.jdbc.RyowConnection.class);
        insert.setString(1, title);
        insert.executeUpdate();
        try (ResultSet keys = insert.getGeneratedKeys()) {
          keys.next();
          return keys.getLong(1);
        }
      }
    });
    request(() -> {
      try (Connection c = pool.getConnection();
          PreparedStatement read = c.prepareStatement("SELECT title, @@port FROM " + TABLE + " WHERE id = ?")) {
        if (c.unwrap(dev.ryow.jdbc.RyowConnection.class) != writer[0]) {
          tally.crossConnection.incrementAndGet();
        }
        read.setLong(1, id);
        try (ResultSet rs = read.executeQuery()) {
          if (!rs.next()) {
            tally.stale.incrementAndGet();
            tally.reads.incrementAndGet();
          } else {
            tally.read(rs.getInt(2));
            if (!title.equals(rs.getString(1))) {
              tally.stale.incrementAndGet();
            }
          }
        }
      }
      return null;
    });
    for (int edit = 0; edit < EDITS; edit++) {
      Item form = request(() -> items.find(id));
      if (form == null) {
        tally.stale.incrementAndGet();
        tally.reads.incrementAndGet();
        continue;
      }
      tally.read(form.getServedBy());
      if (form.getEdits() != edit) {
        tally.stale.incrementAndGet();
      }
      form.setEdits(form.getEdits() + 1);
      form.setTitle(title + "-e" + edit);
      request(() -> items.save(form));
    }
    return id;
  }

  private static void assertKeptThePromise(Tally tally) {
    assertThat(tally.reads.get()).isEqualTo(THREADS * ITERATIONS * (1 + EDITS));
    assertThat(tally.errors.get()).as("errors: %s", tally.errorTexts).isZero();
    assertThat(tally.stale.get()).as("stale reads").isZero();
    assertThat(tally.lostUpdates).as("edits lost on the primary").isZero();
    assertThat(tally.crossConnection.get()).as("read-backs on another pooled connection (or this test proves little)")
        .isPositive();
  }

  @Test
  void noLagReplicasServeMostReadsAndNothingIsStaleOrLost() throws Exception {
    ServerCounts selects = ServerCounts.of("SELECT `title` , @@PORT FROM `" + TABLE + "`");
    Tally tally = run();
    ServerCounts counted = selects.delta();
    System.out.printf("pooled application, no lag: %s; servers counted the JDBC read-backs: %s%n", tally, counted);
    assertKeptThePromise(tally);
    assertThat(tally.replicaShare()).as("share of reads the replicas served").isGreaterThan(0.5);
    assertThat(counted.replicas()).as("read-backs the replicas themselves counted").isPositive();
  }

  @Test
  @SuppressWarnings("try") // the pulse works in the background while the block runs
  void appliersStoppedInPulsesNothingIsStaleOrLost() throws Exception {
    Tally tally;
    try (LagPulse pulse = LagPulse.start(200, 1000)) {
      tally = run();
    }
    System.out.printf("pooled application, appliers stopped 200 ms of every 1000 ms: %s%n", tally);
    assertKeptThePromise(tally);
  }

  @Test
  @SuppressWarnings("try") // the block works in the background while the block runs
  void appliersBlockedWhileRunningNothingIsStaleOrLost() throws Exception {
    Tally tally;
    try (LagBlock block = LagBlock.start(200, 1000)) {
      tally = run();
    }
    System.out.printf("pooled application, appliers blocked (running) 200 ms of every 1000 ms: %s%n", tally);
    assertKeptThePromise(tally);
  }
}
