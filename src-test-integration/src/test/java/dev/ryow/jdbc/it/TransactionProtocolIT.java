package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What a transaction costs each server, counted by the servers ({@code performance_schema}, per
 * session): Spring's {@code DataSourceTransactionManager} over a HikariCP pool of one
 * {@code jdbc:ryow:} connection makes the calls every Spring application makes
 * ({@code setReadOnly}, {@code setAutoCommit(false)}, the statements, {@code commit},
 * {@code setAutoCommit(true)}, {@code setReadOnly(false)}). A read-only transaction that a replica
 * serves costs the primary nothing; a read-write transaction costs the replicas nothing; and a write
 * inside a read-only transaction still fails, as with Connector/J alone.
 */
class TransactionProtocolIT {
  private static final String TABLE = "it_txp";

  private HikariDataSource pool;
  private JdbcTemplate jdbc;
  private TransactionTemplate readOnly;
  private TransactionTemplate readWrite;
  private long primarySession;
  private int replicaPort;
  private long replicaSession;

  @BeforeEach
  void start() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL");
    HikariConfig config = new HikariConfig();
    config.setPoolName("it-txp");
    config.setJdbcUrl(Topology.ryowUrl());
    config.setMaximumPoolSize(1);
    pool = new HikariDataSource(config);
    jdbc = new JdbcTemplate(pool);
    DataSourceTransactionManager transactions = new DataSourceTransactionManager(pool);
    readOnly = new TransactionTemplate(transactions);
    readOnly.setReadOnly(true);
    readWrite = new TransactionTemplate(transactions);
    // Find the pooled connection's sessions on the servers: one write (primary), one read (a replica).
    String marker = "txp-" + UUID.randomUUID();
    jdbc.update("INSERT INTO " + TABLE + " (id, v) VALUES (0, 0) /* " + marker + " */");
    primarySession = Topology.sessionThatRan(PRIMARY_PORT, marker);
    Integer port = jdbc.queryForObject("SELECT @@port /* " + marker + " */", Integer.class);
    assertThat(REPLICA_PORTS).contains(port);
    replicaPort = port;
    replicaSession = Topology.sessionThatRan(replicaPort, marker);
  }

  @AfterEach
  void stop() {
    if (pool != null) {
      pool.close();
    }
  }

  private long[] counts() throws SQLException {
    return new long[] {
      Topology.sqlStatementsOfSession(PRIMARY_PORT, primarySession),
      Topology.sqlStatementsOfSession(replicaPort, replicaSession)
    };
  }

  @Test
  void aReadOnlyTransactionOnAReplicaCostsThePrimaryNothing() throws SQLException {
    jdbc.queryForObject("SELECT @@port", Integer.class); // the replica connection back in autocommit mode
    long[] before = counts();
    int servedBy = readOnly.execute(s -> jdbc.queryForObject("SELECT @@port FROM " + TABLE + " WHERE id = 0", Integer.class));
    long[] after = counts();
    System.out.printf("read-only transaction: primary ran %d statements, replica %d%n",
        after[0] - before[0], after[1] - before[1]);
    // A replica served it (which one may change under lag: reads leave a replica that fell behind).
    assertThat(REPLICA_PORTS).contains(servedBy);
    assertThat(after[0] - before[0]).as("statements the primary ran").isZero();
  }

  @Test
  void aReadWriteTransactionCostsTheReplicasNothing() throws SQLException {
    readOnly.execute(s -> jdbc.queryForObject("SELECT @@port", Integer.class)); // leaves the replica in manual commit
    long[] before = counts();
    readWrite.executeWithoutResult(s -> {
      jdbc.update("UPDATE " + TABLE + " SET v = v + 1 WHERE id = 0");
      jdbc.update("INSERT INTO " + TABLE + " (id, v) VALUES (1, 1)");
    });
    long[] after = counts();
    System.out.printf("read-write transaction: primary ran %d statements, replica %d%n",
        after[0] - before[0], after[1] - before[1]);
    assertThat(after[1] - before[1]).as("statements the replica ran").isZero();
    assertThat(Topology.queryLong(PRIMARY_PORT, "SELECT COUNT(*) FROM " + TABLE)).isEqualTo(2);
  }

  @Test
  void aWriteInAReadOnlyTransactionStillFails() throws SQLException {
    assertThatThrownBy(() -> readOnly.executeWithoutResult(s -> {
      jdbc.queryForObject("SELECT v FROM " + TABLE + " WHERE id = 0", Integer.class);
      jdbc.update("UPDATE " + TABLE + " SET v = 42 WHERE id = 0");
    }))
        .isInstanceOf(DataAccessException.class)
        // Connector/J's own refusal, as without the driver: the primary connection is read-only when the write comes.
        .hasMessageContaining("Connection is read-only");
    assertThat(Topology.queryLong(PRIMARY_PORT, "SELECT v FROM " + TABLE + " WHERE id = 0")).isZero();
    // And the pooled connection is back to read-write for the next user.
    jdbc.update("UPDATE " + TABLE + " SET v = 7 WHERE id = 0");
    try (Connection c = Topology.plain(PRIMARY_PORT)) {
      assertThat(Topology.queryString(c, "SELECT v FROM " + TABLE + " WHERE id = 0")).isEqualTo("7");
    }
  }
}
