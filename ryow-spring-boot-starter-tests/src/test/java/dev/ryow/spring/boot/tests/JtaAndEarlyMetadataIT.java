package dev.ryow.spring.boot.tests;

import static dev.ryow.spring.boot.tests.Servers.PRIMARY_PORT;
import static dev.ryow.spring.boot.tests.Servers.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import com.atomikos.icatch.jta.UserTransactionManager;
import com.atomikos.jdbc.AtomikosNonXADataSourceBean;
import dev.ryow.jdbc.RyowDriver;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Framework paths that never call {@code setReadOnly}, or call the connection before they do, on the
 * driver's defaults and the real servers:
 *
 * <ul>
 *   <li>a JTA transaction (Atomikos, a real transaction manager, with its non-XA DataSource over
 *       {@code jdbc:ryow:}): its connection is enlisted with autocommit off and never read-only, so every
 *       statement of the transaction, the reads before its first write included, runs on the primary
 *       (the servers' digest counts: none of them on a replica), and the commit's write is read back
 *       afterwards while the replicas' appliers are blocked;
 *   <li>{@code getMetaData()} called before the connection is made read-only (as datasource-micrometer and
 *       p6spy do when they wrap a connection): the read-only transaction still runs on a replica;
 *   <li>Spring's {@link LazyConnectionDataSourceProxy} under {@code @Transactional(readOnly = true)}'s
 *       manager: its read-only transactions run on a replica, read-write ones on the primary.
 * </ul>
 */
class JtaAndEarlyMetadataIT {
  private static final int ROUNDS = 3;
  private static int nextId = 80_000;

  @BeforeAll
  static void table() throws Exception {
    Servers.exec(PRIMARY_PORT, "CREATE TABLE IF NOT EXISTS jta_items (id INT PRIMARY KEY, value INT NOT NULL)");
    Servers.exec(PRIMARY_PORT, "DELETE FROM jta_items");
    Servers.awaitReplicasCaughtUp();
  }

  /** One statement's answer: a value and the {@code @@port} of the server that ran it. */
  record Answer(long value, int port) {}

  private static Answer ask(Connection c, String sql, int id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setInt(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new Answer(rs.getLong(1), rs.getInt(2));
      }
    }
  }

  @Test
  @SuppressWarnings("try") // the block is held by the try, not used in it
  void aJtaTransactionRunsWhollyOnThePrimaryAndItsCommitIsReadBack() throws Exception {
    System.setProperty("com.atomikos.icatch.log_base_dir", "target/atomikos");
    System.setProperty("com.atomikos.icatch.output_dir", "target/atomikos");
    UserTransactionManager jta = new UserTransactionManager();
    jta.init();
    AtomikosNonXADataSourceBean ds = new AtomikosNonXADataSourceBean();
    ds.setUniqueResourceName("ryow-jta-it");
    ds.setDriverClassName(RyowDriver.class.getName());
    ds.setUrl(Servers.ryowUrl());
    ds.setUser(Servers.USER);
    ds.setPassword(Servers.PASSWORD);
    ds.setMaxPoolSize(2);
    List<String> log = new ArrayList<>();
    try {
      for (int round = 0; round < ROUNDS; round++) {
        int id = nextId++;
        long replicaBefore = Servers.replicaStatementsLike("jta_items");
        long primaryBefore = Servers.statementsLike(PRIMARY_PORT, "jta_items");
        List<Answer> inTransaction = new ArrayList<>();
        long onReplicas;
        long onPrimary;
        Answer after;
        try (Servers.ApplierBlock block = new Servers.ApplierBlock()) {
          jta.begin();
          try (Connection c = ds.getConnection()) {
            inTransaction.add(ask(c, "SELECT COUNT(*), @@port FROM jta_items WHERE id = ?", id));
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO jta_items VALUES (?, ?)")) {
              ps.setInt(1, id);
              ps.setInt(2, 500 + round);
              ps.executeUpdate();
            }
            inTransaction.add(ask(c, "SELECT MAX(value), @@port FROM jta_items WHERE id = ?", id));
          }
          jta.commit();
          Thread.sleep(300); // performance_schema counts a statement just after the client has its result
          onReplicas = Servers.replicaStatementsLike("jta_items") - replicaBefore;
          onPrimary = Servers.statementsLike(PRIMARY_PORT, "jta_items") - primaryBefore;
          try (Connection c = ryowDataSource().getConnection()) { // another connection of this JVM, outside JTA
            after = ask(c, "SELECT MAX(value), @@port FROM jta_items WHERE id = ?", id);
          }
        }
        assertThat(inTransaction).as("round %d: the transaction's reads", round)
            .containsExactly(new Answer(0, PRIMARY_PORT), new Answer(500 + round, PRIMARY_PORT));
        assertThat(onReplicas).as("round %d: the transaction's statements on the replicas", round).isZero();
        assertThat(onPrimary).as("round %d: on the primary (2 reads, 1 insert)", round).isEqualTo(3);
        assertThat(after.value()).as("round %d: the committed write, read back under blocked appliers", round)
            .isEqualTo(500 + round);
        log.add("round " + round + ": in the transaction " + inTransaction + ", after the commit " + after);
        Servers.awaitReplicasCaughtUp();
      }
    } finally {
      ds.close();
      jta.close();
    }
    log.forEach(line -> System.out.println("JtaAndEarlyMetadataIT " + line));
  }

  private static DataSource ryowDataSource() {
    return new SimpleDriverDataSource(new RyowDriver(), Servers.ryowUrl(), Servers.USER, Servers.PASSWORD);
  }

  /**
   * Returns once a read-only transaction of a new connection runs on a replica. The JTA test blocks the
   * appliers, and for a while after that the driver may still count a replica as stalled and send read-only
   * transactions to the primary (a fallback, not what the tests below are about).
   */
  private static void awaitReadOnlyTransactionsOnAReplica() throws Exception {
    Servers.awaitReplicasCaughtUp();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      try (Connection c = ryowDataSource().getConnection()) {
        c.setReadOnly(true);
        c.setAutoCommit(false);
        Answer answer = ask(c, "SELECT COUNT(*), @@port FROM jta_items WHERE id >= ?", 0);
        c.commit();
        if (REPLICA_PORTS.contains(answer.port())) {
          return;
        }
      }
      assertThat(System.nanoTime()).as("a read-only transaction ran on a replica within 30 s").isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  @Test
  void metadataReadBeforeSetReadOnlyDoesNotPinTheConnectionToThePrimary() throws Exception {
    awaitReadOnlyTransactionsOnAReplica();
    try (Connection c = ryowDataSource().getConnection()) {
      DatabaseMetaData meta = c.getMetaData();
      assertThat(meta.getURL()).isNotEmpty();
      assertThat(meta.getDatabaseProductName()).isEqualTo("MySQL");
      c.setReadOnly(true);
      c.setAutoCommit(false);
      Answer first = ask(c, "SELECT COUNT(*), @@port FROM jta_items WHERE id >= ?", 0);
      c.getMetaData().getDatabaseProductVersion(); // again, inside the transaction
      Answer second = ask(c, "SELECT COUNT(*), @@port FROM jta_items WHERE id >= ?", 0);
      c.commit();
      assertThat(REPLICA_PORTS).as("read-only transaction after getMetaData()").contains(first.port());
      assertThat(second.port()).as("the whole read-only transaction on one replica").isEqualTo(first.port());
    }
  }

  @Test
  void lazyConnectionProxyReadOnlyTransactionsRunOnAReplica() throws Exception {
    LazyConnectionDataSourceProxy lazy = new LazyConnectionDataSourceProxy(ryowDataSource());
    DataSourceTransactionManager manager = new DataSourceTransactionManager(lazy);
    JdbcTemplate jdbc = new JdbcTemplate(lazy);
    TransactionTemplate readOnly = new TransactionTemplate(manager);
    readOnly.setReadOnly(true);
    TransactionTemplate readWrite = new TransactionTemplate(manager);
    awaitReadOnlyTransactionsOnAReplica();
    for (int round = 0; round < ROUNDS; round++) {
      Integer readOnlyPort = readOnly.execute(s -> jdbc.queryForObject("SELECT @@port", Integer.class));
      Integer readWritePort = readWrite.execute(s -> jdbc.queryForObject("SELECT @@port", Integer.class));
      assertThat(REPLICA_PORTS).as("round %d: read-only transaction", round).contains(readOnlyPort);
      assertThat(readWritePort).as("round %d: read-write transaction", round).isEqualTo(PRIMARY_PORT);
    }
  }
}
