package dev.ryow.jdbc.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.server.PhysicalConnection;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URL;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.JDBCType;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every JDBC method of every delegating wrapper reaches its delegate with the same arguments and
 * returns the delegate's result (a result set as the application's view of it); every
 * {@link SQLException} of the delegate reaches the caller unchanged after passing the exception hook
 * ({@link LinkFailures}) with the physical connection; a closed wrapper refuses every method with the
 * same exception. The delegates are recording stubs ({@link Proxy}): this tests delegation, not a
 * database. The few methods that deliberately do something else are listed with the reason.
 */
class DelegationTest {

  /** Methods that do not pass the call on, and why. */
  private static final Map<Class<?>, Map<String, String>> NOT_DELEGATED = Map.of(
      CallableStatement.class, Map.of("getConnection", "returns the logical connection, not the physical one"),
      ResultSet.class, Map.of("getStatement", "returns the application's statement wrapper (null for metadata)"),
      DatabaseMetaData.class, Map.of("getConnection", "returns the logical connection, not the physical one"),
      Connection.class, Map.of());

  /**
   * The {@link Connection} methods {@link LogicalConnection} writes itself (the session's, not the
   * primary's); every other one is the generated pass-through of {@link DelegatingConnection}.
   */
  private static final Set<String> HAND_WRITTEN_CONNECTION = Set.of(
      "abort", "beginRequest", "clearWarnings", "close", "commit", "createStatement", "endRequest", "getAutoCommit",
      "getHoldability", "getMetaData", "isClosed",
      "isReadOnly", "isValid", "prepareCall", "prepareStatement", "releaseSavepoint", "rollback", "setAutoCommit",
      "setCatalog", "setClientInfo", "setHoldability", "setNetworkTimeout", "setReadOnly", "setSavepoint", "setSchema",
      "setTransactionIsolation");

  /** One recorded call on a stub. */
  record Call(Method method, Object[] args) {}

