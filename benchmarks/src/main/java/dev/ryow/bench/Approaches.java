package dev.ryow.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.bench.Workload.LongList;
import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * The ways an application can read its own write from a primary/replica cluster, as the workload
 * runs them. Each thread gets a {@link Worker}: {@code write} inserts its row on the primary,
 * {@code read} reads it back. Every approach prepares its statements per use, as an application
 * without a statement cache (or an ORM) does. The {@code jdbc:ryow:} approaches use the driver's
 * defaults: no {@code ryow.*} setting beyond the GTID capture mode that names {@code ryow-query}.
 */
final class Approaches {
  /** What {@link Worker#read} returns when the row is not there. */
  static final int MISSING = Integer.MIN_VALUE;

  /** How the URLs of the approaches that run the driver start. */
  static final String RYOW_PREFIX = "jdbc:ryow:";

  /** The hand-written approach's wait timeout, as ryow's default {@code ryow.waitTimeout=100}. */
  static final double HAND_WRITTEN_WAIT_SECONDS = 0.1;

  private Approaches() {}

  /** One thread's connections. */
  interface Worker {
    void write(long id, int v) throws SQLException;

    /**
     * Reads row {@code id} back with a read of {@code kind} ({@link PageRead#run}): its value, or {@link #MISSING};
     * {@code earlier} is how many rows the same user wrote before it.
     */
    int read(long id, long earlier, PageRead kind) throws SQLException;

    /** A key read of row {@code id}. */
    default int read(long id) throws SQLException {
      return read(id, 0, PageRead.KEY);
    }

    /**
     * As {@link #read(long, long, PageRead)}; an approach that runs the driver also adds the read's wait
     * ({@link #lastWaitNanos}) to {@code waits}, one sample per read.
     */
    default int read(long id, long earlier, PageRead kind, LongList waits) throws SQLException {
      return read(id, earlier, kind);
    }
  }

  /** The workers of one cell, one per thread; closing closes their connections (and a shared pool). */
  interface Workers extends AutoCloseable {
    Worker get(int thread);

    /** One line about the cell for the log, or empty. */
    default String note() {
      return "";
    }

    @Override
    void close() throws SQLException;
  }

  /** How to open the workers of one cell. */
  interface Approach {
    /** Short name, used in tables and table names. */
    String name();

    /** One line for the results. */
    String description();

    /** One line for the results of a run against servers without GTIDs (binary-log positions). */
    default String description(boolean noGtid) {
      return description();
    }

    Workers open(Topology topology, int threads, String table) throws SQLException;

    /**
     * The {@code jdbc:ryow:} URL the approach connects to {@code topology} with, whose cluster counters
     * ({@code RyowDriver.clusterMetrics}) are its own while its cell runs; empty when it does not run the driver.
     */
    default Optional<String> ryowUrl(Topology topology) {
      return Optional.empty();
    }

    /**
     * Whether the driver keeps the approach's reads on one replica at a time: every {@code jdbc:ryow:} approach,
     * as they run on the default monotonic reads, whose reads in one JVM stay on one replica, the home
     * (docs/consistency.md).
     */
    default boolean readsOneReplicaAtATime() {
      return ryowUrl(Topology.fromEnvironment()).isPresent();
    }
  }

  /** {@code url} if it is a {@code jdbc:ryow:} URL. */
  static Optional<String> ryowUrl(String url) {
    return url.startsWith(RYOW_PREFIX) ? Optional.of(url) : Optional.empty();
  }

  /**
   * How long the last read of {@code c} waited for the replica to have the session's writes
   * ({@link ReadReport#waitNanos}), 0 when it did not wait or the driver reports no read. {@code c} may be
   * HikariCP's proxy: its {@code unwrap} hands over the {@code jdbc:ryow:} connection it pools. Call it before
   * {@code c} goes back to the pool: another thread may read on it then.
   */
  static long lastWaitNanos(Connection c) throws SQLException {
    ReadReport last = c.unwrap(RyowConnection.class).lastRead();
    return last == null ? 0 : last.waitNanos();
  }

