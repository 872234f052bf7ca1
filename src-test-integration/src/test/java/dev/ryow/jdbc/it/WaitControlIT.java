package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A replica wait obeys the caller: the statement's query timeout bounds the wait and the query, and
 * {@code Statement.cancel()}, a thread interrupt, {@code Connection.close()} and {@code abort} from another
 * thread end it promptly. Each test stops both appliers, writes through the connection (so that its next
 * read must wait) with a 20 s {@code ryow.waitTimeout}, sees the wait running on a replica (processlist),
 * then acts; the read must end far sooner than the wait would have (under 10 s, against 20 s), and no wait
 * may be left running on the replicas. The replicas must stay in rotation: nothing here is their failure.
 */
class WaitControlIT {
  /** Test-only: the wait is what these tests are about, so it must outlast their actions by far. */
  private static final String LONG_WAIT = "ryow.waitTimeout=20000";
  private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(10);

  @BeforeAll
  static void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_wait_control", "id INT AUTO_INCREMENT PRIMARY KEY, v INT");
  }

  @AfterEach
  void appliersBack() throws SQLException {
    Topology.resumeAppliers();
  }

  /** A connection whose next read must wait: replicas in rotation, appliers stopped, one write made through it. */
  static Connection lagging(String... parameters) throws SQLException {
    Connection c = Topology.ryow(parameters);
    Topology.awaitInRotation(c);
    Topology.pauseAppliers();
    try (Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO it_wait_control (v) VALUES (1)");
    }
    return c;
  }

  /** Waits (up to 10 s) until a {@code WAIT_FOR_EXECUTED_GTID_SET} runs on a replica; fails otherwise. */
  static void awaitWaitingOnAReplica() throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (waitsOnReplicas() == 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the read never waited on a replica");
      }
      Thread.sleep(20);
    }
  }

  /** {@code WAIT_FOR_EXECUTED_GTID_SET} statements running now on the replicas. */
  static long waitsOnReplicas() throws SQLException {
    long n = 0;
    for (int port : REPLICA_PORTS) {
      n += Topology.queryLong(port, "SELECT COUNT(*) FROM information_schema.PROCESSLIST"
          + " WHERE INFO LIKE 'SELECT WAIT\\_FOR\\_EXECUTED\\_GTID\\_SET%' OR INFO LIKE 'DO CASE WHEN WAIT\\_FOR%'");
    }
    return n;
  }

  /** Asserts that no wait is left running on the replicas (within 3 s: a killed query takes a moment to go). */
  static void noWaitLeft() throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    while (waitsOnReplicas() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(waitsOnReplicas()).as("waits still running on the replicas").isZero();
  }

  static int readPort(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT COUNT(*), @@port FROM it_wait_control")) {
      rs.next();
      return rs.getInt(2);
    }
  }

  /** The outcome of {@code read} once it ended (within {@link #BOUND_NANOS} of {@code from}): its value or its exception. */
  static Object ended(CompletableFuture<Integer> read, long from) throws InterruptedException {
    Object outcome;
    try {
      outcome = read.get(BOUND_NANOS, TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      outcome = e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionError("the read was still blocked 10 s after the action (the wait is 20 s)");
    }
    long tookMillis = (System.nanoTime() - from) / 1_000_000;
    System.out.printf("read ended %d ms after the action: %s%n", tookMillis, outcome);
    assertThat(System.nanoTime() - from).isLessThan(BOUND_NANOS);
    return outcome;
  }

  @Test
  void cancelEndsTheWaitAndTheConnectionStaysUsable() throws Exception {
    int mark = CapturedLog.mark();
    try (Connection c = lagging(LONG_WAIT);
        Statement s = c.createStatement()) {
      CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
        try {
          return readPort(s);
        } catch (SQLException e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      });
      awaitWaitingOnAReplica();
      Thread.sleep(300);
      long t0 = System.nanoTime();
      s.cancel();
      Object outcome = ended(read, t0);
      assertThat(outcome).isInstanceOf(SQLException.class);
      assertThat(((SQLException) outcome).getMessage()).isEqualTo("Statement cancelled due to client request");
      noWaitLeft();
      Topology.resumeAppliers();
      // Documented state: the connection is open and usable; the next read sees the write.
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*), @@port FROM it_wait_control")) {
        rs.next();
        assertThat(rs.getInt(1)).isPositive();
      }
    }
    assertNoReplicaBlamed(mark);
  }

  @Test
  void theQueryTimeoutBoundsTheWait() throws Exception {
    try (Connection c = lagging(LONG_WAIT);
        Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      long t0 = System.nanoTime();
      CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
        try {
          return readPort(s);
        } catch (SQLException e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      });
      Object outcome = ended(read, t0);
      assertThat(outcome).as("the 1 s query timeout expired during the wait").isInstanceOf(SQLTimeoutException.class);
      noWaitLeft();
    }
  }

  @Test
  void theQueryGetsWhatTheWaitLeftOfTheQueryTimeout() throws Exception {
    // Query timeout 3 s. The appliers resume 1.5 s into the wait, so the wait ends after about 1.5 s and the
    // query, which sleeps 2.5 s on the replica, has only the rest: it times out. With the whole 3 s it would
    // have returned its row.
    try (Connection c = lagging(LONG_WAIT);
        Statement s = c.createStatement()) {
      s.setQueryTimeout(3);
      CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
        try (ResultSet rs = s.executeQuery("/* ryow:replica */ SELECT SLEEP(2.5), @@port FROM it_wait_control LIMIT 1")) {
          rs.next();
          return rs.getInt(2);
        } catch (SQLException e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      });
      awaitWaitingOnAReplica();
      long t0 = System.nanoTime();
      Thread.sleep(1500);
      for (int port : REPLICA_PORTS) {
        Topology.exec(port, "START REPLICA SQL_THREAD");
      }
      Object outcome = ended(read, t0);
      assertThat(outcome).as("the query had only the rest of the 3 s").isInstanceOf(SQLTimeoutException.class);
    }
  }

  @Test
  void anInterruptEndsTheWaitAndTheReadFallsBackKeepingTheInterrupt() throws Exception {
    try (Connection c = lagging(LONG_WAIT);
        Statement s = c.createStatement()) {
      AtomicBoolean stillInterrupted = new AtomicBoolean();
      CompletableFuture<Integer> read = new CompletableFuture<>();
      Thread reader = new Thread(() -> {
        try {
          read.complete(readPort(s));
        } catch (SQLException | RuntimeException e) {
          read.completeExceptionally(e);
        }
        stillInterrupted.set(Thread.currentThread().isInterrupted());
      }, "it-reader");
      reader.start();
      awaitWaitingOnAReplica();
      Thread.sleep(300);
      long t0 = System.nanoTime();
      reader.interrupt();
      Object outcome = ended(read, t0);
      reader.join(5000);
      assertThat(outcome).as("the read ran (Connector/J does not fail a statement for an interrupt)")
          .isEqualTo(PRIMARY_PORT);
      assertThat(stillInterrupted).as("the interrupt flag stays set").isTrue();
      noWaitLeft();
    }
  }

  @Test
  void closeFromAnotherThreadEndsTheWait() throws Exception {
    int mark = CapturedLog.mark();
    Connection c = lagging(LONG_WAIT);
    Statement s = c.createStatement();
    CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
      try {
        return readPort(s);
      } catch (SQLException e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
    awaitWaitingOnAReplica();
    Thread.sleep(300);
    long t0 = System.nanoTime();
    c.close();
    assertThat(System.nanoTime() - t0).as("close() returns promptly").isLessThan(BOUND_NANOS);
    Object outcome = ended(read, t0);
    assertThat(outcome).isInstanceOf(SQLException.class);
    assertThat(((SQLException) outcome).getSQLState()).isEqualTo("08003");
    assertThat(c.isClosed()).isTrue();
    noWaitLeft();
    assertNoReplicaBlamed(mark);
  }

  @Test
  void closeFromAnotherThreadEndsTheWaitOfAPreparedQueryToo() throws Exception {
    int mark = CapturedLog.mark();
    Connection c = lagging(LONG_WAIT);
    java.sql.PreparedStatement ps = c.prepareStatement("SELECT COUNT(*), @@port FROM it_wait_control WHERE id > ?");
    ps.setInt(1, 0);
    CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(2);
      } catch (SQLException e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
    awaitWaitingOnAReplica();
    Thread.sleep(300);
    long t0 = System.nanoTime();
    c.close();
    assertThat(System.nanoTime() - t0).as("close() returns promptly").isLessThan(BOUND_NANOS);
    Object outcome = ended(read, t0);
    assertThat(outcome).isInstanceOf(SQLException.class);
    assertThat(c.isClosed()).isTrue();
    noWaitLeft();
    assertNoReplicaBlamed(mark);
  }

  @Test
  void abortFromAnotherThreadEndsTheWait() throws Exception {
    int mark = CapturedLog.mark();
    Connection c = lagging(LONG_WAIT);
    Statement s = c.createStatement();
    CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
      try {
        return readPort(s);
      } catch (SQLException e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
    awaitWaitingOnAReplica();
    Thread.sleep(300);
    long t0 = System.nanoTime();
    c.abort(r -> new Thread(r, "it-abort").start());
    assertThat(System.nanoTime() - t0).as("abort() returns promptly").isLessThan(BOUND_NANOS);
    Object outcome = ended(read, t0);
    assertThat(outcome).isInstanceOf(SQLException.class);
    assertThat(c.isClosed()).isTrue();
    noWaitLeft();
    assertNoReplicaBlamed(mark);
  }

  /** No replica was taken out of rotation for a connection failure since {@code mark}. */
  static void assertNoReplicaBlamed(int mark) {
    List<String> blamed = CapturedLog.since(mark).stream()
        .map(CapturedLog.Entry::text)
        .filter(t -> t.contains("out of rotation (UNREACHABLE)"))
        .toList();
    assertThat(blamed).as("replicas taken out of rotation for a failure that was not theirs").isEmpty();
  }
}
