package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.RyowDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/**
 * A password configured for the driver never appears in a log line (every level, TRACE included,
 * captured by {@link CapturingLogProvider}), an exception message (with causes, suppressed and next
 * exceptions) or a {@code toString}: through a normal workload and every error the driver can be
 * driven into. Runs last ({@link ClassOrderer.OrderAnnotation}) and also scans every line logged by
 * the integration tests before it.
 */
@Order(Integer.MAX_VALUE)
@AboutSettings(value = {"ryow.fallback"}, why = "the messages of every fallback mode carry no password")
class PasswordHygieneIT {
  private static final String USER = "ryow_hygiene";
  private static final String SECRET = "Hyg-9f3Kq7-Zx";
  private static final String NAME = "hygiene";

  private final List<String> seen = new ArrayList<>();

  @BeforeAll
  static void user() throws SQLException {
    Topology.exec(PRIMARY_PORT, "DROP USER IF EXISTS '" + USER + "'@'%'");
    Topology.exec(PRIMARY_PORT, "CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + SECRET + "'");
    Topology.exec(PRIMARY_PORT, "GRANT ALL ON *.* TO '" + USER + "'@'%'");
    Topology.recreateTable("hygiene_it", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterAll
  static void cleanUp() throws SQLException {
    Topology.resumeAppliers();
    Topology.exec(PRIMARY_PORT, "DROP USER IF EXISTS '" + USER + "'@'%'");
  }

  private static String hosts(int primary, int... replicas) {
    StringBuilder url = new StringBuilder("jdbc:ryow:mysql://").append(Topology.HOST).append(':').append(primary);
    for (int r : replicas) {
      url.append(',').append(Topology.HOST).append(':').append(r);
    }
    return url.append('/').append(Topology.DATABASE).toString();
  }

  private static String url(String... parameters) {
    return hosts(PRIMARY_PORT, REPLICA_PORTS.get(0), REPLICA_PORTS.get(1)) + "?user=" + USER + "&password=" + SECRET
        + "&ryow.clusterName=" + NAME + (parameters.length == 0 ? "" : "&" + String.join("&", parameters));
  }

  /** Runs {@code action}; an exception it throws is recorded (all of it) instead of failing the test. */
  private void attempt(SqlAction action) {
    try {
      action.run();
    } catch (SQLException | RuntimeException e) {
      seen.add(CapturedLog.chainText(e));
    }
  }

  @FunctionalInterface
  private interface SqlAction {
    void run() throws SQLException;
  }

  private void workload(Connection c, int id) throws SQLException {
    seen.add(c.toString());
    seen.add(c.unwrap(RyowConnection.class).toString());
    try (Statement s = c.createStatement()) {
      s.executeUpdate("REPLACE INTO hygiene_it (id, v) VALUES (" + id + ", 1)");
      try (ResultSet rs = s.executeQuery("SELECT v FROM hygiene_it WHERE id = " + id)) {
        rs.next();
      }
      seen.add(s.toString());
    }
    seen.add(c.unwrap(RyowConnection.class).consistencyToken());
  }

  @Test
  void noLogLineExceptionOrToStringContainsThePassword() throws SQLException {
    int mark = CapturedLog.mark();

    // A normal workload, password in the URL and in Properties, and through the DataSource.
    try (Connection c = DriverManager.getConnection(url())) {
      workload(c, 1);
    }
    Properties info = new Properties();
    info.setProperty("user", USER);
    info.setProperty("password", SECRET);
    info.setProperty("ryow.clusterName", NAME);
    try (Connection c = DriverManager.getConnection(hosts(PRIMARY_PORT, REPLICA_PORTS.get(0)), info)) {
      workload(c, 2);
    }
    RyowDataSource ds = new RyowDataSource();
    ds.setUrl(url());
    ds.setUser(USER);
    ds.setPassword(SECRET);
    ds.setProperty("trustCertificateKeyStorePassword", SECRET);
    seen.add(ds.toString());
    try (Connection c = ds.getConnection()) {
      workload(c, 3);
    }

    // Unreachable primary, unreachable replica (falls back, logs a WARN), wrong password.
    attempt(() -> DriverManager.getConnection(
        hosts(1, REPLICA_PORTS.get(0)) + "?user=" + USER + "&password=" + SECRET
            + "&connectTimeout=1000&ryow.failoverTimeout=0&ryow.clusterName=" + NAME).close());
    try (Connection c = DriverManager.getConnection(
        hosts(PRIMARY_PORT, 1) + "?user=" + USER + "&password=" + SECRET + "&connectTimeout=1000&ryow.clusterName=" + NAME)) {
      workload(c, 4);
    }
    attempt(() -> DriverManager.getConnection(url().replace("password=" + SECRET, "password=" + SECRET + "x")).close());
    RyowDataSource unreachable = new RyowDataSource();
    unreachable.setUrl(hosts(1, 2) + "?connectTimeout=500&ryow.failoverTimeout=0");
    unreachable.setPassword(SECRET);
    unreachable.setProperty("ryow.clusterName", NAME);
    attempt(() -> unreachable.getConnection().close());

    // Bad settings and malformed URLs that carry the password.
    attempt(() -> DriverManager.getConnection(url("ryow.waitTimeout=abc")).close());
    attempt(() -> DriverManager.getConnection(url("ryow.bogus=1")).close());
    attempt(() -> DriverManager.getConnection(url("connectTimeout=notanumber")).close());
    attempt(() -> DriverManager.getConnection(url("password=twice")).close());
    attempt(() -> DriverManager.getConnection(url().replace("password=" + SECRET, "password=%zz" + SECRET)).close());
    attempt(() -> DriverManager.getConnection(
        "jdbc:ryow:mysql://" + USER + ":" + SECRET + "@" + Topology.HOST + ":" + PRIMARY_PORT + ",x:1/ryow").close());
    attempt(() -> DriverManager.getConnection(url().replace("jdbc:ryow:mysql:", "jdbc:ryow:postgresql:")).close());

    // Failed waits under every fallback mode, a server error, and a closed connection.
    for (String fallback : List.of("error", "primary", "stale")) {
      try (Connection c = DriverManager.getConnection(url("ryow.waitTimeout=20", "ryow.fallback=" + fallback));
          Statement s = c.createStatement()) {
        Topology.pauseAppliers();
        // Always a real change, so always a GTID the paused replicas lack (an identical REPLACE logs nothing).
        s.executeUpdate("INSERT INTO hygiene_it (id, v) VALUES (10, 1) ON DUPLICATE KEY UPDATE v = v + 1");
        attempt(() -> s.executeQuery("SELECT v FROM hygiene_it WHERE id = 10").close());
        attempt(() -> s.executeQuery("SELECT no_such_column FROM hygiene_it").close());
        Topology.resumeAppliers();
      }
    }
    Connection closed = DriverManager.getConnection(url());
    closed.close();
    attempt(closed::createStatement);

    List<CapturedLog.Entry> lines = CapturedLog.since(mark);
    List<CapturedLog.Entry> ours = lines.stream().filter(e -> e.logger().startsWith("dev.ryow.jdbc.")).toList();
    assertThat(seen).as("exceptions and toString seen").hasSizeGreaterThan(20).noneMatch(t -> t.contains(SECRET));
    assertThat(lines).as("log lines of this test").noneMatch(e -> e.text().contains(SECRET));
    assertThat(CapturedLog.all()).as("every log line of the integration tests").noneMatch(e -> e.text().contains(SECRET));

    // The capture really saw the driver at every level, and every driver line names its cluster.
    assertThat(ours).extracting(CapturedLog.Entry::level).contains(Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN);
    // Every driver line names its cluster (other test classes' clusters may still log, e.g. their pollers).
    assertThat(ours).allSatisfy(e -> assertThat(e.text()).matches("(?s)^\\[[^\\]]+\\] .*"));
    assertThat(ours).anySatisfy(e -> assertThat(e.text()).startsWith("[" + NAME));
    assertThat(seen).anyMatch(t -> t.contains("ryow.waitTimeout"))
        .anyMatch(t -> t.contains("user:password@host"))
        .anyMatch(t -> t.contains("Access denied"));
  }
}
