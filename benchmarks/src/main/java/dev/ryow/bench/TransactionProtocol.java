package dev.ryow.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.bench.jpa.Item;
import dev.ryow.bench.jpa.ItemService;
import dev.ryow.bench.jpa.JpaApplication;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What transactions cost each server, counted by the servers ({@code performance_schema}): plain
 * Connector/J on the primary ({@code primary-only}) against {@code jdbc:ryow:} with its defaults
 * ({@code ryow}), both behind HikariCP.
 *
 * <ul>
 *   <li>Spring's {@code DataSourceTransactionManager} call sequence ({@code setReadOnly},
 *       {@code setAutoCommit(false)}, the statement, {@code commit}, {@code setAutoCommit(true)},
 *       {@code setReadOnly(false)}) around one point select in a read-only transaction, and around one
 *       update in a read-write transaction: statements per transaction on the primary and on the replicas.
 *   <li>A Spring + JPA (Hibernate) application, pooled, 4 request threads: one user flow creates a
 *       record and edits it three times (a read-only {@code find}, then a read-write {@code merge});
 *       the same flow without the finds is the flow's writes alone. Statements per flow on each side.
 * </ul>
 *
 * <p>Counting: per server, the {@code statement/sql/%} statements of the benchmark's user
 * ({@code events_statements_summary_by_user_by_event_name}) minus those of ryow's background poll and
 * connection probe (their digests, which only ryow sends), before and after; {@code statement/com/%}
 * commands (pings, quits) apart. Connections are opened and primed before the first count.
 *
 * <p>Usage: {@code TransactionProtocol [--transactions 200] [--flows 60] [--out benchmarks/results]}. Writes
 * {@code protocol.md} and {@code protocol-targets.tsv}.
 */
public final class TransactionProtocol {
  private static final String TABLE = "txp_point";
  private static final String ITEMS = "txp_item";
  /**
   * ryow's background statements, by digest: the health poll ({@code SELECT @@server_uuid, ...}, with or
   * without its performance_schema columns), Group Replication's member list, and the connection probe.
   * Statements a read or a write sends (waits, positions) are not among them, and are counted.
   */
  private static final String[] DRIVER_DIGESTS = {
    "SELECT @@`server_uuid` ,%",
    "SELECT `MEMBER_ID` , `MEMBER_HOST` , `MEMBER_PORT` , `MEMBER_STATE` , `MEMBER_ROLE` "
        + "FROM `performance_schema` . `replication_group_members`%",
    "SELECT @@GLOBAL . `gtid_mode` , @@SESSION . `session_track_gtids`%"
  };
  private static final int THREADS = 4;
  private static final int POOL = 2;

  private final Topology topology;

  private TransactionProtocol(Topology topology) {
    this.topology = topology;
  }

