package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code Connection.setNetworkTimeout} is the caller's socket timeout. A replica wait longer than that
 * is sent in slices of at most 1 s, so a network timeout longer than that never ends it; one below it ends
 * the read with an error that says so, and the replica, which did nothing wrong, stays in rotation for
 * every other connection. Same set-up as {@link WaitControlIT}: appliers stopped, a write made through
 * the connection, a 20 s {@code ryow.waitTimeout}.
 */
class NetworkTimeoutIT {
  private static final String LONG_WAIT = "ryow.waitTimeout=20000";
  private static ExecutorService timeouts;

  @BeforeAll
  static void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_wait_control", "id INT AUTO_INCREMENT PRIMARY KEY, v INT");
    timeouts = Executors.newCachedThreadPool();
  }

  @AfterAll
  static void stop() {
    timeouts.shutdownNow();
  }

  @AfterEach
  void appliersBack() throws SQLException {
    Topology.resumeAppliers();
  }

  @Test
  void aNetworkTimeoutShorterThanAWaitSliceFailsTheReadClearlyAndBlamesNoReplica() throws Exception {
    int mark = CapturedLog.mark();
    try (Connection c = WaitControlIT.lagging(LONG_WAIT);
        Statement s = c.createStatement()) {
      c.setNetworkTimeout(timeouts, 250);
      long t0 = System.nanoTime();
      SQLException failure = null;
      try {
        WaitControlIT.readPort(s);
      } catch (SQLException e) {
        failure = e;
      }
      long tookMillis = (System.nanoTime() - t0) / 1_000_000;
      System.out.printf("read with setNetworkTimeout(250) ended after %d ms: %s%n", tookMillis, failure);
      assertThat((Throwable) failure).as("the read fails").isNotNull();
      assertThat(failure.getMessage())
          .contains("longer than this connection's network timeout allows")
          .contains("setNetworkTimeout 250 ms")
          .contains("ryow.waitTimeout=20000");
      assertThat(tookMillis).isLessThan(10_000);
      WaitControlIT.assertNoReplicaBlamed(mark);
      // The logical connection remains usable: with the appliers running again, a read works.
      Topology.resumeAppliers();
      Topology.driverSeesReplicasCurrent(c);
      c.setNetworkTimeout(timeouts, 0);
      assertThat(WaitControlIT.readPort(s)).isIn(REPLICA_PORTS);
    }
    // Other connections read on the replicas too.
    try (Connection other = Topology.ryow();
        Statement s = other.createStatement()) {
      Topology.driverSeesReplicasCurrent(other);
      assertThat(WaitControlIT.readPort(s)).isIn(REPLICA_PORTS);
    }
    WaitControlIT.assertNoReplicaBlamed(mark);
  }

  @Test
  void aNetworkTimeoutLongerThanAWaitSliceDoesNotEndTheWait() throws Exception {
    // A network timeout longer than a wait slice (1 s), and a wait that lasts longer than the network
    // timeout. The wait goes on (in slices) until the replica has the write, and the read runs there.
    int mark = CapturedLog.mark();
    try (Connection c = WaitControlIT.lagging(LONG_WAIT);
        Statement s = c.createStatement()) {
      c.setNetworkTimeout(timeouts, 2000);
      Thread resume = new Thread(() -> {
        try {
          WaitControlIT.awaitWaitingOnAReplica();
          Thread.sleep(3000);
          for (int port : REPLICA_PORTS) {
            Topology.exec(port, "START REPLICA SQL_THREAD");
          }
        } catch (SQLException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      resume.start();
      long t0 = System.nanoTime();
      int port;
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*), @@port FROM it_wait_control")) {
        rs.next();
        assertThat(rs.getInt(1)).as("the read sees the write").isPositive();
        port = rs.getInt(2);
      }
      long tookMillis = (System.nanoTime() - t0) / 1_000_000;
      resume.join(TimeUnit.SECONDS.toMillis(15));
      System.out.printf("read with setNetworkTimeout(2000) waited %d ms and ran on %d%n", tookMillis, port);
      assertThat(tookMillis).as("it waited past the network timeout").isGreaterThan(2000);
      assertThat(port).as("on a replica, after the wait").isIn(REPLICA_PORTS);
    }
    WaitControlIT.assertNoReplicaBlamed(mark);
  }
}
