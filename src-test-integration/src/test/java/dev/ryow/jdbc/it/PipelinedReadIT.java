package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLWarning;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A consistent replica read in one round trip: a prepared query that must wait for the reader's own
 * write sends the wait in the same packet ({@code DO CASE WHEN WAIT_FOR_EXECUTED_GTID_SET(...)} before
 * the query). Asked of the servers: the replica's session ran that wait and the query, never a wait of
 * its own; a wait that does not succeed stops the packet before the query (the replica never ran it)
 * and the read falls back; and the query's results, streaming, warnings and errors are those of the
 * query alone.
 */
class PipelinedReadIT {
  private static final String TABLE = "it_pipe";
  /**
   * Test-only, for the tests about a cancel or a query timeout that lands during a pipelined wait: the
   * longest {@code ryow.waitTimeout} whose wait still travels in the query's packet (one slice, 1 s), so
   * that the wait lasts long enough for the test to act while it runs (the default 100 ms does not).
   */
  private static final String LONGEST_PIPELINED_WAIT = "ryow.waitTimeout=1000";
  /** How long a test waits for something that takes a second or two on a quiet machine. */
  private static final long GENEROUS_NANOS = TimeUnit.SECONDS.toNanos(60);

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  /**
   * What the replica sessions that ran a statement mentioning {@code fragment} ran recently (their
   * {@code events_statements_history}: each statement of a multi-statement packet is an event of its
   * own), in order, as {@code errno:text}.
   */
  private static List<String> sessionsHistory(String fragment) throws SQLException {
    List<String> texts = new ArrayList<>();
    for (int port : REPLICA_PORTS) {
      try (Connection c = Topology.plain(port);
          PreparedStatement ps = c.prepareStatement(
              "SELECT MYSQL_ERRNO, SQL_TEXT FROM performance_schema.events_statements_history WHERE THREAD_ID IN"
                  + " (SELECT THREAD_ID FROM performance_schema.events_statements_history"
                  + "  WHERE SQL_TEXT LIKE CONCAT('%', ?, '%') AND SQL_TEXT NOT LIKE '%performance_schema%')"
                  + " ORDER BY THREAD_ID, EVENT_ID")) {
        ps.setString(1, fragment);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            texts.add(rs.getInt(1) + ":" + rs.getString(2));
          }
        }
      }
    }
    return texts;
  }

  /** Statements the replicas recently ran (any session) that start with {@code prefix}, as {@code errno:text}. */
  private static List<String> replicaStatementsStartingWith(String prefix) throws SQLException {
    List<String> texts = new ArrayList<>();
    for (int port : REPLICA_PORTS) {
      try (Connection c = Topology.plain(port);
          PreparedStatement ps = c.prepareStatement(
              "SELECT MYSQL_ERRNO, SQL_TEXT FROM performance_schema.events_statements_history"
                  + " WHERE SQL_TEXT LIKE CONCAT(?, '%') ORDER BY THREAD_ID, EVENT_ID")) {
        ps.setString(1, prefix);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            texts.add(rs.getInt(1) + ":" + rs.getString(2));
          }
        }
      }
    }
    return texts;
  }

  /** Pipelined waits ({@code DO CASE WHEN WAIT_FOR_EXECUTED_GTID_SET...}) running now on the replicas. */
  private static long pipelinedWaitsRunning() throws SQLException {
    long n = 0;
    for (int port : REPLICA_PORTS) {
      n += Topology.queryLong(port, "SELECT COUNT(*) FROM information_schema.PROCESSLIST"
          + " WHERE INFO LIKE 'DO CASE WHEN WAIT\\_FOR\\_EXECUTED\\_GTID\\_SET%'");
    }
    return n;
  }

  /**
   * Polls until a pipelined wait runs on a replica (true) or {@code read} ended first (false: it never
   * waited there, or its wait ended before the poll saw it).
   */
  private static boolean pipelinedWaitSeen(CompletableFuture<?> read) throws Exception {
    long deadline = System.nanoTime() + GENEROUS_NANOS;
    while (!read.isDone()) {
      if (pipelinedWaitsRunning() > 0) {
        return true;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the read neither waited on a replica nor ended in 60 s");
      }
      Thread.sleep(5);
    }
    return false;
  }

  /** Runs {@code read} (its first column, an int) on another thread. */
  private static CompletableFuture<Integer> readAsync(PreparedStatement read) {
    return CompletableFuture.supplyAsync(() -> {
      try (ResultSet rs = read.executeQuery()) {
        return rs.next() ? rs.getInt(1) : null;
      } catch (SQLException e) {
        throw new CompletionException(e);
      }
    });
  }

  /** The value {@code read} returned (null: no row), or the exception it threw. */
  private static Object outcome(CompletableFuture<Integer> read) throws Exception {
    try {
      return read.get(GENEROUS_NANOS, TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  /** Spring's {@code @Transactional(readOnly = true)} begins: read-only, then autocommit off. */
  private static void beginReadOnly(Connection c) throws SQLException {
    c.setReadOnly(true);
    c.setAutoCommit(false);
  }

  /** ... and ends with a commit: autocommit back on, then read-write. */
  private static void commitReadOnly(Connection c) throws SQLException {
    c.commit();
    c.setAutoCommit(true);
    c.setReadOnly(false);
  }

  /** Runs {@code read} (selecting {@code v, @@port, @@server_uuid}) for {@code id}: {@code [v, port]}; fails on no row. */
  private static int[] valueAndPort(PreparedStatement read, int id) throws SQLException {
    read.setInt(1, id);
    try (ResultSet rs = read.executeQuery()) {
      assertThat(rs.next()).as("row %d (none: a stale read)", id).isTrue();
      return new int[] {rs.getInt(1), rs.getInt(2)};
    }
  }

  /** Runs {@code write} ({@code INSERT ... (id, v) VALUES (?, ?)}) for one row. */
  private static void insert(PreparedStatement write, int id, int v) throws SQLException {
    write.setInt(1, id);
    write.setInt(2, v);
    write.executeUpdate();
  }

  @Test
  void aReadAfterTheReadersWriteWaitsInTheQuerysOwnPacket() throws SQLException {
    try (Connection c = Topology.ryow();
        PreparedStatement write = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)");
        PreparedStatement read = c.prepareStatement("SELECT v, @@port FROM " + TABLE + " /* pipe-own */ WHERE id = ?")) {
      int onReplica = 0;
      for (int i = 1; i <= 50; i++) {
        insert(write, i, i * 10);
        read.setInt(1, i);
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).as("row %d", i).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(i * 10);
          onReplica += REPLICA_PORTS.contains(rs.getInt(2)) ? 1 : 0;
        }
      }
      List<String> ran = sessionsHistory("pipe-own");
      System.out.printf("pipelined reads: %d of 50 on replicas; the last statements of the replica sessions: %s%n",
          onReplica, ran);
      assertThat(onReplica).isPositive();
      assertThat(ran).anySatisfy(t -> assertThat(t).startsWith("0:DO CASE WHEN WAIT_FOR_EXECUTED_GTID_SET("));
      assertThat(ran).noneSatisfy(t -> assertThat(t).contains("SELECT WAIT_FOR_EXECUTED_GTID_SET"));
    }
  }

  @Test
  @SuppressWarnings("try") // the hold blocks the appliers while the block runs
  void aWaitThatFailsStopsTheQueryOnTheReplicaAndTheReadFallsBack() throws Exception {
    try (Connection c = Topology.ryow();
        PreparedStatement write = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)");
        PreparedStatement read = c.prepareStatement("SELECT v, @@port FROM " + TABLE + " /* pipe-blocked */ WHERE id = ?");
        LagBlock blocked = LagBlock.holdAll(REPLICA_PORTS)) {
      for (int i = 1; i <= 5; i++) {
        insert(write, i, i);
        read.setInt(1, i);
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(i);
          assertThat(rs.getInt(2)).as("served by").isEqualTo(PRIMARY_PORT);
        }
      }
      // Each statement of the packet is an event of its own: the waits failed (1772, the prefix's marker error)
      // and the query never ran on a replica.
      assertThat(replicaStatementsStartingWith("DO CASE WHEN WAIT_FOR_EXECUTED_GTID_SET("))
          .as("pipelined waits the replicas ran").isNotEmpty()
          .anySatisfy(t -> assertThat(t).startsWith("1772:"));
      assertThat(sessionsHistory("pipe-blocked")).as("replica sessions that ran the query").isEmpty();
    }
  }

  /**
   * Spring's call sequence for {@code @Transactional(readOnly = true)} right after a write: the
   * transaction's first read carries its wait in its own packet, so the read costs one round trip on
   * the replica, and the transaction's next read runs on the same replica session with no wait.
   */
  @Test
  void aReadOnlyTransactionsFirstReadWaitsInItsOwnPacket() throws SQLException {
    try (Connection c = Topology.ryow();
        PreparedStatement write = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)");
        PreparedStatement read = c.prepareStatement("SELECT v, @@port FROM " + TABLE + " /* pipe-tx */ WHERE id = ?")) {
      int onReplica = 0;
      int i = 0;
      // 30 transactions, or more until 5 ran on a replica: on a loaded machine a replica that applies slowly is
      // predicted stalled and the transaction runs on the primary instead (correctly, but it sends no wait).
      while (i < 30 || (onReplica < 5 && i < 300)) {
        i++;
        insert(write, i, i * 10);
        c.setReadOnly(true);
        c.setAutoCommit(false);
        read.setInt(1, i);
        int port;
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).as("row %d", i).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(i * 10);
          port = rs.getInt(2);
        }
        read.setInt(1, i - 1);
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).as("row %d", i - 1).isEqualTo(i > 1);
          if (i > 1) {
            assertThat(rs.getInt(1)).isEqualTo((i - 1) * 10);
            assertThat(rs.getInt(2)).as("the transaction's second read: its server").isEqualTo(port);
          }
        }
        c.commit();
        c.setAutoCommit(true);
        c.setReadOnly(false);
        onReplica += REPLICA_PORTS.contains(port) ? 1 : 0;
      }
      List<String> ran = sessionsHistory("pipe-tx");
      System.out.printf("read-only transactions: %d of %d on replicas; the last statements of the replica sessions: %s%n",
          onReplica, i, ran);
      assertThat(onReplica).isPositive();
      assertThat(ran).anySatisfy(t -> assertThat(t).startsWith("0:DO CASE WHEN WAIT_FOR_EXECUTED_GTID_SET("));
      assertThat(ran).noneSatisfy(t -> assertThat(t).contains("SELECT WAIT_FOR_EXECUTED_GTID_SET"));
    }
  }

  /**
   * A read-only transaction whose first read's wait fails: the replica never ran the query, and the
   * whole transaction (its first read, its next one, its commit) runs on the primary.
   */
  @Test
  @SuppressWarnings("try") // the hold blocks the appliers while the block runs
  void aReadOnlyTransactionWhoseFirstWaitFailsRunsOnThePrimary() throws Exception {
    try (Connection c = Topology.ryow();
        PreparedStatement write = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)");
        PreparedStatement read = c.prepareStatement("SELECT v, @@port FROM " + TABLE + " /* pipe-tx-blocked */ WHERE id = ?");
        PreparedStatement other = c.prepareStatement("SELECT COUNT(*), @@port FROM " + TABLE + " /* pipe-tx-blocked */");
        LagBlock blocked = LagBlock.holdAll(REPLICA_PORTS)) {
      for (int i = 1; i <= 3; i++) {
        insert(write, i, i);
        c.setReadOnly(true);
        c.setAutoCommit(false);
        read.setInt(1, i);
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(i);
          assertThat(rs.getInt(2)).as("first read served by").isEqualTo(PRIMARY_PORT);
        }
        try (ResultSet rs = other.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(i);
          assertThat(rs.getInt(2)).as("second read served by").isEqualTo(PRIMARY_PORT);
        }
        c.commit();
        c.setAutoCommit(true);
        c.setReadOnly(false);
      }
      assertThat(replicaStatementsStartingWith("DO CASE WHEN WAIT_FOR_EXECUTED_GTID_SET("))
          .as("pipelined waits the replicas ran").anySatisfy(t -> assertThat(t).startsWith("1772:"));
      assertThat(sessionsHistory("pipe-tx-blocked")).as("replica sessions that ran the queries").isEmpty();
    }
  }

  /**
   * A read-only transaction whose first query fails on its own (a bad column) after its wait: the error
   * is the query's, and the transaction's next read is still one that saw the reader's write.
   */
  @Test
  void aReadOnlyTransactionsFirstQueryErrorIsItsOwnAndTheNextReadIsCurrent() throws SQLException {
    try (Connection c = Topology.ryow();
        PreparedStatement write = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)");
        PreparedStatement bad = c.prepareStatement("SELECT no_such_column FROM " + TABLE + " WHERE id = ?");
        PreparedStatement read = c.prepareStatement("SELECT v FROM " + TABLE + " WHERE id = ?")) {
      for (int i = 1; i <= 10; i++) {
        insert(write, i, i * 3);
        c.setReadOnly(true);
        c.setAutoCommit(false);
        bad.setInt(1, i);
        assertThatThrownBy(bad::executeQuery).isInstanceOf(SQLSyntaxErrorException.class)
            .hasMessageContaining("no_such_column");
        read.setInt(1, i);
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).as("row %d after the failed query", i).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(i * 3);
        }
        c.commit();
        c.setAutoCommit(true);
        c.setReadOnly(false);
      }
    }
  }

  /**
   * {@code Statement.cancel()} from another thread while a read-only transaction's first read waits in
   * its own packet on a lagging replica: the read fails as Connector/J's cancelled statements do (the query
   * never ran on a replica, and the read did not run again elsewhere), and the transaction is not bound to
   * that replica: its next read, with the replicas still behind, waits again and, that wait failing,
   * runs on the primary and returns the current row; the commit works and the connection's next reads,
   * after the replicas caught up, are current.
   *
   * <p>Its waits are the first of a cluster of its own ({@code ryow.clusterName}): once a cluster knows how
   * long its replicas' waits normally take, a wait on a blocked replica ends long before the cancel comes
   * and the read goes to the primary (cluster.wait.WaitBound, {@code WaitBoundIT}).
   */
  @Test
  @SuppressWarnings("try") // the hold blocks the appliers while the block runs
  void aCancelDuringAReadOnlyTransactionsPipelinedWaitLeavesTheTransactionFreeOfTheLaggingReplica() throws Exception {
    try (Connection c = Topology.ryow(LONGEST_PIPELINED_WAIT, "ryow.clusterName=pipelined-cancel");
        PreparedStatement write = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)");
        PreparedStatement first = c.prepareStatement(
            "SELECT v AS cancelled_read, @@port FROM " + TABLE + " /* pipe-tx-cancel */ WHERE id = ?");
        PreparedStatement next = c.prepareStatement(
            "SELECT v, @@port, @@server_uuid FROM " + TABLE + " /* pipe-tx-after-cancel */ WHERE id = ?")) {
      Topology.awaitInRotation(c);
      int id = 0;
      SQLException cancelled = null;
      try (LagBlock blocked = LagBlock.holdAll(REPLICA_PORTS)) {
        // A try whose wait the poll did not see (the replicas were skipped, or the wait ended first) read on
        // the primary: it must be current, and the next try starts a new transaction.
        for (int attempt = 1; cancelled == null && attempt <= 10; attempt++) {
          id = attempt;
          insert(write, id, id * 7);
          beginReadOnly(c);
          first.setInt(1, id);
          long onPrimaryBefore = Topology.statementsLike(PRIMARY_PORT, "cancelled_read");
          CompletableFuture<Integer> read = readAsync(first);
          boolean seen = pipelinedWaitSeen(read);
          if (seen) {
            first.cancel();
          }
          Object outcome = outcome(read);
          System.out.printf("try %d: wait seen %s, outcome %s%n", attempt, seen, outcome);
          if (seen) {
            assertThat(outcome).as("the read cancelled during its wait").isInstanceOf(SQLException.class);
            cancelled = (SQLException) outcome;
            assertThat(Topology.statementsLike(PRIMARY_PORT, "cancelled_read"))
                .as("the cancelled read, run on the primary").isEqualTo(onPrimaryBefore);
          } else {
            assertThat(outcome).as("a read the poll did not see waiting").isEqualTo(id * 7);
            commitReadOnly(c);
          }
        }
        assertThat((Object) cancelled).as("a cancel that landed during the pipelined wait in 10 tries").isNotNull();
        assertThat(cancelled.getMessage()).isEqualTo("Statement cancelled due to client request");
        assertThat((Object) cancelled).isInstanceOf(com.mysql.cj.jdbc.exceptions.MySQLStatementCancelledException.class);
        assertThat(sessionsHistory("pipe-tx-cancel")).as("replica sessions that ran the cancelled query").isEmpty();

        // The same transaction, the replicas still behind: its next reads are current.
        int[] after = valueAndPort(next, id);
        assertThat(after[0]).isEqualTo(id * 7);
        assertThat(after[1]).as("the transaction's next read, replicas behind: served by").isEqualTo(PRIMARY_PORT);
        int[] again = valueAndPort(first, id);
        assertThat(again[0]).isEqualTo(id * 7);
        assertThat(again[1]).as("the cancelled statement, run again in the transaction: served by").isEqualTo(PRIMARY_PORT);
        assertThat(sessionsHistory("pipe-tx-after-cancel")).as("replica sessions that ran the next read").isEmpty();
        commitReadOnly(c);
      }
      // Replicas caught up (the block's close waits for it): the connection reads and writes on.
      int[] now = valueAndPort(next, id);
      assertThat(now[0]).isEqualTo(id * 7);
      insert(write, 100, 700);
      assertThat(valueAndPort(next, 100)[0]).as("a read after the connection's next write").isEqualTo(700);
    }
  }

  /**
   * A query timeout that expires while a read-only transaction's first read waits in its own packet on a
   * lagging replica: the read fails as Connector/J's timed-out statements do, and the transaction is not
   * bound to that replica: once the replicas caught up, its next read is current, run by a server that has
   * the row; the commit works and the connection's next read is current.
   *
   * <p>The wait is the first of a cluster of its own ({@code ryow.clusterName}): once a cluster knows how
   * long its replicas' waits normally take, a wait on a blocked replica is cut long before a 1 s query
   * timeout and the read goes to the primary (cluster.wait.WaitBound, {@code WaitBoundIT}).
   */
  @Test
  @SuppressWarnings("try") // the hold blocks the appliers while the block runs
  void aQueryTimeoutDuringAReadOnlyTransactionsPipelinedWaitFailsTheReadAndTheTransactionReadsOnCurrent()
      throws Exception {
    try (Connection c = Topology.ryow(LONGEST_PIPELINED_WAIT, "ryow.clusterName=pipelined-query-timeout");
        PreparedStatement write = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)");
        PreparedStatement first = c.prepareStatement("SELECT v, @@port FROM " + TABLE + " /* pipe-tx-timeout */ WHERE id = ?");
        PreparedStatement next = c.prepareStatement(
            "SELECT v, @@port, @@server_uuid FROM " + TABLE + " /* pipe-tx-after-timeout */ WHERE id = ?")) {
      Topology.awaitInRotation(c);
      first.setQueryTimeout(1);
      try (LagBlock blocked = LagBlock.holdAll(REPLICA_PORTS)) {
        insert(write, 1, 11);
        beginReadOnly(c);
        first.setInt(1, 1);
        Object outcome = outcome(readAsync(first));
        System.out.println("read with a 1 s query timeout, replicas blocked: " + outcome);
        assertThat(outcome).as("the read whose query timeout expired during its wait")
            .isInstanceOf(SQLTimeoutException.class);
        assertThat(((SQLException) outcome).getMessage()).isEqualTo("Statement cancelled due to timeout or client request");
        assertThat(sessionsHistory("pipe-tx-timeout")).as("replica sessions that ran the timed-out query").isEmpty();
      }
      // The replicas caught up (the block's close waits for it); the transaction goes on.
      int[] after = valueAndPort(next, 1);
      assertThat(after[0]).isEqualTo(11);
      int[] again = valueAndPort(next, 1);
      assertThat(again[0]).isEqualTo(11);
      assertThat(again[1]).as("the transaction's reads stay on one server").isEqualTo(after[1]);
      List<String> ranOnReplicas = sessionsHistory("pipe-tx-after-timeout");
      System.out.printf("the transaction's next reads ran on port %d; replica sessions that ran them: %s%n", after[1],
          ranOnReplicas);
      if (REPLICA_PORTS.contains(after[1])) {
        assertThat(ranOnReplicas).as("the replica ran the reads").anySatisfy(t -> assertThat(t).startsWith("0:SELECT v"));
      } else {
        assertThat(after[1]).isEqualTo(PRIMARY_PORT);
        assertThat(ranOnReplicas).as("replica sessions that ran the reads").isEmpty();
      }
      commitReadOnly(c);
      insert(write, 2, 22);
      assertThat(valueAndPort(next, 2)[0]).as("a read after the connection's next write").isEqualTo(22);
    }
  }

  @Test
  void streamingWarningsAndErrorsAreThoseOfTheQuery() throws SQLException {
    try (Connection c = Topology.ryow()) {
      try (PreparedStatement fill = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)")) {
        for (int i = 1; i <= 500; i++) {
          fill.setInt(1, i);
          fill.setInt(2, i);
          fill.addBatch();
        }
        fill.executeBatch();
      }
      try (PreparedStatement stream = c.prepareStatement(
          "SELECT id, @@port FROM " + TABLE + " WHERE id > ? ORDER BY id", ResultSet.TYPE_FORWARD_ONLY,
          ResultSet.CONCUR_READ_ONLY)) {
        stream.setFetchSize(Integer.MIN_VALUE);
        stream.setInt(1, 0);
        int rows = 0;
        try (ResultSet rs = stream.executeQuery()) {
          while (rs.next()) {
            rows++;
            assertThat(rs.getInt(1)).isEqualTo(rows);
          }
        }
        assertThat(rows).isEqualTo(500);
      }
      c.createStatement().executeUpdate("UPDATE " + TABLE + " SET v = v + 1 WHERE id = 1");
      try (PreparedStatement warn = c.prepareStatement("SELECT CAST(? AS UNSIGNED), v FROM " + TABLE + " WHERE id = 1")) {
        warn.setString(1, "7x");
        try (ResultSet rs = warn.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(7);
          assertThat(rs.getInt(2)).isEqualTo(2);
        }
        SQLWarning w = warn.getWarnings();
        assertThat((Object) w).as("the query's truncation warning").isNotNull();
        assertThat(w.getErrorCode()).isEqualTo(1292);
      }
      c.createStatement().executeUpdate("UPDATE " + TABLE + " SET v = v + 1 WHERE id = 1");
      try (PreparedStatement bad = c.prepareStatement("SELECT no_such_column FROM " + TABLE + " WHERE id = ?")) {
        bad.setInt(1, 1);
        assertThatThrownBy(bad::executeQuery).isInstanceOf(SQLSyntaxErrorException.class)
            .hasMessageContaining("no_such_column");
      }
    }
  }
}
