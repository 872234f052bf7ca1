package dev.ryow.jdbc.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every method of the JDBC interfaces is implemented by one of our classes: a delegating or routing
 * method, never an interface default left to throw {@code UnsupportedOperationException} or
 * {@code SQLFeatureNotSupportedException} by accident (a default of the driver's own generated
 * {@link RecordedParameters} is one of ours).
 */
class JdbcSurfaceTest {
  /**
   * Atomikos (and other proxies of a JDBC object) invoke a method by reflection through whichever of the
   * object's interfaces declares it: one that is not public fails there with IllegalAccessException (seen
   * with {@code RecordedParameters} under a JTA transaction).
   */
  @Test
  void everyJdbcInterfaceTheWrappersImplementIsPublic() {
    List<String> hidden = new ArrayList<>();
    for (Class<?> wrapper : List.of(LogicalConnection.class, RoutingStatement.class, RoutingPreparedStatement.class,
        PrimaryCallableStatement.class, RoutedResultSet.class, RoutedDatabaseMetaData.class)) {
      for (Class<?> c = wrapper; c != null; c = c.getSuperclass()) {
        for (Class<?> i : c.getInterfaces()) {
          if (java.sql.Wrapper.class.isAssignableFrom(i) && !Modifier.isPublic(i.getModifiers())) {
            hidden.add(wrapper.getSimpleName() + " implements " + i.getName());
          }
        }
      }
    }
    assertThat(hidden).as("JDBC interfaces of ours that are not public").isEmpty();
  }


  static Stream<Arguments> wrappers() {
    return Stream.of(
        Arguments.of(Connection.class, LogicalConnection.class),
        Arguments.of(Statement.class, RoutingStatement.class),
        Arguments.of(PreparedStatement.class, RoutingPreparedStatement.class),
        Arguments.of(CallableStatement.class, PrimaryCallableStatement.class),
        Arguments.of(ResultSet.class, RoutedResultSet.class),
        Arguments.of(DatabaseMetaData.class, RoutedDatabaseMetaData.class));
  }

  @ParameterizedTest(name = "{1} implements all of {0}")
  @MethodSource("wrappers")
  void everyInterfaceMethodIsImplementedByTheWrapper(Class<?> jdbcInterface, Class<?> wrapper) throws Exception {
    assertThat(jdbcInterface).isAssignableFrom(wrapper);
    List<String> missing = new ArrayList<>();
    int checked = 0;
    for (Method m : jdbcInterface.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      Method impl = wrapper.getMethod(m.getName(), m.getParameterTypes());
      checked++;
      // A default of our own generated interface (RecordedParameters' setters) is an implementation.
      boolean jdbcDefault = impl.getDeclaringClass().isInterface() && impl.getDeclaringClass().getName().startsWith("java.");
      if (jdbcDefault || Modifier.isAbstract(impl.getModifiers())) {
        missing.add(m.toGenericString());
      }
    }
    assertThat(checked).as("methods checked").isGreaterThan(10);
    assertThat(missing).as("JDBC methods without an implementation in " + wrapper.getSimpleName()).isEmpty();
  }
}
