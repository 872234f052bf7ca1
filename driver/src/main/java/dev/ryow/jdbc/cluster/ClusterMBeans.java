package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.metrics.ClusterMBean;
import dev.ryow.jdbc.metrics.ReplicaState;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers one {@link ClusterMBean} per cluster as {@code dev.ryow.jdbc:type=Cluster,name=NAME}, where
 * NAME is {@code ryow.clusterName} or the primary's {@code host:port} (quoted as JMX requires when it
 * contains {@code : , = " * ?}). A second cluster with the same name in the same JVM (other settings,
 * another class loader) is registered as {@code NAME#2}, {@code NAME#3}...
 */
public final class ClusterMBeans {
  /** The JMX domain of this driver's MBeans. */
  public static final String DOMAIN = "dev.ryow.jdbc";

  private static final Logger LOG = LoggerFactory.getLogger(ClusterMBeans.class);
  private static final int MAX_INSTANCES = 1000;

  private ClusterMBeans() {}

  /** Registers {@code cluster} with the platform MBean server and returns it; a failure is logged, never thrown. */
  public static Cluster register(Cluster cluster) {
    cluster.lease().registeredAs(register(cluster, ManagementFactory.getPlatformMBeanServer()));
    return cluster;
  }

  /** Unregisters the MBean {@link #register(Cluster)} registered for {@code cluster}, if any; never throws. */
  static void unregister(Cluster cluster) {
    ObjectName name = cluster.lease().mbean();
    if (name == null) {
      return;
    }
    cluster.lease().registeredAs(null);
    try {
      ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
      LOG.debug("[{}] JMX MBean {} unregistered", cluster.name(), name);
    } catch (JMException | RuntimeException e) {
      LOG.debug("[{}] JMX MBean {} could not be unregistered: {}", cluster.name(), name, e.toString());
    }
  }

  /** Registers {@code cluster} with {@code server}; returns the name used, or null if registration failed. */
  public static @Nullable ObjectName register(Cluster cluster, MBeanServer server) {
    ClusterMBean bean = new ClusterMBean(cluster.name(), cluster.metrics()::snapshot, () -> replicaStates(cluster));
    try {
      for (int instance = 1; instance <= MAX_INSTANCES; instance++) {
        ObjectName name = objectName(instance == 1 ? cluster.name() : cluster.name() + "#" + instance);
        try {
          server.registerMBean(bean, name);
          LOG.debug("[{}] JMX MBean registered as {}", cluster.name(), name);
          return name;
        } catch (InstanceAlreadyExistsException taken) {
          // Same name in this JVM already: try the next instance number.
        }
      }
      LOG.warn("[{}] no JMX MBean registered: {} clusters of this name exist", cluster.name(), MAX_INSTANCES);
    } catch (JMException | RuntimeException e) {
      LOG.warn("[{}] no JMX MBean registered: {}", cluster.name(), e.toString());
    }
    return null;
  }

  /** {@code dev.ryow.jdbc:type=Cluster,name=NAME}, NAME quoted when JMX requires it. */
  public static ObjectName objectName(String clusterName) throws MalformedObjectNameException {
    return new ObjectName(DOMAIN + ":type=Cluster,name=" + quoteIfNeeded(clusterName));
  }

  private static String quoteIfNeeded(String value) {
    for (int i = 0; i < value.length(); i++) {
      if (",=:\"*?\\\n".indexOf(value.charAt(i)) >= 0) {
        return ObjectName.quote(value);
      }
    }
    return value.isEmpty() ? ObjectName.quote(value) : value;
  }

  /** One row per replica; a replica's health and problem come from one {@link HealthState}, never torn. */
  static List<ReplicaState> replicaStates(Cluster cluster) {
    ReplicaEndpoint primary = cluster.primaryEndpoint();
    List<ReplicaState> rows = new ArrayList<>();
    for (ReplicaEndpoint r : cluster.servers()) {
      HealthState health = r.healthState();
      if (r != primary && health.health() != Health.VACANT) {
        rows.add(new ReplicaState(r.host().address(), r.knownExecuted().toString(),
            cluster.waits().waitBoundMillis(r.smoothedWait()), health.health().name(),
            health.problem()));
      }
    }
    return rows;
  }
}
