package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Spring JDBC: {@code JdbcTemplate} and {@code TransactionTemplate} (read-write and read-only) with a
 * {@code DataSourceTransactionManager} over a HikariCP pool of 4 {@code jdbc:ryow:} connections,
 * shared by 16 threads. Nothing in the Spring code knows about the driver; only the checks unwrap
 * {@link RyowConnection} to tell which logical connection did what.
 *
 * <p>The guarantee is per logical connection (the default consistency scope): a read is owed the
 * writes made through the same pooled connection. Reads that happen to get another pooled connection
 * than the write are counted apart ("cross-connection"); making those fresh is the job of the
 * application and JVM scopes (issue #4).
 */
class SpringJdbcIT {
  private static final String TABLE = "it_sp_counter";
  private static final String READS = "FROM `" + TABLE + "`";
  private static final int THREADS = 16;
  private static final int POOL = 4;
  private static final int ITERATIONS = 12;
  /** How long the pulsed runs go on past {@link #ITERATIONS} for the lag and the offload to show ({@link #run}). */
  private static final long MORE_AT_MOST_NANOS = TimeUnit.SECONDS.toNanos(60);

  private static HikariDataSource pool;
  private static JdbcTemplate jdbc;
  private static TransactionTemplate readWrite;
  private static TransactionTemplate readOnly;
  /** No transaction, autocommit statements, one pooled connection bound to the thread for the scope. */
  private static TransactionTemplate connectionScope;

  @BeforeAll
  static void bootstrap() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL, written_on INT NOT NULL");
    HikariConfig config = new HikariConfig();
    config.setPoolName("it-spring");
    config.setJdbcUrl(Topology.ryowUrl());
    config.setMaximumPoolSize(POOL);
    config.setMinimumIdle(POOL);
    pool = new HikariDataSource(config);
    DataSourceTransactionManager transactions = new DataSourceTransactionManager(pool);
    jdbc = new JdbcTemplate(pool);
    readWrite = new TransactionTemplate(transactions);
    readOnly = new TransactionTemplate(transactions);
    readOnly.setReadOnly(true);
    connectionScope = new TransactionTemplate(transactions);
    connectionScope.setPropagationBehavior(TransactionDefinition.PROPAGATION_SUPPORTS);
  }

  @AfterAll
  static void shutdown() throws SQLException {
    if (pool != null) {
      pool.close();
    }
    Topology.resumeAppliers();
  }

  @BeforeEach
  @AfterEach
  void appliersRunning() throws SQLException {
    Topology.resumeAppliers();
  }

  // ------------------------------------------------------------------------------------ helpers

  /** {v, @@port} of one row, or null when the row is not there. */
  private static int[] read(int id) {
    List<int[]> rows = jdbc.query("SELECT v, @@port FROM " + TABLE + " WHERE id = ?",
        (rs, n) -> new int[] {rs.getInt(1), rs.getInt(2)}, id);
    return rows.isEmpty() ? null : rows.get(0);
  }

  private static int port() {
    Integer port = jdbc.queryForObject("SELECT @@port", Integer.class);
    return port == null ? -1 : port;
  }

  /** The logical connection bound to the current transaction or connection scope. */
  private static RyowConnection boundConnection() {
    Connection c = DataSourceUtils.getConnection(pool);
    try {
      return c.unwrap(RyowConnection.class);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    } finally {
      DataSourceUtils.releaseConnection(c, pool);
    }
  }

  private static boolean plainReplicaSees(Connection plainReplica, int id, int expected) throws SQLException {
    // Schema-qualified, so that its digest is not counted with the reads through Spring.
    try (PreparedStatement ps = plainReplica.prepareStatement(
        "SELECT v FROM " + Topology.DATABASE + "." + TABLE + " WHERE id = ?")) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getInt(1) == expected;
      }
    }
  }

  /** What the threads saw; every field is a count. */
  private static final class Tally {
    final AtomicInteger iterations = new AtomicInteger();
    final AtomicInteger insideReads = new AtomicInteger();
    final AtomicInteger insideStale = new AtomicInteger();
    final AtomicInteger insideOffPrimary = new AtomicInteger();
    final AtomicInteger scopedReads = new AtomicInteger();
    final AtomicInteger scopedStale = new AtomicInteger();
    final AtomicInteger scopedOnReplica = new AtomicInteger();
    final AtomicInteger readOnlyTx = new AtomicInteger();
    final AtomicInteger readOnlyOnReplica = new AtomicInteger();
    /** The ports, in statement order, of read-only transactions that ran on more than one server. */
    final List<List<Integer>> readOnlyMixed = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger readOnlySameConnection = new AtomicInteger();
    final AtomicInteger readOnlySameConnectionStale = new AtomicInteger();
    final AtomicInteger readOnlyCrossConnectionStale = new AtomicInteger();
    final AtomicInteger hopReads = new AtomicInteger();
    final AtomicInteger hopSameConnection = new AtomicInteger();
    final AtomicInteger hopSameConnectionStale = new AtomicInteger();
    final AtomicInteger hopCrossConnectionStale = new AtomicInteger();
    final AtomicInteger hopOnReplica = new AtomicInteger();
    final AtomicInteger plainReads = new AtomicInteger();
    final AtomicInteger plainStale = new AtomicInteger();

    /** A plain replica connection missed a write, and a read outside read-write transactions ran on a replica. */
    boolean sawLagAndOffload() {
      return plainStale.get() > 0 && scopedOnReplica.get() + readOnlyOnReplica.get() + hopOnReplica.get() > 0;
    }

    @Override
    public String toString() {
      return String.format(
          "%d iterations; in read-write transactions: %d reads, %d stale, %d off the primary;"
              + " autocommit in a connection scope: %d reads, %d stale, %d on replicas;"
              + " read-only transactions: %d, %d on a replica, spanning two servers: %s, %d on the writing connection"
              + " (%d stale), cross-connection stale %d;"
              + " pool-hopping autocommit: %d reads, %d on replicas, %d on the writing connection (%d stale),"
              + " cross-connection stale %d; plain replica: %d reads, %d stale",
          iterations.get(), insideReads.get(), insideStale.get(), insideOffPrimary.get(),
          scopedReads.get(), scopedStale.get(), scopedOnReplica.get(),
          readOnlyTx.get(), readOnlyOnReplica.get(), readOnlyMixed, readOnlySameConnection.get(),
          readOnlySameConnectionStale.get(), readOnlyCrossConnectionStale.get(),
          hopReads.get(), hopOnReplica.get(), hopSameConnection.get(), hopSameConnectionStale.get(),
          hopCrossConnectionStale.get(), plainReads.get(), plainStale.get());
    }
  }

  /** One thread's work on its own rows: the four Spring ways of reading after a write. */
  private static void iteration(int thread, int i, Connection plainReplica, Tally t) throws SQLException {
    int id = thread * 100_000 + i;

    // 1. A read-write transaction writes, then reads inside the same transaction.
    readWrite.executeWithoutResult(status -> {
      jdbc.update("INSERT INTO " + TABLE + " (id, v, written_on) VALUES (?, ?, @@port)", id, i);
      int[] row = read(id);
      t.insideReads.incrementAndGet();
      if (row == null || row[0] != i) {
        t.insideStale.incrementAndGet();
      }
      if (row != null && row[1] != PRIMARY_PORT) {
        t.insideOffPrimary.incrementAndGet();
      }
    });

    // 2. Outside transactions, in a connection scope (PROPAGATION_SUPPORTS): autocommit statements
    //    on one pooled connection, the write then the read.
    RyowConnection writer = connectionScope.execute(status -> {
      jdbc.update("UPDATE " + TABLE + " SET v = v + 1000 WHERE id = ?", id);
      try {
        t.plainReads.incrementAndGet();
        if (!plainReplicaSees(plainReplica, id, i + 1000)) {
          t.plainStale.incrementAndGet();
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
      int[] row = read(id);
      t.scopedReads.incrementAndGet();
      if (row == null || row[0] != i + 1000) {
        t.scopedStale.incrementAndGet();
      } else if (REPLICA_PORTS.contains(row[1])) {
        t.scopedOnReplica.incrementAndGet();
      }
      return boundConnection();
    });

    // 3. A read-only transaction (DataSourceTransactionManager calls setReadOnly(true) before
    //    setAutoCommit(false)): one server for the whole transaction.
    readOnly.executeWithoutResult(status -> {
      RyowConnection reader = boundConnection();
      List<Integer> ports = new ArrayList<>();
      ports.add(port());
      int[] row = read(id);
      if (row != null) {
        ports.add(row[1]);
      }
      ports.add(port());
      t.readOnlyTx.incrementAndGet();
      if (new HashSet<>(ports).size() > 1) {
        t.readOnlyMixed.add(ports);
      } else if (REPLICA_PORTS.contains(ports.get(0))) {
        t.readOnlyOnReplica.incrementAndGet();
      }
      boolean stale = row == null || row[0] != i + 1000;
      if (reader == writer) {
        t.readOnlySameConnection.incrementAndGet();
        if (stale) {
          t.readOnlySameConnectionStale.incrementAndGet();
        }
      } else if (stale) {
        t.readOnlyCrossConnectionStale.incrementAndGet();
      }
    });

    // 4. Plain JdbcTemplate calls, no transaction, no scope: each call borrows whichever pooled
    //    connection is free (ConnectionCallback only to see which one it was).
    RyowConnection hopWriter = jdbc.execute((ConnectionCallback<RyowConnection>) c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE " + TABLE + " SET v = v + 1 WHERE id = ?")) {
        ps.setInt(1, id);
        ps.executeUpdate();
      }
      return c.unwrap(RyowConnection.class);
    });
    jdbc.execute((ConnectionCallback<Void>) c -> {
      int[] row = null;
      try (PreparedStatement ps = c.prepareStatement("SELECT v, @@port FROM " + TABLE + " WHERE id = ?")) {
        ps.setInt(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            row = new int[] {rs.getInt(1), rs.getInt(2)};
          }
        }
      }
      t.hopReads.incrementAndGet();
      boolean stale = row == null || row[0] != i + 1001;
      if (!stale && REPLICA_PORTS.contains(row[1])) {
        t.hopOnReplica.incrementAndGet();
      }
      if (c.unwrap(RyowConnection.class) == hopWriter) {
        t.hopSameConnection.incrementAndGet();
        if (stale) {
          t.hopSameConnectionStale.incrementAndGet();
        }
      } else if (stale) {
        t.hopCrossConnectionStale.incrementAndGet();
      }
      return null;
    });
    t.iterations.incrementAndGet();
  }

  /**
   * Runs at least {@code iterationsPerThread} iterations on each of {@link #THREADS} threads; with {@code scoped},
   * each iteration is one unit of work in its own {@link ConsistencyScope} (as a web request would be). The threads
   * then go on, for {@link #MORE_AT_MOST_NANOS} at most, until the tally saw the lag on a plain replica connection
   * and a read outside read-write transactions on a replica: how many iterations show both depends on how fast
   * the machine applies (CI's other lanes load it). A driver that never leaves the primary still fails.
   */
  private static Tally run(int iterationsPerThread, boolean scoped) throws Exception {
    Tally tally = new Tally();
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(threads.submit(() -> {
          try (Connection plainReplica = Topology.plain(REPLICA_PORTS.get(thread % REPLICA_PORTS.size()))) {
            start.await();
            long deadline = System.nanoTime() + MORE_AT_MOST_NANOS;
            for (int i = 0; i < iterationsPerThread || (!tally.sawLagAndOffload() && System.nanoTime() - deadline < 0);
                i++) {
              if (scoped) {
                ConsistencyScope scope = ConsistencyScope.open();
                try {
                  iteration(thread, i, plainReplica, tally);
                } finally {
                  scope.close();
                }
              } else {
                iteration(thread, i, plainReplica, tally);
              }
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
    return tally;
  }

  private static void deleteRows() {
    jdbc.update("DELETE FROM " + TABLE);
  }

  // -------------------------------------------------------------------------------------- tests

  @Test
  void sixteenThreadsOnFourPooledConnectionsUnderPulsedLagNeverReadTheirOwnWritesStale() throws Exception {
    deleteRows();
    ServerCounts reads = ServerCounts.of(READS);
    LagPulse pulse = LagPulse.start(150, 500);
    Tally t;
    try {
      t = run(ITERATIONS, false);
    } finally {
      pulse.close();
    }
    ServerCounts served = reads.delta();
    System.out.printf("spring, %d threads on %d pooled connections, pulsed lag (150 ms of every 500 ms): %s; servers: %s%n",
        THREADS, POOL, t, served);
    assertThat(t.iterations.get()).isGreaterThanOrEqualTo(THREADS * ITERATIONS);
    assertThat(t.insideStale.get()).as("stale reads inside read-write transactions").isZero();
    assertThat(t.insideOffPrimary.get()).as("read-write transaction reads that left the primary").isZero();
    assertThat(t.scopedStale.get()).as("stale autocommit reads after a write on the same connection").isZero();
    assertThat(t.readOnlySameConnectionStale.get()).as("stale read-only transactions on the writing connection").isZero();
    assertThat(t.readOnlyMixed).as("read-only transactions that switched servers midway (ports in statement order)").isEmpty();
    assertThat(t.hopSameConnectionStale.get()).as("stale pool-hopping reads that got the writing connection").isZero();
    assertThat(t.plainStale.get()).as("the pulsed lag must be visible to a plain replica connection").isPositive();
    assertThat(t.scopedOnReplica.get() + t.readOnlyOnReplica.get() + t.hopOnReplica.get())
        .as("reads outside read-write transactions left the primary").isPositive();
    Topology.assertCounted(served.total(),
        (long) t.insideReads.get() + t.scopedReads.get() + t.readOnlyTx.get() + t.hopReads.get(),
        "every read through Spring, on the server that ran it");
  }

  @Test
  void withAConsistencyScopePerUnitOfWorkNoReadIsStaleOnAnyPooledConnection() throws Exception {
    deleteRows();
    LagPulse pulse = LagPulse.start(150, 500);
    Tally t;
    try {
      t = run(ITERATIONS, true);
    } finally {
      pulse.close();
    }
    System.out.printf("spring, %d threads on %d pooled connections, a ConsistencyScope per iteration, pulsed lag: %s%n",
        THREADS, POOL, t);
    assertThat(t.iterations.get()).isGreaterThanOrEqualTo(THREADS * ITERATIONS);
    assertThat(t.insideStale.get() + t.scopedStale.get()).isZero();
    assertThat(t.readOnlySameConnectionStale.get() + t.readOnlyCrossConnectionStale.get())
        .as("stale read-only transactions, whichever pooled connection ran them").isZero();
    assertThat(t.hopSameConnectionStale.get() + t.hopCrossConnectionStale.get())
        .as("stale pool-hopping reads, whichever pooled connection ran them").isZero();
    assertThat(t.readOnlyMixed).isEmpty();
    assertThat(t.plainStale.get()).as("the pulsed lag must be visible to a plain replica connection").isPositive();
    assertThat(t.readOnlySameConnection.get() + t.hopSameConnection.get())
        .as("some reads did get another pooled connection than the write, or this proves nothing about scopes")
        .isLessThan(2 * t.iterations.get());
  }

  @Test
  void readOnlyTransactionsRunOnAReplica() throws Exception {
    // Every pooled connection wrote before (the watermarks are not empty), then the replicas caught up.
    deleteRows();
    Topology.awaitReplicasCaughtUp();
    AtomicInteger onReplica = new AtomicInteger();
    AtomicInteger transactions = new AtomicInteger();
    List<Integer> offReplica = Collections.synchronizedList(new ArrayList<>());
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        futures.add(threads.submit(() -> {
          for (int i = 0; i < 10; i++) {
            readOnly.executeWithoutResult(status -> {
              int first = port();
              Integer count = jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE, Integer.class);
              assertThat(count).isZero();
              int last = port();
              transactions.incrementAndGet();
              if (first == last && REPLICA_PORTS.contains(first)) {
                onReplica.incrementAndGet();
              } else {
                offReplica.add(first);
                offReplica.add(last);
              }
            });
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
    System.out.printf("spring read-only transactions, no lag: %d of %d on one replica (others: %s)%n",
        onReplica.get(), transactions.get(), offReplica);
    assertThat(transactions.get()).isEqualTo(THREADS * 10);
    assertThat(onReplica.get()).as("read-only transactions answered entirely by one replica").isEqualTo(transactions.get());
    // A read-write transaction on the same pool still runs on the primary.
    Integer readWritePort = readWrite.execute(status -> port());
    assertThat(readWritePort).isEqualTo(PRIMARY_PORT);
  }
}