  static List<Approach> all() {
    return List.of(
        single("ryow", "`jdbc:ryow:` with the driver's defaults (`ryow.gtidCapture=own_gtid`: the GTID from the OK "
            + "packet, `ryow.waitTimeout=100`, the default consistency and fallback), one connection per thread",
            "`jdbc:ryow:` with the driver's defaults; without GTIDs: the primary's `SHOW BINARY LOG STATUS` (file, "
                + "position) after a write, before the next replica read, and `SOURCE_POS_WAIT(file, pos, 0.1)` sent "
                + "in one packet with the read (`ryow.waitTimeout=100`, the default consistency and fallback), one "
                + "connection per thread",
            Topology::ryowUrl),
        single("ryow-query", "`jdbc:ryow:` with `ryow.gtidCapture=query` (`SELECT @@global.gtid_executed` "
            + "before the next replica read), otherwise defaults", t -> t.ryowUrl("ryow.gtidCapture=query")),
        new Pooled("ryow-pooled", "`jdbc:ryow:` with the driver's defaults", Topology::ryowUrl),
        single("primary-only", "plain Connector/J, every statement on the primary", Approaches::primaryUrl),
        new Pooled("primary-only-pooled",
            "plain Connector/J with primary-only's URL and settings (every statement on the primary)", Approaches::primaryUrl),
        new CjReplication(),
        new HandWritten());
  }

  /**
   * Approaches run only when named ({@code --approaches}): questions about the driver's use, not part of the
   * standing comparison.
   */
  static List<Approach> onRequest() {
    return List.of(
        new Pooled("ryow-user-scoped-pooled", "`jdbc:ryow:` with the driver's defaults, each user (thread) in a "
            + "`ConsistencyScope` of its own opened with `ConsistencyMode.SCOPE` for the whole cell (what a request scope "
            + "carrying the user's token would give): its reads wait for that user's writes, not every write of the JVM",
            Topology::ryowUrl, true));
  }

  /** Plain Connector/J to the primary: primary-only's URL, also behind the pool. */
  static String primaryUrl(Topology t) {
    return t.mysqlUrl(t.primary());
  }

  /** One connection (or a pair) per thread, opened by {@code opener}. */
  interface ThreadOpener {
    ThreadWorker open(int thread) throws SQLException;
  }

  /** A worker that owns its connections. */
  interface ThreadWorker extends Worker, AutoCloseable {
    @Override
    void close() throws SQLException;
  }

