package dev.ryow.jdbc.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import javax.management.Attribute;
import javax.management.AttributeNotFoundException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.Test;

/** Every component of {@link MetricsSnapshot} is an attribute, with no list to keep in step by hand. */
class ClusterMBeanTest {

  /** A snapshot whose i-th component is i + 1 (whatever components the record has today). */
  private static MetricsSnapshot numbered() throws Exception {
    RecordComponent[] components = MetricsSnapshot.class.getRecordComponents();
    Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
    Object[] values = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      values[i] = value(types[i], i + 1);
    }
    return MetricsSnapshot.class.getDeclaredConstructor(types).newInstance(values);
  }

  private static Object value(Class<?> type, int n) {
    if (type == long.class) {
      return (long) n;
    }
    if (type == int.class) {
      return n;
    }
    if (type == double.class) {
      return (double) n;
    }
    if (type == boolean.class) {
      return n % 2 == 0;
    }
    if (type == String.class) {
      return "s" + n;
    }
    throw new AssertionError("extend this test for component type " + type);
  }

  @Test
  void everySnapshotComponentIsAnAttributeWithItsValue() throws Exception {
    MetricsSnapshot snapshot = numbered();
    MBeanServer server = MBeanServerFactory.newMBeanServer();
    ObjectName name = new ObjectName("dev.ryow.jdbc:type=Cluster,name=test");
    server.registerMBean(
        new ClusterMBean("test", () -> snapshot, () -> List.of(new ReplicaState("r1:3306", "u:1-5", 100, "UP", ""),
            new ReplicaState("r2:3306", "", 12, "LAGGING", "applier lag 40000 ms"))),
        name);

    List<String> attributes =
        Arrays.stream(server.getMBeanInfo(name).getAttributes()).map(MBeanAttributeInfo::getName).toList();
    RecordComponent[] components = MetricsSnapshot.class.getRecordComponents();
    for (int i = 0; i < components.length; i++) {
      String attribute = ClusterMBean.attributeName(components[i].getName());
      assertThat(attributes).contains(attribute);
      Object expected = value(components[i].getType(), i + 1);
      assertThat(server.getAttribute(name, attribute)).as(attribute).isEqualTo(expected);
    }
    assertThat(ClusterMBean.metricAttributeNames()).hasSizeGreaterThan(components.length - 1);
    assertThat(server.getAttribute(name, "ReplicaShare")).isEqualTo(snapshot.replicaShare());
    assertThat(server.getAttribute(name, "ClusterName")).isEqualTo("test");
    assertThat(server.getAttributes(name, new String[] {"ReplicaReads", "Nope"}).asList())
        .extracting(Attribute::getName).containsExactly("ReplicaReads");

    TabularData replicas = (TabularData) server.getAttribute(name, "Replicas");
    assertThat(replicas.values()).hasSize(2);
    CompositeData r1 = replicas.get(new Object[] {"r1:3306"});
    assertThat(r1.get("Address")).isEqualTo("r1:3306");
    assertThat(r1.get("KnownExecuted")).isEqualTo("u:1-5");
    assertThat(r1.get("Health")).isEqualTo("UP");
    assertThat(r1.get("WaitBoundMillis")).isEqualTo(100L);
    CompositeData r2 = replicas.get(new Object[] {"r2:3306"});
    assertThat(r2.get("Health")).isEqualTo("LAGGING");
    assertThat(r2.get("Problem")).isEqualTo("applier lag 40000 ms");
    assertThat(r1.getCompositeType().keySet())
        .hasSize(ReplicaState.class.getRecordComponents().length);
  }

  @Test
  void attributesAreReadOnly() throws Exception {
    MetricsSnapshot snapshot = numbered();
    ClusterMBean bean = new ClusterMBean("c", () -> snapshot, List::of);
    assertThatThrownBy(() -> bean.setAttribute(new Attribute("ReplicaReads", 1L)))
        .isInstanceOf(AttributeNotFoundException.class);
    assertThatThrownBy(() -> bean.getAttribute("Bogus")).isInstanceOf(AttributeNotFoundException.class);
    assertThat(Arrays.stream(bean.getMBeanInfo().getAttributes()).noneMatch(MBeanAttributeInfo::isWritable)).isTrue();
  }
}
