package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.cluster.ClusterMBeans;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.metrics.ClusterMBean;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import dev.ryow.jdbc.micrometer.RyowMeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.reflect.RecordComponent;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster MBean read through JMX after a workload, compared with what the servers counted
 * themselves (performance_schema statement digests, all sessions).
 */
class JmxMetricsIT {
  private static final String WAIT_DIGEST = "WAIT_FOR_EXECUTED_GTID_SET";

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  private static long onReplicas(String digestFragment) throws SQLException {
    long sum = 0;
    for (int port : REPLICA_PORTS) {
      sum += Topology.statementsLike(port, digestFragment);
    }
    return sum;
  }

  private static long attribute(MBeanServerConnection jmx, ObjectName name, String attribute) throws Exception {
    return ((Number) jmx.getAttribute(name, attribute)).longValue();
  }

  @Test
  void mbeanCountersMatchWhatTheServersExecuted() throws Exception {
    String clusterName = "jmx-it-" + System.nanoTime();
    Topology.recreateTable("jmx_it", "id INT PRIMARY KEY, v INT NOT NULL");
    MBeanServerConnection jmx = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = ClusterMBeans.objectName(clusterName);

    long primaryInserts = Topology.statementsLike(PRIMARY_PORT, "INSERT INTO `jmx_it`");
    long primarySelects = Topology.statementsLike(PRIMARY_PORT, "FROM `jmx_it`");
    long replicaSelects = onReplicas("FROM `jmx_it`");
    long replicaWaits = onReplicas(WAIT_DIGEST);

    // A generous timeout: on a busy machine the replica must never miss it for the first five reads. It
    // stays under ReplicaWait's 500 ms slice, so that each wait is one statement on the server.
    // The poller is slowed to once in 10 minutes so that it cannot take the paused replica out of rotation
    // in the middle of the workload: every count below is then exact.
    try (Connection c = Topology.ryowPolledOnce(
            "ryow.clusterName=" + clusterName, "ryow.waitTimeout=450", "ryow.pollInterval=600000");
        Statement s = c.createStatement()) {
      assertThat(jmx.isRegistered(name)).as("registered when the cluster was created").isTrue();
      for (int i = 1; i <= 5; i++) {
        s.executeUpdate("INSERT INTO jmx_it (id, v) VALUES (" + i + ", " + i + ")");
        try (ResultSet rs = s.executeQuery("SELECT v FROM jmx_it WHERE id = " + i)) {
          assertThat(rs.next()).isTrue();
        }
      }
      for (int i = 1; i <= 3; i++) {
        try (ResultSet rs = s.executeQuery("SELECT v FROM jmx_it WHERE id = " + i)) {
          assertThat(rs.next()).isTrue();
        }
      }
      Topology.pauseAppliers();
      s.executeUpdate("INSERT INTO jmx_it (id, v) VALUES (6, 6)");
      try (ResultSet rs = s.executeQuery("SELECT v FROM jmx_it WHERE id = 6")) {
        assertThat(rs.next()).as("read on the primary after the replica timed out").isTrue();
      }

      // What the servers executed, before anything else (resumeAppliers waits on the replicas too).
      long insertsRan = Topology.statementsLike(PRIMARY_PORT, "INSERT INTO `jmx_it`") - primaryInserts;
      long primarySelectsRan = Topology.statementsLike(PRIMARY_PORT, "FROM `jmx_it`") - primarySelects;
      long replicaSelectsRan = onReplicas("FROM `jmx_it`") - replicaSelects;
      long waitsRan = onReplicas(WAIT_DIGEST) - replicaWaits;
      assertThat(insertsRan).isEqualTo(6);
      assertThat(primarySelectsRan + replicaSelectsRan).isEqualTo(9);

      assertThat(attribute(jmx, name, "PrimaryWrites")).isEqualTo(insertsRan);
      assertThat(attribute(jmx, name, "PrimaryReads")).isEqualTo(primarySelectsRan).isEqualTo(1);
      assertThat(attribute(jmx, name, "ReplicaReads")).isEqualTo(replicaSelectsRan).isEqualTo(8);
      assertThat(attribute(jmx, name, "Waits")).isEqualTo(waitsRan).isEqualTo(6);
      assertThat(attribute(jmx, name, "WaitsSkipped")).isEqualTo(3);
      assertThat(attribute(jmx, name, "WaitsTimedOut")).isEqualTo(1);
      assertThat(attribute(jmx, name, "FallbacksToPrimary")).isEqualTo(1);
      assertThat(attribute(jmx, name, "WaitNanos")).isPositive();
      assertThat((Double) jmx.getAttribute(name, "ReplicaShare")).isEqualTo(8 / 9.0);

      // The Micrometer binder publishes the same counts.
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      RyowMeterBinder.of(c).bindTo(registry);
      assertThat(registry.get("ryow.writes").tag("cluster", clusterName).functionCounter().count())
          .isEqualTo(insertsRan);
      assertThat(registry.get("ryow.reads").tags("cluster", clusterName, "server", "primary").functionCounter().count())
          .isEqualTo(primarySelectsRan);
      assertThat(registry.get("ryow.reads").tags("cluster", clusterName, "server", "replica").functionCounter().count())
          .isEqualTo(replicaSelectsRan);
      assertThat(registry.get("ryow.waits").tag("cluster", clusterName).functionTimer().count()).isEqualTo(waitsRan);
      assertThat(registry.get("ryow.fallbacks.to.primary").tag("cluster", clusterName).functionCounter().count())
          .isEqualTo(1);
      assertThat(jmx.getAttribute(name, "ClusterName")).isEqualTo(clusterName);

      // Every component of the snapshot is exposed, with the value the connection itself reports.
      MetricsSnapshot snapshot = c.unwrap(RyowConnection.class).clusterMetrics();
      for (RecordComponent component : MetricsSnapshot.class.getRecordComponents()) {
        assertThat(jmx.getAttribute(name, ClusterMBean.attributeName(component.getName())))
            .as(component.getName())
            .isEqualTo(component.getAccessor().invoke(snapshot));
      }
      assertThat(Arrays.stream(jmx.getMBeanInfo(name).getAttributes()).map(MBeanAttributeInfo::getName))
          .contains("Replicas", "ClusterName");

      // Per-replica state: one row per replica; what the cluster knows of a replica (from waits and the
      // poller) is never ahead of what that replica itself reports having executed.
      TabularData replicas = (TabularData) jmx.getAttribute(name, "Replicas");
      assertThat(replicas.values()).hasSize(REPLICA_PORTS.size());
      for (int port : REPLICA_PORTS) {
        CompositeData row = replicas.get(new Object[] {Topology.HOST + ":" + port});
        assertThat(row).as("row for replica %d", port).isNotNull();
        String known = (String) row.get("KnownExecuted");
        GtidSet actual;
        try (Connection r = Topology.plain(port)) {
          actual = GtidSet.parse(Topology.queryString(r, "SELECT @@global.gtid_executed"));
        }
        assertThat(actual.contains(GtidSet.parse(known))).as("replica %d knows %s, has %s", port, known, actual).isTrue();
      }
      assertThat(replicas.values().stream().map(row -> (String) ((CompositeData) row).get("KnownExecuted")))
          .as("the replicas' positions were learned").anyMatch(known -> !known.isEmpty());
    }
  }
}
