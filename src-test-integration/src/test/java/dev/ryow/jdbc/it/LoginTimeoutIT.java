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
 * {@code ryow.failoverTimeout} (30 s): it looks once (one round over the URL's hosts), within the connect
 * and login timeouts the caller set, and finding no writable host opens on a replica, where its reads run.
 * The "primary" here is a port nobody listens on; the replicas are up but read-only, so no host of the URL
 * can take writes.
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

  /** Connects within {@code boundSeconds} and returns the port of the server that ran a read. */
  private static int connectOpensOnAReplica(String url, long boundSeconds) throws SQLException {
    long t0 = System.nanoTime();
    try (Connection c = DriverManager.getConnection(url)) {
      long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      System.out.printf("connect with the primary down opened after %d ms%n", tookMillis);
      assertThat(tookMillis).as("connect ends within the caller's bound, not ryow.failoverTimeout (30 s)")
          .isLessThan(TimeUnit.SECONDS.toMillis(boundSeconds));
      assertThat(c.isValid(5)).as("isValid of a connection that can serve reads").isTrue();
      try (java.sql.Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("SELECT @@port")) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  @Test
  void withConnectTimeoutSetAFirstConnectLooksOnceAndOpensOnTheReplicas() throws SQLException {
    assertThat(connectOpensOnAReplica(urlWithDeadPrimary("connectTimeout=2000"), 10))
        .as("the server that ran the read").isIn(REPLICA_PORTS);
  }

  @Test
  void theLoginTimeoutBoundsItToo() throws SQLException {
    int before = DriverManager.getLoginTimeout();
    DriverManager.setLoginTimeout(3);
    try {
      assertThat(connectOpensOnAReplica(urlWithDeadPrimary(), 10)).isIn(REPLICA_PORTS);
    } finally {
      DriverManager.setLoginTimeout(before);
    }
  }

  @Test
  void aWriteOnSuchAConnectionFailsClearlyWhenNoHostBecomesWritable() throws SQLException {
    try (Connection c = DriverManager.getConnection(urlWithDeadPrimary("connectTimeout=2000"));
        java.sql.Statement s = c.createStatement()) {
      SQLException failure = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
          () -> s.executeUpdate("CREATE TABLE IF NOT EXISTS it_login_timeout (id INT)"));
      // The primary cannot be reached (a death, not a switchover): the documented retryable HYT01, which says
      // since when, and not an 08xxx, which would make a pool evict a connection that still serves reads
      // (docs/operations.md#failover).
      assertThat((Throwable) failure).isInstanceOf(java.sql.SQLTransientException.class);
      assertThat(failure.getSQLState()).isEqualTo("HYT01");
      assertThat(failure.getMessage()).contains("is unreachable since").contains("is writable")
          .contains("the statement was not run").contains("ryow.failoverTimeout");
      assertThat(c.isValid(5)).as("the connection still serves reads").isTrue();
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
