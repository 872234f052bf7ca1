import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Writes what is mechanical in the driver's JDBC face (package {@code dev.ryow.jdbc.proxy}) from the
 * {@code java.sql} interfaces, on every build (the driver's {@code generate-sources} phase): one method per
 * JDBC method, its body one call. {@code Delegating*} pass each method unchanged to {@code delegate()} (a
 * {@code ResultSet} through {@code wrap}) and hand each {@link SQLException} to the one hook {@code failed(e)};
 * {@code RoutedExecutions} passes each execution of an SQL string to the hand-written loop
 * ({@code RoutingStatement.run}); {@code RecordedSettings} passes each setting to {@code StatementSettings};
 * {@code RecordedParameters} has each parameter checked, then recorded; {@code BracketedCallExecutions} puts
 * each execution of a stored procedure between two hooks. Reflection runs here, at build time; the output is
 * sorted by method signature, so it is the same on every build with the same JDK.
 *
 * <p>Usage: {@code java GenerateDelegates.java OUTPUT_SOURCE_ROOT}
 */
public final class GenerateDelegates {
  private static final String PACKAGE = "dev.ryow.jdbc.proxy";
  private static final List<Class<?>> INTERFACES = List.of(
      java.sql.CallableStatement.class, java.sql.ResultSet.class, java.sql.DatabaseMetaData.class,
      java.sql.Connection.class);
  /** Pass-throughs that check the wrapper is open first, as they did when they were hand-written. */
  private static final Map<Class<?>, Set<String>> CHECK_OPEN = Map.of(java.sql.Connection.class, Set.of("getWarnings"));
  /** What {@code unwrap} and {@code isWrapperFor} answer when the wrapper itself is what is asked for. */
  private static final Map<String, String> SELF = Map.of("unwrap", "a0.cast(this)", "isWrapperFor", "true");
  /** The quoting helpers of {@code Statement}: Connector/J quotes as MySQL does, JDBC's defaults as ANSI SQL. */
  private static final Set<String> QUOTING =
      Set.of("enquoteLiteral", "enquoteIdentifier", "isSimpleIdentifier", "enquoteNCharLiteral");
  /** Setters of one value inside Connector/J (its max rows): setting one forgets what the other recorded. */
  private static final Set<String> SHARED_STATE = Set.of("setMaxRows", "setLargeMaxRows");
  /** The entry of {@code RoutingStatement} each execute method goes to, by its name. */
  private static final Map<String, String> ENTRIES = Map.of("execute", "executed", "executeQuery", "query",
      "executeUpdate", "updated", "executeLargeUpdate", "largeUpdated");
  /** The {@code ExecuteMethod} suffix and the keys arguments of each type of keys argument. */
  private static final Map<Class<?>, String> KEYS = Map.of(int.class, "_KEYS|, a1, null, null",
      int[].class, "_COLUMN_INDEXES|, 0, a1, null", String[].class, "_COLUMN_NAMES|, 0, null, a1");
  private static final String DEPRECATED = "  @Deprecated\n  @SuppressWarnings(\"deprecation\")\n";

  private GenerateDelegates() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: java GenerateDelegates.java OUTPUT_SOURCE_ROOT");
    }
    Path dir = Path.of(args[0]).resolve(PACKAGE.replace('.', '/'));
    Files.createDirectories(dir);
    for (Class<?> type : INTERFACES) {
      write(dir, "Delegating" + type.getSimpleName(), delegating(type, "Delegating" + type.getSimpleName()));
    }
    write(dir, "RecordedParameters", recordedParameters());
    write(dir, "RoutedExecutions", routedExecutions());
    write(dir, "RecordedSettings", recordedSettings());
    write(dir, "BracketedCallExecutions", bracketedCallExecutions());
    // A file an older generator wrote and this one does not would still be compiled: removed.
    Files.deleteIfExists(dir.resolve("RoutedPreparedExecutions.java"));
  }

  private static void write(Path dir, String name, String text) throws IOException {
    Path file = dir.resolve(name + ".java");
    // Unchanged output keeps its timestamp: the compiler's stale-source check sees nothing new.
    if (!Files.exists(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(text)) {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    }
  }

  /** Each execution of {@code CallableStatement} between {@code beforeExecute()} and {@code afterExecute()}. */
  static String bracketedCallExecutions() {
    StringBuilder out = header("java.sql.CallableStatement", """
         * Every execution of {@link java.sql.CallableStatement} between {@link #beforeExecute} (the statement's
         * checks, the session's placement) and {@link #afterExecute} (the session's bookkeeping; skipped if it threw).
         */
        @org.jspecify.annotations.NullUnmarked
        abstract class BracketedCallExecutions extends DelegatingCallableStatement {
          abstract void beforeExecute() throws java.sql.SQLException;

          abstract void afterExecute() throws java.sql.SQLException;
        """);
    for (Method m : methods(java.sql.CallableStatement.class, m -> m.getName().startsWith("execute"))) {
      out.append(opening(m, "public")).append("    beforeExecute();\n    ").append(typeName(m.getGenericReturnType()))
          .append(" result = super.").append(call(m)).append(";\n    afterExecute();\n    return result;\n  }\n");
    }
    return out.append("}\n").toString();
  }

  /** Each execution of an SQL string of {@code Statement}: the entry of its return type, its {@code ExecuteMethod}. */
  static String routedExecutions() {
    String keys = "(ExecuteMethod m, String sql, int keys, int @org.jspecify.annotations.Nullable [] indexes,\n"
        + "      String @org.jspecify.annotations.Nullable [] names) throws java.sql.SQLException;\n";
    StringBuilder out = header("java.sql.Statement", """
         * Every execution of an SQL string of {@link java.sql.Statement}, named by its {@link ExecuteMethod}, passed
         * to the entry of its return type, which runs it through the one hand-written loop, {@code RoutingStatement.run}.
         */
        abstract class RoutedExecutions extends RecordedSettings {
          abstract java.sql.ResultSet query(ExecuteMethod m, String sql) throws java.sql.SQLException;
        """).append("\n  abstract boolean executed").append(keys).append("\n  abstract int updated").append(keys)
        .append("\n  abstract long largeUpdated").append(keys);
    for (Method m : methods(java.sql.Statement.class,
        m -> m.getName().startsWith("execute") && m.getParameterCount() >= 1 && m.getParameterTypes()[0] == String.class)) {
      String verb = m.getName().substring("execute".length()).replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase();
      String[] key = m.getParameterCount() == 1 ? new String[] {"", ", 0, null, null"}
          : KEYS.get(m.getParameterTypes()[1]).split("\\|");
      out.append(opening(m, "public")).append("    return ").append(ENTRIES.get(m.getName())).append("(ExecuteMethod.")
          .append(verb.isEmpty() ? "EXECUTE" : verb).append(key[0]).append(", a0")
          .append(verb.equals("QUERY") ? "" : key[1]).append(");\n  }\n");
    }
    return out.append("}\n").toString();
  }

  /**
   * Every setting of one value of {@code Statement} ({@code setXxx(value)}) in a field and a bit, its setter and
   * getter one call each to {@code StatementSettings} (a setter records what that returns), and {@code APPLY}:
   * how each is given to a new physical statement. The quoting helpers ask a physical statement.
   */
  static String recordedSettings() {
    List<Method> setters = methods(java.sql.Statement.class, m -> m.getName().startsWith("set") && m.getParameterCount() == 1);
    StringBuilder out = header("java.sql.Statement", """
         * Every setting of {@link java.sql.Statement} that takes one value, in a field and a bit of {@link #settingsSet};
         * its setter and getter one call each to {@link StatementSettings}, which says what they do; {@link #APPLY}
         * gives each to a new physical statement. The quoting helpers ({@code enquoteIdentifier}...) ask a physical
         * statement: Connector/J quotes as MySQL does, JDBC's defaults as ANSI SQL does. The statement is its own
         * {@link dev.ryow.jdbc.session.Execution}, the one its executions hand the session.
         */
        @org.jspecify.annotations.NullUnmarked
        abstract class RecordedSettings extends dev.ryow.jdbc.session.Execution implements java.sql.Statement {
          abstract void checkOpen() throws java.sql.SQLException;

          abstract int physicalSlots();

          abstract java.sql.Statement physicalSlot(int i);

          abstract java.sql.Statement answering() throws java.sql.SQLException;

          /** Bit {@code i}: the application set the {@code i}-th setting of this class. */
          int settingsSet;
        """);
    StringBuilder apply = new StringBuilder();
    StringBuilder methods = new StringBuilder();
    for (int i = 0; i < setters.size(); i++) {
      Method m = setters.get(i);
      String field = Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4);
      String type = m.getParameterTypes()[0].getSimpleName();
      type = Character.toUpperCase(type.charAt(0)) + type.substring(1);
      out.append("  ").append(typeName(m.getGenericParameterTypes()[0])).append(' ').append(field).append(";\n");
      apply.append("      (s, r) -> s.%s(r.%s),\n".formatted(m.getName(), field));
      int forgets = 0;
      for (int j = 0; j < setters.size(); j++) {
        forgets |= j != i && SHARED_STATE.contains(m.getName()) && SHARED_STATE.contains(setters.get(j).getName()) ? 1 << j : 0;
      }
      methods.append(opening(m, "public"))
          .append("    %s = StatementSettings.set%s(this, java.sql.Statement::%s, a0, %d, %d);\n  }\n"
          .formatted(field, type, m.getName(), 1 << i, forgets));
      String property = m.getName().substring("set".length());
      for (Method g : methods(java.sql.Statement.class, g -> g.getParameterCount() == 0
          && g.getReturnType() == m.getParameterTypes()[0]
          && (g.getName().equals("get" + property) || g.getName().equals("is" + property)))) {
        methods.append(opening(g, "public"))
            .append("    return StatementSettings.get%s(this, java.sql.Statement::%s, %s, %d);\n  }\n"
            .formatted(type, g.getName(), field, 1 << i));
      }
    }
    for (Method m : methods(java.sql.Statement.class, m -> QUOTING.contains(m.getName()))) {
      methods.append(opening(m, "public")).append("    return StatementSettings.answering(this).").append(call(m))
          .append(";\n  }\n");
    }
    return out.append("\n  /** How each setting is given to a new physical statement, in bit order. */\n")
        .append("  static final StatementSettings.Apply[] APPLY = {\n").append(apply).append("  };\n\n")
        .append("  final <S extends java.sql.Statement> S applySettings(S s) throws java.sql.SQLException {\n")
        .append("    return StatementSettings.apply(this, s);\n  }\n").append(methods).append("}\n").toString();
  }

  /**
   * The parameter setters of {@code PreparedStatement} ({@code setXxx(int parameterIndex, ...)}), as default
   * methods: each checked by {@code checker()} (if any) as Connector/J would, then recorded by the statement's
   * {@code ParameterRecorder} ({@code openRecorder()}, after its open check): the same arguments, but
   * {@code null} for a missing calendar and {@code -1} for a missing stream length.
   */
  static String recordedParameters() {
    StringBuilder out = header("java.sql.PreparedStatement", """
         * Every parameter setter of {@link java.sql.PreparedStatement}, recorded: {@link #openRecorder()} (which
         * throws for a closed statement) gets the value, to be replayed onto the physical statement of whichever
         * server runs the next execution, once {@link #checker()} (null: none) took it as Connector/J would. The
         * overloads without a calendar record {@code null}, the stream overloads without a length record {@code -1}.
         */
        @org.jspecify.annotations.NullUnmarked
        public interface RecordedParameters extends java.sql.PreparedStatement {
          dev.ryow.jdbc.session.ParameterRecorder openRecorder() throws java.sql.SQLException;

          java.sql.PreparedStatement checker() throws java.sql.SQLException;
        """);
    for (Method m : methods(java.sql.PreparedStatement.class, m -> m.getDeclaringClass() == java.sql.PreparedStatement.class
        && m.getName().startsWith("set") && m.getParameterCount() >= 2 && m.getParameterTypes()[0] == int.class)) {
      Class<?> value = m.getParameterTypes()[1];
      String missing = m.getParameterCount() > 2 ? ""
          : value == java.sql.Date.class || value == java.sql.Time.class || value == java.sql.Timestamp.class ? ", null"
          : value == java.io.InputStream.class || value == java.io.Reader.class ? ", -1" : "";
      out.append(opening(m, "default")).append("""
              dev.ryow.jdbc.session.ParameterRecorder recorder = openRecorder();
              java.sql.PreparedStatement checker = checker();
              if (checker != null) {
                checker.%s;
              }
              recorder.%s%s);
            }
          """.formatted(call(m), call(m).substring(0, call(m).length() - 1), missing));
    }
    return out.append("}\n").toString();
  }

  /** {@code Delegating<type>}: every method passed to {@code delegate()} ({@code physical()} if it cannot throw). */
  static String delegating(Class<?> type, String name) {
    String iface = type.getName();
    Set<String> checkOpen = CHECK_OPEN.getOrDefault(type, Set.of());
    StringBuilder out = header(iface, """
         * Every method of {@link %1$s} passed unchanged to {@link #delegate()}; each
         * {@link java.sql.SQLException} of the delegate goes through {@link #failed} before it reaches the caller.
         * Subclasses override only the methods that do something else.
         */
        @org.jspecify.annotations.NullUnmarked
        abstract class %2$s implements %1$s {
          /** The physical object the next call goes to, after this wrapper's checks (open, still current). */
          abstract %1$s delegate() throws java.sql.SQLException;

          /** The physical object, unchecked: for the few methods that cannot throw. */
          abstract %1$s physical();

          /** Sees every {@code SQLException} of the delegate (a broken connection, for one); returns what to throw. */
          abstract java.sql.SQLException failed(java.sql.SQLException e);
        """.formatted(iface, name));
    out.append(checkOpen.isEmpty() ? "" : "\n  abstract void checkOpen() throws java.sql.SQLException;\n");
    out.append(methods(type, m -> m.getReturnType() == java.sql.ResultSet.class).isEmpty() ? ""
        : "\n  abstract java.sql.ResultSet wrap(java.sql.ResultSet physical);\n");
    for (Method m : methods(type)) {
      String call = m.getReturnType() == java.sql.ResultSet.class ? "wrap(d." + call(m) + ")" : "d." + call(m);
      String result = m.getReturnType() == void.class ? call + ";" : "return " + call + ";";
      boolean hooked = Arrays.asList(m.getExceptionTypes()).contains(SQLException.class);
      out.append("\n  @Override\n").append(m.isAnnotationPresent(Deprecated.class) ? DEPRECATED : "").append("  public ")
          .append(m.getTypeParameters().length == 0 ? ""
              : Arrays.stream(m.getTypeParameters()).map(GenerateDelegates::bounded)
                  .collect(Collectors.joining(", ", "<", "> ")))
          .append(typeName(m.getGenericReturnType())).append(' ').append(m.getName()).append('(').append(parameters(m))
          .append(')')
          .append(m.getExceptionTypes().length == 0 ? ""
              : Arrays.stream(m.getExceptionTypes()).map(Class::getName).collect(Collectors.joining(", ", " throws ", "")))
          .append(" {\n")
          .append(SELF.containsKey(m.getName())
              ? "    if (a0.isInstance(this)) {\n      return " + SELF.get(m.getName()) + ";\n    }\n" : "")
          .append(hooked && checkOpen.contains(m.getName()) ? "    checkOpen();\n" : "")
          .append("    ").append(m.getDeclaringClass().getName()).append(hooked ? " d = delegate();\n" : " d = physical();\n")
          .append(hooked
              ? "    try {\n      " + result + "\n    } catch (java.sql.SQLException e) {\n      throw failed(e);\n    }\n"
              : "    " + result + "\n")
          .append("  }\n");
    }
    return out.append("}\n").toString();
  }

  /** {@code "\n  @Override\n  <modifier> R name(T0 a0, ...) throws java.sql.SQLException {\n"}, deprecation marked. */
  private static String opening(Method m, String modifier) {
    return "\n" + (m.isAnnotationPresent(Deprecated.class) ? DEPRECATED : "") + "  @Override\n  " + modifier + " "
        + typeName(m.getGenericReturnType()) + " " + m.getName() + "(" + parameters(m) + ") throws java.sql.SQLException {\n";
  }

  /** {@code m}'s parameters as {@code T0 a0, T1 a1, ...}. */
  private static String parameters(Method m) {
    Type[] types = m.getGenericParameterTypes();
    List<String> out = new ArrayList<>();
    for (int i = 0; i < types.length; i++) {
      out.add(typeName(types[i]) + " a" + i);
    }
    return String.join(", ", out);
  }

  /** {@code name(a0, a1, ...)}. */
  private static String call(Method m) {
    List<String> arguments = new ArrayList<>();
    for (int i = 0; i < m.getParameterCount(); i++) {
      arguments.add("a" + i);
    }
    return m.getName() + "(" + String.join(", ", arguments) + ")";
  }

  /** The methods of {@code type} that {@code keep} keeps ({@link #methods(Class)}). */
  static List<Method> methods(Class<?> type, Predicate<Method> keep) {
    return methods(type).stream().filter(keep).toList();
  }

  /** The methods a class implementing {@code type} must have, one per signature, sorted. */
  static List<Method> methods(Class<?> type) {
    Map<String, Method> bySignature = new LinkedHashMap<>();
    for (Method m : type.getMethods()) {
      String key = m.getName() + Arrays.toString(m.getParameterTypes());
      Method known = bySignature.get(key);
      // The declaration of the most specific interface wins (Statement.close over AutoCloseable.close).
      if (!Modifier.isStatic(m.getModifiers())
          && (known == null || known.getDeclaringClass().isAssignableFrom(m.getDeclaringClass()))) {
        bySignature.put(key, m);
      }
    }
    List<Method> sorted = new ArrayList<>(bySignature.values());
    sorted.sort(Comparator.comparing(m -> m.getName()
        + Arrays.stream(m.getParameterTypes()).map(Class::getName).collect(Collectors.joining(",", "(", ")"))));
    return sorted;
  }

  /** A generated file's first lines: what it is generated from, its package, its type's comment and head. */
  private static StringBuilder header(String source, String doc) {
    return new StringBuilder("// Generated by driver/src/build/java/GenerateDelegates.java from ").append(source)
        .append(" on every build: do not edit.\npackage ").append(PACKAGE).append(";\n\n/**\n").append(doc);
  }

  private static String bounded(TypeVariable<?> v) {
    Type[] bounds = v.getBounds();
    return bounds.length == 1 && bounds[0] == Object.class ? v.getName()
        : v.getName()
            + Arrays.stream(bounds).map(GenerateDelegates::typeName).collect(Collectors.joining(" & ", " extends ", ""));
  }

  private static String typeName(Type t) {
    return t.getTypeName().replace('$', '.');
  }
}