  /** Runs everything; see the class comment for the arguments. */
  public static void main(String[] args) throws Exception {
    for (String logger : List.of("com.zaxxer.hikari", "org.hibernate", "org.springframework")) {
      if (System.getProperty("org.slf4j.simpleLogger.log." + logger) == null) {
        System.setProperty("org.slf4j.simpleLogger.log." + logger, "warn");
      }
    }
    int transactions = 200;
    int flows = 60;
    Path out = Path.of("benchmarks/results");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--transactions" -> transactions = Integer.parseInt(args[++i]);
        case "--flows" -> flows = Integer.parseInt(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; see the class comment");
      }
    }
    Files.createDirectories(out);
    new TransactionProtocol(Topology.fromEnvironment()).run(transactions, flows, out);
  }

  /** Statements per unit (transaction or flow) on the primary and on all replicas. */
  record PerUnit(String scenario, String driver, double primary, double replicas, double commands) {}

  private void run(int transactions, int flows, Path out) throws Exception {
    String loadAtStart = Machine.loadAverage();
    Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Topology.exec(topology.mysqlUrl(topology.primary()),
        "CREATE USER IF NOT EXISTS '" + Workload.ADMIN_USER + "'@'%' IDENTIFIED BY '" + Workload.ADMIN_USER + "'",
        "GRANT ALL PRIVILEGES ON *.* TO '" + Workload.ADMIN_USER + "'@'%'");
    Topology.exec(admin(topology.primary()),
        "DROP TABLE IF EXISTS " + TABLE,
        "CREATE TABLE " + TABLE + " (id INT PRIMARY KEY, v INT NOT NULL)",
        "INSERT INTO " + TABLE + " (id, v) VALUES (1, 0)",
        "DROP TABLE IF EXISTS " + ITEMS,
        "CREATE TABLE " + ITEMS + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, title VARCHAR(64) NOT NULL, edits INT NOT NULL)");
    topology.awaitReplicasCaughtUp(60);
    List<PerUnit> rows = new ArrayList<>();
    String primaryOnly = topology.mysqlUrl(topology.primary());
    String ryow = topology.ryowUrl();
    for (boolean readOnly : new boolean[] {true, false}) {
      rows.add(spring(readOnly, "primary-only", primaryOnly, transactions));
      rows.add(spring(readOnly, "ryow", ryow, transactions));
    }
    for (boolean finds : new boolean[] {true, false}) {
      rows.add(jpa(finds, "primary-only", primaryOnly, flows));
      rows.add(jpa(finds, "ryow", ryow, flows));
    }
    report(rows, transactions, flows, started, loadAtStart, out);
  }

  private String admin(String server) {
    return topology.mysqlUrl(server, Workload.ADMIN_USER, Workload.ADMIN_USER);
  }

  /** Per server: the user's SQL statements (less ryow's poll and probe) and its other commands. */
  private long[][] counts() throws SQLException {
    List<String> servers = topology.servers();
    long[][] c = new long[2][servers.size()];
    StringBuilder driverDigests = new StringBuilder();
    for (int i = 0; i < DRIVER_DIGESTS.length; i++) {
      driverDigests.append(i == 0 ? "" : " OR ").append("DIGEST_TEXT LIKE ?");
    }
    // One query per server, so that a poll of ryow's monitor cannot fall between the two counts.
    String sql = "SELECT"
        + " (SELECT COALESCE(SUM(COUNT_STAR), 0) FROM performance_schema.events_statements_summary_by_user_by_event_name"
        + "   WHERE USER = ? AND EVENT_NAME LIKE 'statement/sql/%'),"
        + " (SELECT COALESCE(SUM(COUNT_STAR), 0) FROM performance_schema.events_statements_summary_by_user_by_event_name"
        + "   WHERE USER = ? AND EVENT_NAME LIKE 'statement/com/%'),"
        + " (SELECT COALESCE(SUM(COUNT_STAR), 0) FROM performance_schema.events_statements_summary_by_digest WHERE "
        + driverDigests + ")";
    for (int s = 0; s < servers.size(); s++) {
      try (Connection a = DriverManager.getConnection(admin(servers.get(s)));
          PreparedStatement ps = a.prepareStatement(sql)) {
        ps.setString(1, topology.user());
        ps.setString(2, topology.user());
        for (int i = 0; i < DRIVER_DIGESTS.length; i++) {
          ps.setString(3 + i, DRIVER_DIGESTS[i]);
        }
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          c[0][s] = rs.getLong(1) - rs.getLong(3);
          c[1][s] = rs.getLong(2);
        }
      }
    }
    return c;
  }

  private static PerUnit perUnit(String scenario, String driver, long[][] before, long[][] after, int units) {
    double primary = after[0][0] - before[0][0];
    double replicas = 0;
    double commands = 0;
    for (int s = 0; s < after[0].length; s++) {
      if (s > 0) {
        replicas += after[0][s] - before[0][s];
      }
      commands += after[1][s] - before[1][s];
    }
    PerUnit p = new PerUnit(scenario, driver, primary / units, replicas / units, commands / units);
    System.out.printf(Locale.ROOT, "%-46s %-13s primary %6.2f  replicas %6.2f  other commands %5.2f%n", scenario,
        driver, p.primary(), p.replicas(), p.commands());
    return p;
  }

  private PerUnit spring(boolean readOnly, String driver, String url, int n) throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setPoolName("txp-" + driver);
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(1);
    config.setMinimumIdle(1);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      JdbcTemplate jdbc = new JdbcTemplate(pool);
      TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(pool));
      tx.setReadOnly(readOnly);
      TransactionTemplate other = new TransactionTemplate(new DataSourceTransactionManager(pool));
      other.setReadOnly(!readOnly);
      Runnable one = readOnly
          ? () -> tx.execute(s -> jdbc.queryForObject("SELECT v FROM " + TABLE + " WHERE id = ?", Integer.class, 1))
          : () -> tx.executeWithoutResult(s -> jdbc.update("UPDATE " + TABLE + " SET v = v + 1 WHERE id = ?", 1));
      // Prime: connections opened (a replica's lazily), and the other kind of transaction before, as in an application.
      for (int i = 0; i < 3; i++) {
        one.run();
        other.executeWithoutResult(s -> jdbc.queryForObject("SELECT v FROM " + TABLE + " WHERE id = ?", Integer.class, 1));
      }
      long[][] before = counts();
      for (int i = 0; i < n; i++) {
        one.run();
      }
      long[][] after = counts();
      return perUnit("Spring " + (readOnly ? "read-only" : "read-write") + " transaction, 1 statement", driver, before,
          after, n);
    }
  }

  private PerUnit jpa(boolean finds, String driver, String url, int flows) throws Exception {
    AnnotationConfigApplicationContext app = JpaApplication.start(url, POOL);
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    try {
      ItemService items = app.getBean(ItemService.class);
      for (int i = 0; i < THREADS; i++) {
        flow(items, finds, "prime-" + i);
      }
      long[][] before = counts();
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        running.add(threads.submit(() -> {
          for (int i = thread; i < flows; i += THREADS) {
            flow(items, finds, "flow-" + i);
          }
          return null;
        }));
      }
      for (Future<?> f : running) {
        f.get(10, TimeUnit.MINUTES);
      }
      long[][] after = counts();
      return perUnit(finds ? "JPA flow: create, 3 x (find, save)" : "JPA flow, writes alone: create, 3 x save", driver,
          before, after, flows);
    } finally {
      threads.shutdownNow();
      app.close();
    }
  }

  /** One user: creates a record and edits it three times (with the finds: loads it first, each time). */
  private static void flow(ItemService items, boolean finds, String title) {
    long id = items.create(title);
    for (int edit = 0; edit < 3; edit++) {
      Item form;
      if (finds) {
        form = items.find(id);
        if (form == null || form.getEdits() != edit) {
          throw new IllegalStateException("read " + (form == null ? "no record" : "edit " + form.getEdits())
              + " of record " + id + ", expected edit " + edit + ": a stale read");
        }
      } else {
        form = new Item(id, title, edit);
      }
      form.setEdits(edit + 1);
      form.setTitle(title + "-e" + edit);
      items.save(form);
    }
  }

  private static PerUnit find(List<PerUnit> rows, String scenarioStart, String driver) {
    for (PerUnit p : rows) {
      if (p.scenario().startsWith(scenarioStart) && p.driver().equals(driver)) {
        return p;
      }
    }
    throw new IllegalStateException("no row " + scenarioStart + " / " + driver);
  }

  private void report(List<PerUnit> rows, int transactions, int flows, Instant started, String loadAtStart, Path out)
      throws IOException {
    List<String> md = new ArrayList<>();
    md.add("# Transaction protocol: statements per server");
    md.add("");
    md.addAll(Machine.describe());
    md.add("- Run started " + started + "; load average " + loadAtStart + " at start, " + Machine.loadAverage() + " at end");
    md.add(String.format(Locale.ROOT, "- %d transactions per Spring row (HikariCP pool of 1, `DataSourceTransactionManager`,"
        + " `JdbcTemplate`); %d flows per JPA row (HikariCP pool of %d, %d threads, Hibernate, `JpaTransactionManager`)",
        transactions, flows, POOL, THREADS));
    md.add("- Counted by the servers: per server, the `statement/sql/%` count of the workload user in "
        + "`events_statements_summary_by_user_by_event_name`, less the digests of ryow's background poll and connection "
        + "probe; *other commands* are `statement/com/%` (pings, quits) on all servers. Per transaction or per flow.");
    md.add("- Command: `java -cp benchmarks/target/ryow-benchmarks.jar dev.ryow.bench.TransactionProtocol` "
        + "(`benchmarks/run-benchmarks protocol`)");
    md.add("");
    md.add("| Scenario | Driver | Primary statements | Replica statements | Other commands |");
    md.add("|---|---|---:|---:|---:|");
    for (PerUnit p : rows) {
      md.add(String.format(Locale.ROOT, "| %s | %s | %.2f | %.2f | %.2f |", p.scenario(), p.driver(), p.primary(),
          p.replicas(), p.commands()));
    }
    md.add("");
    List<Target> targets = new ArrayList<>();
    PerUnit ro = find(rows, "Spring read-only", "ryow");
    PerUnit roPlain = find(rows, "Spring read-only", "primary-only");
    targets.add(new Target("Spring read-only transaction served by a replica: statements on the primary", "0",
        String.format(Locale.ROOT, "%.2f (primary-only: %.2f on the primary; ryow: %.2f on the replica)", ro.primary(),
            roPlain.primary(), ro.replicas()), ro.primary() == 0));
    PerUnit rw = find(rows, "Spring read-write", "ryow");
    PerUnit rwPlain = find(rows, "Spring read-write", "primary-only");
    targets.add(new Target("Spring read-write transaction on the primary: statements on any replica", "0",
        String.format(Locale.ROOT, "%.2f (primary: ryow %.2f, primary-only %.2f)", rw.replicas(), rw.primary(),
            rwPlain.primary()), rw.replicas() == 0));
    PerUnit flow = find(rows, "JPA flow: create", "ryow");
    PerUnit writes = find(rows, "JPA flow, writes alone", "primary-only");
    PerUnit flowPlain = find(rows, "JPA flow: create", "primary-only");
    targets.add(new Target("Spring + JPA pooled flow: primary statements per flow vs the flow's writes alone",
        "close (≤ 1.1×)", String.format(Locale.ROOT, "%.1f vs %.1f (%.2f×); primary-only runs %.1f per flow", flow.primary(),
            writes.primary(), flow.primary() / writes.primary(), flowPlain.primary()),
        flow.primary() <= 1.1 * writes.primary()));
    md.add("## Targets");
    md.add("");
    md.add(Target.header());
    targets.forEach(t -> md.add(t.row()));
    md.add("");
    Files.write(out.resolve("protocol.md"), md);
    Target.write(out.resolve("protocol-targets.tsv"), targets);
    System.out.println(String.join("\n", md));
  }
}
