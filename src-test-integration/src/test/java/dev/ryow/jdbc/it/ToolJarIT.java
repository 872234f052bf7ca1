package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowDriver;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded {@code ryow-jdbc-<version>-all.jar} used the way a JDBC tool uses it: sqlline, a JDBC
 * command-line client from Maven Central, runs in its own JVM with only that jar and sqlline on the
 * classpath (no SLF4J, no Connector/J of its own), finds the driver through
 * {@code DriverManager}, writes and reads; the servers say where each statement ran.
 */
class ToolJarIT {
  private static final Path TOOLS = Path.of(System.getProperty("ryow.it.toolJars", "target/tool-jars"));
  private static final Path ALL_JAR = TOOLS.resolve("ryow-jdbc-all.jar");
  private static final Path SQLLINE_JAR = TOOLS.resolve("sqlline.jar");

  @Test
  void theAllJarRegistersBothDriversAndCarriesItsLicenses() throws IOException {
    assertThat(ALL_JAR).as("copied by maven-dependency-plugin from the driver module").exists();
    try (JarFile jar = new JarFile(ALL_JAR.toFile())) {
      String services = new String(
          jar.getInputStream(jar.getEntry("META-INF/services/java.sql.Driver")).readAllBytes(), StandardCharsets.UTF_8);
      assertThat(services.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")))
          .containsExactlyInAnyOrder("dev.ryow.jdbc.RyowDriver", "com.mysql.cj.jdbc.Driver");
      List<String> names = jar.stream().map(JarEntry::getName).toList();
      assertThat(names)
          .contains("dev/ryow/jdbc/RyowDriver.class", "com/mysql/cj/jdbc/NonRegisteringDriver.class",
              "dev/ryow/jdbc/internal/slf4j/LoggerFactory.class", "dev/ryow/jdbc/version.properties",
              "META-INF/ryow-jdbc/THIRD-PARTY.txt", "LICENSE", "META-INF/LICENSE.txt")
          .noneMatch(n -> n.endsWith("module-info.class"))
          .noneMatch(n -> n.equals("META-INF/INDEX.LIST"))
          .noneMatch(n -> n.startsWith("org/slf4j/"))
          .noneMatch(n -> n.startsWith("com/google/protobuf/"))
          .noneMatch(n -> n.startsWith("org/jspecify/"));
      Manifest manifest = jar.getManifest();
      assertThat(manifest.getMainAttributes().getValue("Automatic-Module-Name")).isEqualTo("dev.ryow.jdbc");
      assertThat(manifest.getMainAttributes().getValue("Implementation-Version")).isEqualTo(RyowDriver.VERSION);
    }
  }

  @Test
  void sqllineWritesAndReadsThroughTheAllJar(@TempDir Path dir) throws Exception {
    Topology.recreateTable("tool_it", "id INT PRIMARY KEY, v VARCHAR(40) NOT NULL");
    Map<Integer, Long> selectsBefore = selectsPerServer();
    long insertsBefore = Topology.statementsLike(PRIMARY_PORT, "INSERT INTO `tool_it`");

    Path script = dir.resolve("script.sql");
    Files.writeString(script,
        "INSERT INTO tool_it (id, v) VALUES (1, 'written-by-sqlline');\n"
            + "SELECT v, @@port AS port, @@server_uuid AS uuid FROM tool_it WHERE id = 1;\n");
    String url = "jdbc:ryow:mysql://" + Topology.HOST + ":" + PRIMARY_PORT + "," + Topology.HOST + ":" + REPLICA_PORTS.get(0)
        + "," + Topology.HOST + ":" + REPLICA_PORTS.get(1) + "/" + Topology.DATABASE
        + "?ryow.waitTimeout=5000"; // a busy machine must not turn the checked replica read into a fallback
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>(List.of(
        java.toString(), "-cp", ALL_JAR + File.pathSeparator + SQLLINE_JAR, "sqlline.SqlLine",
        "-u", url, "-n", Topology.USER, "-p", Topology.PASSWORD,
        "--outputformat=csv", "--showHeader=true", "-f", script.toString()));
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(dir.resolve("out.txt").toFile())
        .redirectError(dir.resolve("err.txt").toFile());
    pb.environment().remove("CLASSPATH");
    pb.environment().remove("JAVA_TOOL_OPTIONS");
    Process process = pb.start();
    if (!process.waitFor(90, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("sqlline did not finish in 90 s");
    }
    String out = Files.readString(dir.resolve("out.txt"));
    String err = Files.readString(dir.resolve("err.txt"));
    String both = "stdout:\n" + out + "\nstderr:\n" + err;
    assertThat(process.exitValue()).as(both).isZero();
    assertThat(err).as(both).doesNotContain("Exception").doesNotContain("Error:").contains("1 row affected");

    // The row came back through the ryow driver, from a replica, after the write.
    String row = out.lines().filter(l -> l.contains("written-by-sqlline")).findFirst()
        .orElseThrow(() -> new AssertionError("no result row in sqlline's output\n" + both));
    String[] cells = row.replace("'", "").split(",");
    int port = Integer.parseInt(cells[1].trim());
    assertThat(port).as("the read ran on a replica").isIn(REPLICA_PORTS);
    try (Connection replica = Topology.plain(port)) {
      assertThat(cells[2].trim()).isEqualTo(Topology.queryString(replica, "SELECT @@server_uuid"));
    }

    // The servers' own statement counts: the write on the primary, the read on that replica only.
    assertThat(Topology.statementsLike(PRIMARY_PORT, "INSERT INTO `tool_it`") - insertsBefore).isEqualTo(1);
    Map<Integer, Long> selectsAfter = selectsPerServer();
    for (int server : selectsAfter.keySet()) {
      long ran = selectsAfter.get(server) - selectsBefore.get(server);
      assertThat(ran).as("SELECTs of tool_it on port " + server).isEqualTo(server == port ? 1 : 0);
    }
  }

  private static Map<Integer, Long> selectsPerServer() throws SQLException {
    Map<Integer, Long> counts = new HashMap<>();
    counts.put(PRIMARY_PORT, Topology.statementsLike(PRIMARY_PORT, "FROM `tool_it`"));
    for (int port : REPLICA_PORTS) {
      counts.put(port, Topology.statementsLike(port, "FROM `tool_it`"));
    }
    return counts;
  }
}
