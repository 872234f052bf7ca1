package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A first connect with the primary down does not search for a new primary for the whole
 * {@code ryow.failoverTimeout} (30 s): it looks once (one round over the URL's hosts) and fails with an
 * error that says so, within the connect and login timeouts the caller set. The "primary" here is a
 * port nobody listens on; the replicas are up but read-only, so no host of the URL can take writes.
 */
class LoginTimeoutIT {
  /** A port of this machine where nothing listens (the sandbox uses base..base+2). */
  private static final int DEAD_PORT = Topology.PRIMARY_PORT + 9;

  private static String urlWithDeadPrimary(String... parameters) {
    StringBuilder url = new StringBuilder("jdbc:ryow:mysql://").append(Topology.HOST).append(':').append(DEAD_PORT);
    for (int port : REPLICA_PORTS) {
      url.append(',').append(Topology.HOST).append(':').append(port);
    }
    url.append('/').append(Topology.DATABASE).append("?user=").append(Topology.USER).append("&password=")
        .append(Topology.PASSWORD);
    for (String p : parameters) {
      url.append('&').append(p);
    }
    return url.toString();
  }

  private static SQLException connectFails(String url, long boundSeconds) {
    long t0 = System.nanoTime();
    SQLException failure = null;
    try (Connection c = DriverManager.getConnection(url)) {
      throw new AssertionError("connected although no host can take writes: " + c);
    } catch (SQLException e) {
      failure = e;
    }
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    System.out.printf("connect with the primary down failed after %d ms: %s%n", tookMillis, failure.getMessage());
    assertThat(tookMillis).as("connect ends within the caller's bound, not ryow.failoverTimeout (30 s)")
        .isLessThan(TimeUnit.SECONDS.toMillis(boundSeconds));
    return failure;
  }

  @Test
  void withConnectTimeoutSetAFirstConnectLooksOnceAndFailsClearly() {
    SQLException failure = connectFails(urlWithDeadPrimary("connectTimeout=2000"), 10);
    assertThat(failure.getSQLState()).startsWith("08");
    assertThat(failure.getMessage()).contains("No writable server among").contains("one round");
  }

  @Test
  void theLoginTimeoutBoundsItToo() {
    int before = DriverManager.getLoginTimeout();
    DriverManager.setLoginTimeout(3);
    try {
      connectFails(urlWithDeadPrimary(), 10);
    } finally {
      DriverManager.setLoginTimeout(before);
    }
  }

  @Test
  void aFirstConnectStillFindsTheWritableHostInItsOneRound() throws SQLException {
    // The URL names a read-only replica first (as after a failover the application was not told of):
    // the one round finds the writable host, and writes go there.
    String url = "jdbc:ryow:mysql://" + Topology.HOST + ":" + REPLICA_PORTS.get(0) + "," + Topology.HOST + ":"
        + Topology.PRIMARY_PORT + "," + Topology.HOST + ":" + REPLICA_PORTS.get(1) + "/" + Topology.DATABASE
        + "?user=" + Topology.USER + "&password=" + Topology.PASSWORD + "&connectTimeout=2000";
    try (Connection c = DriverManager.getConnection(url);
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("/* ryow:primary */ SELECT @@port, @@global.super_read_only")) {
      rs.next();
      assertThat(rs.getInt(1)).as("the writable host").isEqualTo(Topology.PRIMARY_PORT);
      assertThat(rs.getInt(2)).isZero();
    }
  }
}