  static Workers perThread(int threads, ThreadOpener opener) throws SQLException {
    List<ThreadWorker> workers = new ArrayList<>();
    Workers all = new Workers() {
      @Override
      public Worker get(int thread) {
        return workers.get(thread);
      }

      @Override
      public void close() throws SQLException {
        SQLException first = null;
        for (ThreadWorker w : workers) {
          try {
            w.close();
          } catch (SQLException e) {
            first = first == null ? e : first;
          }
        }
        if (first != null) {
          throw first;
        }
      }
    };
    try {
      for (int t = 0; t < threads; t++) {
        workers.add(opener.open(t));
      }
    } catch (SQLException | RuntimeException e) {
      try {
        all.close();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    return all;
  }

  interface UrlOf {
    String url(Topology t);
  }

  private static Approach single(String name, String description, UrlOf url) {
    return single(name, description, description, url);
  }

  private static Approach single(String name, String description, String noGtidDescription, UrlOf url) {
    return new Approach() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String description() {
        return description;
      }

      @Override
      public String description(boolean noGtid) {
        return noGtid ? noGtidDescription : description;
      }

      @Override
      public Optional<String> ryowUrl(Topology topology) {
        return Approaches.ryowUrl(url.url(topology));
      }

      @Override
      public Workers open(Topology topology, int threads, String table) throws SQLException {
        boolean ryow = ryowUrl(topology).isPresent();
        return perThread(threads, thread -> {
          Connection c = DriverManager.getConnection(url.url(topology));
          return new ThreadWorker() {
            @Override
            public void write(long id, int v) throws SQLException {
              insert(c, table, id, v);
            }

            @Override
            public int read(long id, long earlier, PageRead kind) throws SQLException {
              return kind.run(c, table, id, earlier);
            }

            @Override
            public int read(long id, long earlier, PageRead kind, LongList waits) throws SQLException {
              int v = kind.run(c, table, id, earlier);
              if (ryow) {
                waits.add(lastWaitNanos(c));
              }
              return v;
            }

            @Override
            public void close() throws SQLException {
              c.close();
            }
          };
        });
      }
    };
  }

  /**
   * A web application's flow: a HikariCP pool smaller than the number of threads in front of {@code url};
   * each iteration borrows one connection for the write and returns it, then borrows one for the read-back
   * (a POST and its redirect GET). With waiting threads, HikariCP hands a returned connection to a waiter
   * first, so the read-back often runs on another connection than its write. Both the write's and the read's
   * latency include the wait for a free pooled connection: compare a pooled approach with the other pooled
   * one ({@code ryow-pooled} with {@code primary-only-pooled}), not with one connection per thread.
   */
  static final class Pooled implements Approach {
    private final String name;
    private final String driver;
    private final UrlOf url;
    /** Each thread is one user whose operations run in its own {@code ConsistencyMode.SCOPE} scope. */
    private final boolean userScopes;

    /** {@code driver} says what the pool holds, e.g. "plain Connector/J"; {@code url} where it connects. */
    Pooled(String name, String driver, UrlOf url) {
      this(name, driver, url, false);
    }

    Pooled(String name, String driver, UrlOf url, boolean userScopes) {
      this.name = name;
      this.driver = driver;
      this.url = url;
      this.userScopes = userScopes;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String description() {
      return driver + " behind a HikariCP pool of half as many connections as threads; each iteration borrows a "
          + "connection for the write, returns it, and borrows one for the read-back (a POST and its redirect GET), "
          + "which is often another connection; the write and read latencies include the wait for a free pooled "
          + "connection";
    }

    static int poolSize(int threads) {
      return Math.max(1, threads / 2);
    }

    @Override
    public Optional<String> ryowUrl(Topology topology) {
      return Approaches.ryowUrl(url.url(topology));
    }

    @Override
    public Workers open(Topology topology, int threads, String table) throws SQLException {
      boolean ryow = ryowUrl(topology).isPresent();
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(url.url(topology));
      config.setMaximumPoolSize(poolSize(threads));
      config.setMinimumIdle(poolSize(threads));
      config.setPoolName("workload-" + table);
      HikariDataSource pool;
      try {
        pool = new HikariDataSource(config);
      } catch (RuntimeException e) {
        throw new SQLException("could not start the pool: " + e.getMessage(), e);
      }
      awaitFull(pool, poolSize(threads));
      LongAdder readBacks = new LongAdder();
      LongAdder onAnother = new LongAdder();
      Worker worker = new Worker() {
        // Which pooled connection wrote, per thread: compared with the one that reads back. HikariCP's
        // wrapper unwraps to the connection it pools (ryow's logical connection, or Connector/J's).
        private final ThreadLocal<Connection> writer = new ThreadLocal<>();
        // The user's scope, opened on its thread's first operation and bound to it until the thread ends with the
        // cell (a fresh thread per cell).
        private final ThreadLocal<ConsistencyScope> user = new ThreadLocal<>();

        private void inUserScope() {
          if (userScopes && user.get() == null) {
            user.set(ConsistencyScope.open(ConsistencyMode.SCOPE));
          }
        }

        @Override
        public void write(long id, int v) throws SQLException {
          inUserScope();
          try (Connection c = pool.getConnection()) {
            insert(c, table, id, v);
            writer.set(c.unwrap(Connection.class));
          }
        }

        @Override
        public int read(long id, long earlier, PageRead kind) throws SQLException {
          inUserScope();
          try (Connection c = pool.getConnection()) {
            return readBack(c, id, earlier, kind);
          }
        }

        @Override
        public int read(long id, long earlier, PageRead kind, LongList waits) throws SQLException {
          inUserScope();
          try (Connection c = pool.getConnection()) {
            int v = readBack(c, id, earlier, kind);
            if (ryow) {
              // On the connection that ran the read, before it goes back to the pool.
              waits.add(lastWaitNanos(c));
            }
            return v;
          }
        }

        private int readBack(Connection c, long id, long earlier, PageRead kind) throws SQLException {
          readBacks.increment();
          if (c.unwrap(Connection.class) != writer.get()) {
            onAnother.increment();
          }
          return kind.run(c, table, id, earlier);
        }
      };
      return new Workers() {
        @Override
        public Worker get(int thread) {
          return worker;
        }

        @Override
        public String note() {
          return String.format(Locale.ROOT, "%s: pool of %d for %d threads; %d of %d read-backs on another connection "
              + "than their write", name, poolSize(threads), threads, onAnother.sum(), readBacks.sum());
        }

        @Override
        public void close() {
          pool.close();
        }
      };
    }

    private static void awaitFull(HikariDataSource pool, int size) throws SQLException {
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (pool.getHikariPoolMXBean().getTotalConnections() < size) {
        if (System.nanoTime() > deadline) {
          pool.close();
          throw new SQLException("the pool did not open " + size + " connections within 30 s");
        }
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          pool.close();
          throw new SQLException("interrupted while the pool opened its connections", e);
        }
      }
    }
  }

  /** Connector/J's replication driver: {@code setReadOnly(false)} to write, {@code true} to read. */
  static final class CjReplication implements Approach {
    @Override
    public String name() {
      return "cj-replication";
    }

    @Override
    public String description() {
      return "Connector/J's replication driver (`jdbc:mysql:replication://primary,replica1,replica2/…`), "
          + "`setReadOnly(false)` before the write, `setReadOnly(true)` before the read";
    }

    @Override
    public Workers open(Topology topology, int threads, String table) throws SQLException {
      return perThread(threads, thread -> {
        Connection c = DriverManager.getConnection(topology.replicationUrl());
        return new ThreadWorker() {
          @Override
          public void write(long id, int v) throws SQLException {
            c.setReadOnly(false);
            insert(c, table, id, v);
          }

          @Override
          public int read(long id, long earlier, PageRead kind) throws SQLException {
            c.setReadOnly(true);
            return kind.run(c, table, id, earlier);
          }

          @Override
          public void close() throws SQLException {
            c.close();
          }
        };
      });
    }
  }

  /**
   * The articles' approach, by hand: after the write, the position on the same primary connection
   * ({@code SELECT @@global.gtid_executed} on MySQL, {@code SELECT @@last_gtid} on MariaDB); before the read,
   * the server's wait on a replica connection ({@code WAIT_FOR_EXECUTED_GTID_SET(set, 0.1)},
   * {@code MASTER_GTID_WAIT(gtid, 0.1)}); 0 reads there, anything else reads on the primary. Without GTIDs, the
   * position loop: {@code SHOW BINARY LOG STATUS} after the write, {@code SOURCE_POS_WAIT(file, pos, 0.1)} before
   * the read; 0 or more reads on the replica, -1 (timeout) or NULL (applier stopped) on the primary.
   */
  static final class HandWritten implements Approach {
    @Override
    public String name() {
      return "hand-written";
    }

    @Override
    public String description() {
      return "plain Connector/J, the articles' code: `SELECT @@global.gtid_executed` (MariaDB: `SELECT @@last_gtid`) "
          + "after the write, `WAIT_FOR_EXECUTED_GTID_SET(set, 0.1)` (MariaDB: `MASTER_GTID_WAIT(gtid, 0.1)`) on a "
          + "replica before the read, primary on timeout";
    }

    @Override
    public String description(boolean noGtid) {
      return noGtid ? "plain Connector/J, the articles' position loop: `SHOW BINARY LOG STATUS` on the primary after "
          + "the write (file, position), `SELECT SOURCE_POS_WAIT(file, pos, 0.1)` on a replica before the read, which "
          + "then runs there; on the primary when the wait returns -1 (timeout) or NULL (applier stopped)"
          : description();
    }

    @Override
    public Workers open(Topology topology, int threads, String table) throws SQLException {
      return perThread(threads, thread -> openThread(topology, thread, table));
    }

    private static ThreadWorker openThread(Topology topology, int thread, String table) throws SQLException {
      Flavor flavor = topology.flavor();
      Connection primary = DriverManager.getConnection(topology.mysqlUrl(topology.primary()));
      List<String> replicas = topology.replicas();
      Connection replica = DriverManager.getConnection(topology.mysqlUrl(replicas.get(thread % replicas.size())));
      return new ThreadWorker() {
        private String position = "";

        @Override
        public void write(long id, int v) throws SQLException {
          insert(primary, table, id, v);
          position = flavor.position(primary, flavor.ownPosition);
        }

        @Override
        public int read(long id, long earlier, PageRead kind) throws SQLException {
          boolean reached = flavor.waitOn(replica, position, HAND_WRITTEN_WAIT_SECONDS);
          return kind.run(reached ? replica : primary, table, id, earlier);
        }

        @Override
        public void close() throws SQLException {
          try (primary; replica) {
            // closes both
          }
        }
      };
    }
  }

  static void insert(Connection c, String table, long id, int v) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, v) VALUES (?, ?)")) {
      ps.setLong(1, id);
      ps.setInt(2, v);
      ps.executeUpdate();
    }
  }

  static int select(Connection c, String table, long id) throws SQLException {
    return PageRead.KEY.run(c, table, id, 0);
  }
}
