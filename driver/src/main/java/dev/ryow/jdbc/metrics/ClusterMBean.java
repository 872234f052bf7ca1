package dev.ryow.jdbc.metrics;

import dev.ryow.jdbc.config.RyowProperties;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanInfo;
import javax.management.MBeanNotificationInfo;
import javax.management.ReflectionException;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenMBeanAttributeInfoSupport;
import javax.management.openmbean.OpenMBeanConstructorInfoSupport;
import javax.management.openmbean.OpenMBeanInfoSupport;
import javax.management.openmbean.OpenMBeanOperationInfoSupport;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import javax.management.openmbean.TabularData;
import javax.management.openmbean.TabularDataSupport;
import javax.management.openmbean.TabularType;
import org.jspecify.annotations.Nullable;

/**
 * The JMX view of one cluster: read-only open-type attributes, so any JMX client (JConsole,
 * VisualVM, a Prometheus JMX exporter) reads them without this driver's classes.
 *
 * <ul>
 *   <li>{@code ClusterName}: the cluster's name;
 *   <li>one attribute per component of {@link MetricsSnapshot} (and per public derived value such as
 *       {@code replicaShare()}), named with a capital first letter: {@code ReplicaReads}, {@code WaitNanos}...;
 *   <li>{@code Replicas}: a table with one row per replica and one column per component of {@link ReplicaState}.
 * </ul>
 *
 * <p>The attribute list is computed once, from the record classes, when the MBean is built: a counter
 * added to {@link MetricsSnapshot} appears here without further code. Reading attributes takes one
 * snapshot per request and never touches the statement path.
 */
public final class ClusterMBean implements DynamicMBean {
  /** The attribute holding the cluster's name. */
  public static final String CLUSTER_NAME = "ClusterName";
  /** The attribute holding the per-replica table. */
  public static final String REPLICAS = "Replicas";

  private static final Map<String, Accessor> METRICS = accessors(MetricsSnapshot.class, true);
  private static final Map<String, Accessor> REPLICA_COLUMNS = accessors(ReplicaState.class, false);
  private static final CompositeType REPLICA_ROW = replicaRowType();
  private static final TabularType REPLICA_TABLE = replicaTableType();
  private static final MBeanInfo INFO = info();

  private final String clusterName;
  private final Supplier<MetricsSnapshot> metrics;
  private final Supplier<List<ReplicaState>> replicas;

  /**
   * An MBean that reads {@code metrics} and {@code replicas} on demand.
   *
   * @param clusterName the cluster's name, as in log messages
   * @param metrics the current counters
   * @param replicas the current state of each replica, in URL order
   */
  public ClusterMBean(String clusterName, Supplier<MetricsSnapshot> metrics, Supplier<List<ReplicaState>> replicas) {
    this.clusterName = Objects.requireNonNull(clusterName);
    this.metrics = Objects.requireNonNull(metrics);
    this.replicas = Objects.requireNonNull(replicas);
  }

  /** The names of the attributes taken from {@link MetricsSnapshot}, in record order. */
  public static List<String> metricAttributeNames() {
    return List.copyOf(METRICS.keySet());
  }

  /** The JMX attribute name for a record component or method name: {@code replicaReads} → {@code ReplicaReads}. */
  public static String attributeName(String componentName) {
    return componentName.substring(0, 1).toUpperCase(Locale.ROOT) + componentName.substring(1);
  }

  @Override
  public Object getAttribute(String attribute) throws AttributeNotFoundException, ReflectionException {
    return read(attribute, null);
  }

  @Override
  public AttributeList getAttributes(String[] attributes) {
    MetricsSnapshot snapshot = metrics.get();
    AttributeList list = new AttributeList();
    for (String name : attributes) {
      try {
        list.add(new Attribute(name, read(name, snapshot)));
      } catch (AttributeNotFoundException | ReflectionException skipped) {
        // JMX semantics: attributes that cannot be read are left out of the list.
      }
    }
    return list;
  }

  private Object read(String attribute, @Nullable MetricsSnapshot snapshot)
      throws AttributeNotFoundException, ReflectionException {
    if (CLUSTER_NAME.equals(attribute)) {
      return clusterName;
    }
    if (REPLICAS.equals(attribute)) {
      return replicaTable();
    }
    Accessor accessor = METRICS.get(attribute);
    if (accessor == null) {
      throw new AttributeNotFoundException("No attribute " + attribute + " on the MBean of cluster " + clusterName);
    }
    return accessor.read(snapshot == null ? metrics.get() : snapshot);
  }

  private TabularData replicaTable() throws ReflectionException {
    TabularDataSupport table = new TabularDataSupport(REPLICA_TABLE);
    String[] names = REPLICA_COLUMNS.keySet().toArray(String[]::new);
    for (ReplicaState state : replicas.get()) {
      Object[] values = new Object[names.length];
      int i = 0;
      for (Accessor column : REPLICA_COLUMNS.values()) {
        values[i++] = column.read(state);
      }
      try {
        table.put(new CompositeDataSupport(REPLICA_ROW, names, values));
      } catch (OpenDataException e) {
        throw new ReflectionException(e, "replica row does not fit its type");
      }
    }
    return table;
  }

