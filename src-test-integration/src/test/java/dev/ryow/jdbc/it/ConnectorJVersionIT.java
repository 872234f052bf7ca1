package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.gtid.GtidSet;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The supported Connector/J range (8.4 through 26.x), on the real servers: the Connector/J this run
 * put on the class path (the newest by default, the oldest with {@code -Pconnectorj-oldest}) is the
 * one in use, and with it reads go to a replica and the GTID of a write arrives through the
 * session-state listener API; a Connector/J below the range (8.3, in a separate JVM) is refused at
 * connect with a message that says which versions are supported.
 */
class ConnectorJVersionIT {

  @BeforeAll
  static void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_cj_version", "id INT PRIMARY KEY, v INT");
  }

  private static String majorMinor(String version) {
    String[] parts = version.split("\\.");
    return parts[0] + "." + parts[1];
  }

  @Test
  void theConnectorJOfThisRunIsInUseAndEverythingTheDriverNeedsFromItWorks() throws Exception {
    String expected = System.getProperty("ryow.it.connectorj");
    assertThat(expected).as("failsafe passes the Connector/J version of this run").isNotBlank();
    java.sql.Driver cj = new com.mysql.cj.jdbc.Driver();
    String running = cj.getMajorVersion() + "." + cj.getMinorVersion();
    System.out.printf("Connector/J on the class path: %s (this run is about %s)%n", running, expected);
    assertThat(running).isEqualTo(majorMinor(expected));

    GtidSet before;
    try (Connection p = Topology.plain(PRIMARY_PORT)) {
      before = GtidSet.parse(Topology.queryString(p, "SELECT @@global.gtid_executed"));
    }
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO it_cj_version VALUES (1, 1)");
      // The GTID came through Connector/J's session-state listener (own_gtid capture): it is in the token.
      GtidSet token = GtidSet.parse(c.unwrap(RyowConnection.class).consistencyToken());
      GtidSet after;
      try (Connection p = Topology.plain(PRIMARY_PORT)) {
        after = GtidSet.parse(Topology.queryString(p, "SELECT @@global.gtid_executed"));
      }
      assertThat(token.isEmpty()).isFalse();
      assertThat(after.contains(token)).as("the token names GTIDs the primary executed").isTrue();
      assertThat(before.contains(token)).as("the token holds the new write's GTID").isFalse();
      try (ResultSet rs = s.executeQuery("SELECT v, @@port FROM it_cj_version WHERE id = 1")) {
        assertThat(rs.next()).as("read-your-writes").isTrue();
        assertThat(rs.getInt(2)).as("on a replica").isIn(REPLICA_PORTS);
      }
    }
  }

  @Test
  void aConnectorJBelowTheSupportedRangeIsRefusedAtConnect() throws Exception {
    Path unsupported = Path.of(System.getProperty("ryow.it.toolJars"), "mysql-connector-j-unsupported.jar");
    assertThat(unsupported).exists();
    String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("mysql-connector-j"))
        .collect(Collectors.joining(File.pathSeparator)) + File.pathSeparator + unsupported;
    Process p = ChildJvm.start(classPath, ConnectorJProbeMain.class, Topology.ryowUrl());
    List<String> lines = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = out.readLine()) != null; ) {
        lines.add(line);
      }
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    System.out.printf("with Connector/J %s: %s%n", System.getProperty("ryow.it.connectorj.unsupported"), last);
    assertThat(Files.size(unsupported)).isPositive();
    assertThat(last).as("output: %s", lines)
        .startsWith("REFUSED 08001 MySQL Connector/J " + majorMinor(System.getProperty("ryow.it.connectorj.unsupported"))
            + " is on the class path")
        .contains("supports Connector/J 8.4 through 26.x");
    assertThat(p.exitValue()).isEqualTo(3);
  }
}