  /** A stub of {@code type} that records its calls and answers each with a new sample value (or throws). */
  static final class Recorder implements java.lang.reflect.InvocationHandler {
    final List<Call> calls = new ArrayList<>();
    final List<Object> answers = new ArrayList<>();
    SQLException toThrow;

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class) {
        return objectMethod(proxy, method, args);
      }
      calls.add(new Call(method, args == null ? new Object[0] : args));
      if (toThrow != null) {
        throw toThrow;
      }
      Object answer = sample(method.getReturnType(), 100 + answers.size());
      answers.add(answer);
      return answer;
    }
  }

  private static Object objectMethod(Object proxy, Method method, Object[] args) {
    return switch (method.getName()) {
      case "hashCode" -> System.identityHashCode(proxy);
      case "equals" -> proxy == args[0];
      default -> "stub";
    };
  }

  @SuppressWarnings("unchecked")
  static <T> T stub(Class<T> type, java.lang.reflect.InvocationHandler handler) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
  }

  /** A sample value of {@code type}, distinct for each {@code i} where the type allows. */
  static Object sample(Class<?> type, int i) throws Exception {
    if (type == void.class) {
      return null;
    }
    if (type == int.class) {
      return 7 + i;
    }
    if (type == long.class) {
      return 70L + i;
    }
    if (type == short.class) {
      return (short) (3 + i);
    }
    if (type == byte.class) {
      return (byte) (5 + i);
    }
    if (type == float.class) {
      return 1.5f + i;
    }
    if (type == double.class) {
      return 2.5 + i;
    }
    if (type == boolean.class) {
      return i % 2 == 0;
    }
    if (type == String.class) {
      return "text" + i;
    }
    if (type == Class.class) {
      return Driver.class; // a class no wrapper implements: unwrap and isWrapperFor pass it on
    }
    if (type.isArray()) {
      return java.lang.reflect.Array.newInstance(type.getComponentType(), 1 + i % 3);
    }
    if (type == BigDecimal.class) {
      return new BigDecimal(i);
    }
    if (type == java.sql.Date.class) {
      return new java.sql.Date(i);
    }
    if (type == java.sql.Time.class) {
      return new java.sql.Time(i);
    }
    if (type == java.sql.Timestamp.class) {
      return new java.sql.Timestamp(i);
    }
    if (type == Calendar.class) {
      return Calendar.getInstance();
    }
    if (type == InputStream.class) {
      return new ByteArrayInputStream(new byte[i % 4]);
    }
    if (type == Reader.class) {
      return new StringReader("r" + i);
    }
    if (type == URL.class) {
      return URI.create("http://example.invalid/" + i).toURL();
    }
    if (type == SQLType.class) {
      return JDBCType.values()[i % JDBCType.values().length];
    }
    if (type.isEnum()) {
      Object[] constants = type.getEnumConstants();
      return constants[i % constants.length];
    }
    if (type == java.sql.SQLWarning.class) {
      return new java.sql.SQLWarning("warning " + i);
    }
    if (type == Object.class) {
      return new Object();
    }
    if (type == Map.class) {
      return new HashMap<>();
    }
    if (type == java.util.Properties.class) {
      return new java.util.Properties();
    }
    if (type.isInterface()) {
      return stub(type, new Recorder());
    }
    throw new AssertionError("no sample for " + type);
  }

  /** A wrapper under test around a stub delegate, with the hook's reports. */
  record Subject(Object wrapper, Recorder delegate, List<SQLException> reported, Runnable close) {}

  static Stream<Arguments> wrappers() {
    return Stream.of(
        Arguments.of(CallableStatement.class), Arguments.of(ResultSet.class), Arguments.of(DatabaseMetaData.class),
        Arguments.of(Connection.class));
  }

  /** The wrapper of {@code type} around a recording stub; {@code closed} answers the owner's isClosed. */
  static Subject subject(Class<?> type, boolean[] closed) {
    Recorder delegate = new Recorder();
    List<SQLException> reported = new ArrayList<>();
    LinkFailures failures = (on, e) -> reported.add(e);
    java.lang.reflect.InvocationHandler owner = (proxy, method, args) -> {
      if (method.getDeclaringClass() == Object.class) {
        return objectMethod(proxy, method, args);
      }
      return switch (method.getName()) {
        case "isClosed" -> closed[0];
        case "linkFailed" -> {
          failures.linkFailed((PhysicalConnection) args[0], (SQLException) args[1]);
          yield null;
        }
        default -> null; // primary(), acquire(): the stub's primary connection is null, as "on" below
      };
    };
    PhysicalConnection on = null;
    if (type == CallableStatement.class) {
      PrimaryCallableStatement w = new PrimaryCallableStatement(
          stub(PrimaryCalls.class, owner), on, stub(CallableStatement.class, delegate));
      return new Subject(w, delegate, reported, () -> {
        try {
          w.close();
        } catch (SQLException e) {
          throw new AssertionError(e);
        }
      });
    }
    if (type == Connection.class) {
      Connection physical = stub(Connection.class, delegate);
      DelegatingConnection w = new DelegatingConnection() {
        /** As {@code LogicalConnection}'s ({@code Session.primaryForCall}): a closed connection refuses first. */
        @Override
        Connection delegate() throws SQLException {
          if (closed[0]) {
            throw new SQLException("Connection is closed", "08003");
          }
          return physical;
        }

        @Override
        Connection physical() {
          return physical;
        }

        @Override
        SQLException failed(SQLException e) {
          failures.linkFailed(on, e);
          return e;
        }
      };
      return new Subject(w, delegate, reported, () -> closed[0] = true);
    }
    if (type == ResultSet.class) {
      ResultSet w = RoutedResultSet.wrap(stub(ResultSet.class, delegate), stub(Statement.class, new Recorder()), failures, on);
      return new Subject(w, delegate, reported, () -> {});
    }
    Connection logical = stub(Connection.class, owner);
    RoutedDatabaseMetaData w = new RoutedDatabaseMetaData(stub(DatabaseMetaData.class, delegate), logical, failures, on);
    return new Subject(w, delegate, reported, () -> closed[0] = true);
  }

  static List<Method> methods(Class<?> type) {
    return Arrays.stream(type.getMethods())
        .filter(m -> !Modifier.isStatic(m.getModifiers()))
        .sorted(Comparator.comparing(Method::toGenericString))
        .toList();
  }

  static Object[] arguments(Method m) throws Exception {
    Class<?>[] types = m.getParameterTypes();
    Object[] args = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      args[i] = sample(types[i], i);
    }
    return args;
  }

  private static Object invoke(Object target, Method m, Object[] args) throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @ParameterizedTest(name = "every method of the {0} wrapper reaches its delegate with the same arguments")
  @MethodSource("wrappers")
  void everyMethodReachesTheDelegateWithTheSameArgumentsAndReturnsItsResult(Class<?> type) throws Throwable {
    Set<String> skipped = NOT_DELEGATED.get(type).keySet();
    int checked = 0;
    for (Method m : methods(type)) {
      if (skipped.contains(m.getName())) {
        continue;
      }
      Subject s = subject(type, new boolean[1]); // fresh: close() must not end the others
      s.delegate().calls.clear();
      s.delegate().answers.clear();
      Object[] args = arguments(m);
      Object result = invoke(s.wrapper(), m, args);
      assertThat(s.delegate().calls).as("%s: calls on the delegate", m).hasSize(1);
      Call call = s.delegate().calls.get(0);
      assertThat(call.method().getName()).as("%s: method reached", m).isEqualTo(m.getName());
      assertThat(call.method().getParameterTypes()).as("%s: overload reached", m).isEqualTo(m.getParameterTypes());
      for (int i = 0; i < args.length; i++) {
        if (m.getParameterTypes()[i].isPrimitive()) {
          assertThat(call.args()[i]).as("%s: argument %d", m, i).isEqualTo(args[i]);
        } else {
          assertThat(call.args()[i]).as("%s: argument %d", m, i).isSameAs(args[i]);
        }
      }
      Object answer = s.delegate().answers.get(0);
      if (m.getReturnType() == ResultSet.class) {
        assertThat(result).as("%s: the application's view of the delegate's result set", m).isInstanceOf(RoutedResultSet.class);
        assertThat(((RoutedResultSet) result).physical()).as("%s: the view's delegate", m).isSameAs(answer);
      } else if (m.getReturnType().isPrimitive()) {
        assertThat(result).as("%s: result", m).isEqualTo(answer);
      } else {
        assertThat(result).as("%s: result", m).isSameAs(answer);
      }
      checked++;
    }
    assertThat(checked).as("methods checked").isGreaterThan(type == Connection.class ? 50 : 100);
  }

  @ParameterizedTest(name = "every SQLException of the {0} wrapper's delegate reaches the caller through the hook")
  @MethodSource("wrappers")
  void everySqlExceptionOfTheDelegatePassesTheHookAndReachesTheCaller(Class<?> type) throws Throwable {
    int checked = 0;
    for (Method m : methods(type)) {
      Subject s = subject(type, new boolean[1]);
      if (!Arrays.asList(m.getExceptionTypes()).contains(SQLException.class)
          || NOT_DELEGATED.get(type).containsKey(m.getName()) && !m.getName().equals("getStatement")) {
        continue; // getDriverMajorVersion and the like cannot throw; the listed methods call no delegate
      }
      SQLException broken = new java.sql.SQLNonTransientConnectionException("Communications link failure", "08S01");
      s.delegate().toThrow = broken;
      s.reported().clear();
      assertThatThrownBy(() -> invoke(s.wrapper(), m, arguments(m))).as("%s", m).isSameAs(broken);
      assertThat(s.reported()).as("%s: reported to the hook", m).containsExactly(broken);
      checked++;
    }
    assertThat(checked).as("methods checked").isGreaterThan(type == Connection.class ? 50 : 100);
  }

  @ParameterizedTest(name = "the {0} wrapper unwraps to itself first, then asks its delegate")
  @MethodSource("wrappers")
  void unwrapAnswersForTheWrapperFirst(Class<?> type) throws Exception {
    Subject s = subject(type, new boolean[1]);
    java.sql.Wrapper w = (java.sql.Wrapper) s.wrapper();
    assertThat(w.unwrap(type)).isSameAs(w);
    assertThat(w.isWrapperFor(type)).isTrue();
    assertThat(s.delegate().calls).isEmpty();
  }

  /** CallableStatement (closed itself) and DatabaseMetaData (its connection closed); a ResultSet is Connector/J's. */
  static Stream<Arguments> closable() {
    return Stream.of(
        Arguments.of(CallableStatement.class, "No operations allowed after statement closed."),
        Arguments.of(DatabaseMetaData.class, "Connection is closed"));
  }

  @ParameterizedTest(name = "every method of a closed {0} wrapper throws \"{1}\"")
  @MethodSource("closable")
  void everyMethodOfAClosedWrapperThrowsTheSameException(Class<?> type, String message) throws Throwable {
    Subject s = subject(type, new boolean[1]);
    s.close().run();
    s.delegate().calls.clear();
    Set<String> open = Set.of("close", "isClosed", "getDriverMajorVersion", "getDriverMinorVersion");
    int checked = 0;
    for (Method m : methods(type)) {
      if (open.contains(m.getName())) {
        continue; // close and isClosed work on a closed object; the driver's version cannot throw
      }
      assertThatThrownBy(() -> invoke(s.wrapper(), m, arguments(m)))
          .as("%s", m)
          .isInstanceOf(SQLException.class)
          .hasMessage(message);
      checked++;
    }
    assertThat(s.delegate().calls).as("nothing reached the delegate").isEmpty();
    assertThat(checked).isGreaterThan(100);
  }

  @org.junit.jupiter.api.Test
  void logicalConnectionWritesOnlyTheListedConnectionMethodsAndInheritsTheGeneratedRest() {
    Set<String> own = new java.util.HashSet<>();
    for (Method m : LogicalConnection.class.getDeclaredMethods()) {
      if (!m.isBridge() && !m.isSynthetic()) { // javac's access bridges for the package-private base's methods
        own.add(m.getName() + Arrays.toString(m.getParameterTypes()));
      }
    }
    Set<String> declared = new java.util.TreeSet<>();
    Set<String> generated = new java.util.TreeSet<>();
    for (Method m : methods(Connection.class)) {
      (own.contains(m.getName() + Arrays.toString(m.getParameterTypes())) ? declared : generated).add(m.getName());
    }
    assertThat(declared).isEqualTo(new java.util.TreeSet<>(HAND_WRITTEN_CONNECTION));
    assertThat(generated).contains("getCatalog", "getTypeMap", "createBlob", "setShardingKey", "unwrap", "nativeSQL");
  }

  /**
   * Every public method of the public {@link LogicalConnection} can be called by reflection through its class from
   * any package (pools and transaction managers do): none is left declared only by a package-private base such as
   * {@link PhysicalWrapper}, whose public methods javac bridges into the public class, unless they are final.
   */
  @org.junit.jupiter.api.Test
  void everyPublicMethodOfTheLogicalConnectionIsDeclaredByAPublicClass() {
    List<String> hidden = new ArrayList<>();
    for (Method m : LogicalConnection.class.getMethods()) {
      if (!Modifier.isPublic(m.getDeclaringClass().getModifiers())) {
        hidden.add(m.toString());
      }
    }
    assertThat(hidden).isEmpty();
  }

  /**
   * A pass-through's own check (here a closed connection, as {@code Session.primaryForCall} refuses it) fails the
   * call before it reaches the delegate, and is not the delegate's exception: the hook does not see it.
   */
  @org.junit.jupiter.api.Test
  void theConnectionPassThroughsOfAClosedConnectionRefuseBeforeTheDelegate() throws Exception {
    boolean[] closed = {false};
    Subject s = subject(Connection.class, closed);
    s.close().run();
    Connection c = (Connection) s.wrapper();
    assertThatThrownBy(c::getWarnings).isInstanceOf(SQLException.class).hasMessage("Connection is closed");
    assertThatThrownBy(c::getCatalog).isInstanceOf(SQLException.class).hasMessage("Connection is closed");
    assertThat(s.delegate().calls).isEmpty();
    assertThat(s.reported()).as("not a failure of the delegate").isEmpty();
  }

  /**
   * A {@link RecordedParameters} whose recorder is {@code recorder}, or closed; counts the open checks;
   * its checker is a stub recording into {@code checker} (null: none, {@link InertPreparedStatement}).
   */
  static RecordedParameters recording(dev.ryow.jdbc.session.ParameterRecorder recorder, boolean closed, int[] opens,
      @org.jspecify.annotations.Nullable Recorder checker) {
    return stub(RecordedParameters.class, (proxy, method, args) -> {
      if (method.getName().equals("checker") || method.getName().equals("checkerAt")) {
        return checker == null ? InertPreparedStatement.INSTANCE : stub(java.sql.PreparedStatement.class, checker);
      }
      if (method.isDefault()) {
        return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
      }
      if (method.getName().equals("openRecorder")) {
        opens[0]++;
        if (closed) {
          throw PhysicalStatements.closed();
        }
        return recorder;
      }
      throw new AssertionError("not a parameter setter: " + method);
    });
  }

  static List<Method> parameterSetters() {
    return methods(java.sql.PreparedStatement.class).stream()
        .filter(m -> m.getDeclaringClass() == java.sql.PreparedStatement.class)
        .filter(m -> m.getName().startsWith("set") && m.getParameterCount() >= 2 && m.getParameterTypes()[0] == int.class)
        .toList();
  }

  @org.junit.jupiter.api.Test
  void everyGeneratedParameterSetterChecksOpenRecordsAndReplaysTheSameValue() throws Throwable {
    List<Method> setters = parameterSetters();
    assertThat(setters).hasSize(50);
    for (Method m : setters) {
      assertThat(RecordedParameters.class.getDeclaredMethod(m.getName(), m.getParameterTypes()).isDefault())
          .as("%s generated", m).isTrue();
      dev.ryow.jdbc.session.ParameterRecorder recorder = new dev.ryow.jdbc.session.ParameterRecorder();
      int[] opens = {0};
      Object[] args = arguments(m);
      args[0] = 2;
      Recorder checker = new Recorder();
      invoke(recording(recorder, false, opens, checker), m, args);
      assertThat(opens[0]).as("%s: open checks", m).isEqualTo(1);
      assertThat(checker.calls).as("%s: checked in the setter", m).hasSize(1);
      assertThat(checker.calls.get(0).method()).as("%s: checked as", m).isEqualTo(m);
      assertThat(checker.calls.get(0).args()).as("%s: checked with the caller's arguments", m).containsExactly(args);
      Recorder physical = new Recorder();
      recorder.replay(stub(java.sql.PreparedStatement.class, physical));
      assertThat(physical.calls).as("%s: replayed", m).hasSize(1);
      Call call = physical.calls.get(0);
      assertThat(call.method().getName()).as("%s: replayed as", m).isEqualTo(m.getName());
      assertThat(call.args()[0]).as("%s: index", m).isEqualTo(2);
      if (m.getParameterTypes()[1].isPrimitive()) {
        assertThat(call.args()[1]).as("%s: value", m).isEqualTo(args[1]);
      } else {
        assertThat(call.args()[1]).as("%s: value", m).isSameAs(args[1]);
      }
      for (int i = 2; i < Math.min(args.length, call.args().length); i++) {
        assertThat(String.valueOf(call.args()[i])).as("%s: argument %d", m, i).isEqualTo(String.valueOf(args[i]));
      }
    }
  }

  /** With nothing to check the values in the setter, the checker is the inert one: every setter still records. */
  @org.junit.jupiter.api.Test
  void withNothingToCheckEveryGeneratedParameterSetterRecords() throws Throwable {
    int checked = 0;
    for (Method m : parameterSetters()) {
      dev.ryow.jdbc.session.ParameterRecorder recorder = new dev.ryow.jdbc.session.ParameterRecorder();
      Object[] args = arguments(m);
      args[0] = 1;
      invoke(recording(recorder, false, new int[1], null), m, args);
      Recorder physical = new Recorder();
      recorder.replay(stub(java.sql.PreparedStatement.class, physical));
      assertThat(physical.calls).as("%s: recorded", m).hasSize(1);
      checked++;
    }
    assertThat(checked).isEqualTo(50);
    java.sql.PreparedStatement inert = InertPreparedStatement.INSTANCE;
    assertThat(inert.executeUpdate()).isZero();
    assertThat(inert.isClosed()).isFalse();
    assertThat(inert.getConnection()).isNull();
  }

  @org.junit.jupiter.api.Test
  void everyGeneratedParameterSetterOfAClosedStatementThrowsAndRecordsNothing() throws Exception {
    int checked = 0;
    for (Method m : parameterSetters()) {
      dev.ryow.jdbc.session.ParameterRecorder recorder = new dev.ryow.jdbc.session.ParameterRecorder();
      int[] opens = {0};
      RecordedParameters closedOne = recording(recorder, true, opens, null);
      assertThatThrownBy(() -> invoke(closedOne, m, arguments(m))).as("%s", m)
          .hasMessage("No operations allowed after statement closed.");
      Recorder physical = new Recorder();
      recorder.replay(stub(java.sql.PreparedStatement.class, physical));
      assertThat(physical.calls).as("%s: nothing recorded", m).isEmpty();
      checked++;
    }
    assertThat(checked).isEqualTo(50);
  }

  /** A value the checker refuses (as Connector/J's setter would) throws from the setter and is not recorded. */
  @org.junit.jupiter.api.Test
  void aParameterTheCheckerRefusesIsNotRecorded() throws Exception {
    int checked = 0;
    for (Method m : parameterSetters()) {
      dev.ryow.jdbc.session.ParameterRecorder recorder = new dev.ryow.jdbc.session.ParameterRecorder();
      Recorder checker = new Recorder();
      checker.toThrow = new SQLException("Parameter index out of range (2 > number of parameters, which is 0).", "S1009");
      Object[] args = arguments(m);
      args[0] = 2;
      RecordedParameters ps = recording(recorder, false, new int[1], checker);
      assertThatThrownBy(() -> invoke(ps, m, args)).as("%s", m).hasMessageStartingWith("Parameter index out of range");
      Recorder physical = new Recorder();
      recorder.replay(stub(java.sql.PreparedStatement.class, physical));
      assertThat(physical.calls).as("%s: nothing recorded", m).isEmpty();
      checked++;
    }
    assertThat(checked).isEqualTo(50);
  }
}