  @Override
  public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
    throw new AttributeNotFoundException("Attributes of cluster MBeans are read-only: " + attribute.getName());
  }

  @Override
  public AttributeList setAttributes(AttributeList attributes) {
    return new AttributeList();
  }

  @Override
  public Object invoke(String actionName, Object[] params, String[] signature) throws ReflectionException {
    throw new ReflectionException(
        new NoSuchMethodException(actionName), "Cluster MBeans have no operations: " + actionName);
  }

  @Override
  public MBeanInfo getMBeanInfo() {
    return INFO;
  }

  // ---------------------------------------------------------------- built once per class

  /** How one attribute (or table column) is read from its record, and its open type. */
  private record Accessor(Method method, OpenType<?> type, String description) {
    Object read(Object record) throws ReflectionException {
      Object value;
      try {
        value = method.invoke(record);
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new ReflectionException(e, "reading " + method.getName());
      }
      return SimpleType.STRING.equals(type) && !(value instanceof String) ? String.valueOf(value) : value;
    }
  }

  /**
   * One accessor per record component and, with {@code derived}, per other public no-argument value
   * method declared by the record (such as {@code replicaShare()}), keyed by attribute name.
   */
  private static Map<String, Accessor> accessors(Class<? extends Record> type, boolean derived) {
    Map<String, Accessor> out = new LinkedHashMap<>();
    List<String> componentNames = new ArrayList<>();
    for (RecordComponent component : type.getRecordComponents()) {
      componentNames.add(component.getName());
      Method m = component.getAccessor();
      out.put(attributeName(component.getName()),
          new Accessor(m, openType(m.getReturnType()), describe(type, component.getName())));
    }
    if (derived) {
      for (Method m : type.getDeclaredMethods()) {
        int mod = m.getModifiers();
        if (Modifier.isPublic(mod) && !Modifier.isStatic(mod) && m.getParameterCount() == 0
            && m.getReturnType() != void.class && !componentNames.contains(m.getName())
            && !List.of("toString", "hashCode").contains(m.getName())) {
          out.put(attributeName(m.getName()),
              new Accessor(m, openType(m.getReturnType()), describe(type, m.getName()) + " (derived)"));
        }
      }
    }
    return java.util.Collections.unmodifiableMap(out);
  }

  private static String describe(Class<?> type, String name) {
    String unit = name.endsWith("Nanos") ? ", nanoseconds" : name.endsWith("Millis") ? ", milliseconds" : "";
    return type.getSimpleName() + "." + name + "()" + unit;
  }

  private static OpenType<?> openType(Class<?> javaType) {
    if (javaType == long.class || javaType == Long.class) {
      return SimpleType.LONG;
    }
    if (javaType == int.class || javaType == Integer.class) {
      return SimpleType.INTEGER;
    }
    if (javaType == double.class || javaType == Double.class) {
      return SimpleType.DOUBLE;
    }
    if (javaType == boolean.class || javaType == Boolean.class) {
      return SimpleType.BOOLEAN;
    }
    return SimpleType.STRING;
  }

  private static CompositeType replicaRowType() {
    String[] names = REPLICA_COLUMNS.keySet().toArray(String[]::new);
    OpenType<?>[] types = REPLICA_COLUMNS.values().stream().map(Accessor::type).toArray(OpenType<?>[]::new);
    String[] descriptions = REPLICA_COLUMNS.values().stream().map(Accessor::description).toArray(String[]::new);
    try {
      return new CompositeType("ReplicaState", "What the cluster knows of one replica", names, descriptions, types);
    } catch (OpenDataException e) {
      throw new IllegalStateException(e);
    }
  }

  private static TabularType replicaTableType() {
    try {
      return new TabularType(
          "Replicas", "One row per replica, in URL order", REPLICA_ROW,
          new String[] {REPLICA_COLUMNS.keySet().iterator().next()});
    } catch (OpenDataException e) {
      throw new IllegalStateException(e);
    }
  }

  private static MBeanInfo info() {
    List<OpenMBeanAttributeInfoSupport> attributes = new ArrayList<>();
    attributes.add(new OpenMBeanAttributeInfoSupport(
        CLUSTER_NAME, RyowProperties.CLUSTER_NAME.name() + ", or the primary's host:port", SimpleType.STRING, true, false,
        false));
    METRICS.forEach((name, accessor) ->
        attributes.add(new OpenMBeanAttributeInfoSupport(name, accessor.description(), accessor.type(), true, false, false)));
    attributes.add(new OpenMBeanAttributeInfoSupport(
        REPLICAS, "Per-replica state, one row per replica", REPLICA_TABLE, true, false, false));
    return new OpenMBeanInfoSupport(
        ClusterMBean.class.getName(),
        "A jdbc:ryow: cluster: counters and timings of all its connections in this JVM, and its replicas",
        attributes.toArray(OpenMBeanAttributeInfoSupport[]::new),
        new OpenMBeanConstructorInfoSupport[0],
        new OpenMBeanOperationInfoSupport[0],
        new MBeanNotificationInfo[0]);
  }
}
