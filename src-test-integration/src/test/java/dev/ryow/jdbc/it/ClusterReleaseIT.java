package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.RyowDriver;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Clusters (with their poller and MBean) live while connections use them, plus
 * {@code ryow.clusterIdleTimeout}: then they are released, and created again on demand. Every
 * {@code RyowDriver} instance shares them. The JVM's writes survive a release, so the default
 * consistency holds across it. MBeans are counted on the platform MBean server, pollers as threads.
 */
class ClusterReleaseIT {
  /** The setting under test, short so that the test does not wait a minute. */
  private static final String QUICK_RELEASE = "ryow.clusterIdleTimeout=500";

  @BeforeAll
  static void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_release", "id INT PRIMARY KEY, v VARCHAR(16)");
  }

  @AfterEach
  void appliersBack() throws SQLException {
    Topology.resumeAppliers();
  }

  private static int mbeans(String namePattern) throws MalformedObjectNameException {
    return ManagementFactory.getPlatformMBeanServer()
        .queryNames(new ObjectName("dev.ryow.jdbc:type=Cluster,name=" + namePattern), null).size();
  }

  private static long pollers(String namePrefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("ryow-monitor-" + namePrefix))
        .count();
  }

  private static int port(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@port")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** Waits up to 30 s for {@code count} to reach 0; returns the last value. */
  private static long drained(java.util.function.LongSupplier count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    long n = count.getAsLong();
    while (n > 0 && System.nanoTime() < deadline) {
      Thread.sleep(100);
      n = count.getAsLong();
    }
    return n;
  }

  private static long mbeansQuietly(String pattern) {
    try {
      return mbeans(pattern);
    } catch (MalformedObjectNameException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void twoHundredClusterNamesLeaveNoMBeanNorPollerOnceReleased() throws Exception {
    String prefix = "release-it-" + System.nanoTime() + "-";
    int most = 0;
    for (int i = 0; i < 200; i++) {
      try (Connection c = Topology.ryow("ryow.clusterName=" + prefix + i, QUICK_RELEASE)) {
        if (i == 0 || i == 199) {
          assertThat(port(c)).isIn(REPLICA_PORTS);
        }
        most = Math.max(most, mbeans(prefix + "*"));
      }
    }
    System.out.printf("200 clusters: at most %d MBeans registered at once%n", most);
    assertThat(most).as("each cluster had its MBean while used").isPositive();
    long left = drained(() -> mbeansQuietly(prefix + "*"));
    long pollersLeft = drained(() -> pollers(prefix));
    System.out.printf("after release: %d MBeans, %d pollers%n", left, pollersLeft);
    assertThat(left).as("MBeans left of the 200 clusters after release").isZero();
    assertThat(pollersLeft).as("pollers left").isZero();

    // Created again on demand: a new MBean, counters from zero, reads on the replicas.
    try (Connection again = Topology.ryow("ryow.clusterName=" + prefix + 0, QUICK_RELEASE)) {
      assertThat(mbeans(prefix + "0")).isEqualTo(1);
      assertThat(again.unwrap(RyowConnection.class).clusterMetrics().replicaReads()).isZero();
      assertThat(port(again)).isIn(REPLICA_PORTS);
      assertThat(again.unwrap(RyowConnection.class).clusterMetrics().replicaReads()).isEqualTo(1);
    }
  }

  @Test
  void twoDriverInstancesShareOneClusterAndOnePoller() throws Exception {
    String name = "shared-it-" + System.nanoTime();
    Properties login = new Properties();
    String url = Topology.ryowUrl("ryow.clusterName=" + name);
    Driver a = new RyowDriver();
    Driver b = new RyowDriver();
    try (Connection first = a.connect(url, login);
        Connection second = b.connect(url, login);
        Statement s = first.createStatement()) {
      s.executeUpdate("REPLACE INTO it_release VALUES (1, 'shared')");
      assertThat(port(second)).isIn(REPLICA_PORTS);
      assertThat(pollers(name)).as("poller threads of the cluster").isEqualTo(1);
      assertThat(mbeans(name + "*")).as("MBeans of the cluster (no #2)").isEqualTo(1);
      assertThat(second.unwrap(RyowConnection.class).clusterMetrics().primaryWrites())
          .as("one cluster: the second driver's connection sees the first one's write counted").isEqualTo(1);
      assertThat(first.unwrap(RyowConnection.class).clusterMetrics().replicaReads())
          .as("and the first sees the second one's read").isEqualTo(1);
    }
  }

  @Test
  void theJvmsWritesOutliveARelease() throws Exception {
    // Default consistency (jvm): a read on any connection of this JVM sees the JVM's earlier writes, even
    // when the cluster was released in between and the reading connection belongs to the new one.
    String name = "release-writes-it-" + System.nanoTime();
    try (Connection writer = Topology.ryow("ryow.clusterName=" + name, QUICK_RELEASE)) {
      Topology.awaitInRotation(writer);
      Topology.pauseAppliers();
      try (Statement s = writer.createStatement()) {
        s.executeUpdate("REPLACE INTO it_release VALUES (2, 'before')");
      }
    }
    assertThat(drained(() -> mbeansQuietly(name))).as("the cluster was released").isZero();
    try (Connection reader = Topology.ryow("ryow.clusterName=" + name, QUICK_RELEASE);
        Statement s = reader.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*), @@port FROM it_release WHERE id = 2 AND v = 'before'")) {
      rs.next();
      System.out.printf("read after the release: %d row(s) on %d%n", rs.getInt(1), rs.getInt(2));
      assertThat(rs.getInt(1)).as("the write made before the release is seen").isEqualTo(1);
      assertThat(rs.getInt(2)).as("the replicas lack it: the primary answered").isEqualTo(PRIMARY_PORT);
    }
  }
}
