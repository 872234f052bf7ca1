import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Writes what is mechanical in the driver's JDBC face (package {@code dev.ryow.jdbc.proxy}) from the {@code java.sql}
 * interfaces on every build ({@code generate-sources}): one method per JDBC method, its body straight-line calls to
 * hand-written code, no branch, no loop (each generated class's comment says what it does); the one other construct is
 * the {@code catch} of {@code Delegating*}, which hands each {@link SQLException} to the hook {@code failed}. Reflection
 * runs here, at build time; the output is sorted by signature. Usage: {@code java GenerateDelegates.java OUTPUT_ROOT}
 */
public final class GenerateDelegates {
  private static final String PACKAGE = "dev.ryow.jdbc.proxy";
  /** The quoting helpers of {@code Statement}: Connector/J quotes as MySQL does, JDBC's defaults as ANSI SQL. */
  private static final String QUOTING = "enquote.*|isSimpleIdentifier";
  /** The entry of {@code RoutingStatement} each execute method goes to, by its name. */
  private static final Map<String, String> ENTRIES = Map.of("execute", "executed", "executeQuery", "query",
      "executeUpdate", "updated", "executeLargeUpdate", "largeUpdated");
  /** The {@code ExecuteMethod} suffix and the keys arguments of each type of keys argument. */
  private static final Map<Class<?>, String> KEYS = Map.of(int.class, "_KEYS|, a1, null, null",
      int[].class, "_COLUMN_INDEXES|, 0, a1, null", String[].class, "_COLUMN_NAMES|, 0, null, a1");

  private GenerateDelegates() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: java GenerateDelegates.java OUTPUT_SOURCE_ROOT");
    }
    Path dir = Path.of(args[0]).resolve(PACKAGE.replace('.', '/'));
    Files.createDirectories(dir);
    for (Class<?> type : List.of(java.sql.CallableStatement.class, java.sql.ResultSet.class, java.sql.DatabaseMetaData.class,
        java.sql.Connection.class)) {
      write(dir, "Delegating" + type.getSimpleName(), delegating(type, "Delegating" + type.getSimpleName()));
    }
    write(dir, "InertPreparedStatement", inertPreparedStatement());
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

  static String bracketedCallExecutions() {
    return file("java.sql.CallableStatement", """
         * Every execution of {@link java.sql.CallableStatement} between {@link #beforeExecute} (the statement's
         * checks, the session's placement) and {@link #afterExecute} (the session's bookkeeping; skipped if it threw).
         */
        @org.jspecify.annotations.NullUnmarked
        abstract class BracketedCallExecutions extends DelegatingCallableStatement {
          abstract void beforeExecute() throws java.sql.SQLException;
          abstract void afterExecute() throws java.sql.SQLException;
        """, each(java.sql.CallableStatement.class, m -> m.getName().startsWith("execute"), "public",
          m -> "    beforeExecute();\n    " + typeName(m.getGenericReturnType()) + " result = super." + call(m)
              + ";\n    afterExecute();\n    return result;\n"));
  }

  /** The {@code ExecuteMethod} of each execute method of an SQL string: its verb, then the keys argument's suffix. */
  static String routedExecutions() {
    String keys = "(ExecuteMethod m, String sql, int keys, int @org.jspecify.annotations.Nullable [] indexes,\n"
        + "      String @org.jspecify.annotations.Nullable [] names) throws java.sql.SQLException;\n";
    return file("java.sql.Statement", """
         * Every execution of an SQL string of {@link java.sql.Statement}, named by its {@link ExecuteMethod}, passed
         * to the entry of its return type, which runs it through the one hand-written loop, {@code RoutingStatement.run}.
         */
        abstract class RoutedExecutions extends RecordedSettings {
          abstract java.sql.ResultSet query(ExecuteMethod m, String sql) throws java.sql.SQLException;
        """, "\n  abstract boolean executed" + keys + "\n  abstract int updated" + keys + "\n  abstract long largeUpdated"
        + keys + each(java.sql.Statement.class, m -> m.getName().startsWith("execute") && m.getParameterCount() >= 1
            && m.getParameterTypes()[0] == String.class, "public", m -> {
              String verb = m.getName().substring("execute".length()).replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase();
              String[] key = m.getParameterCount() == 1 ? new String[] {"", ", 0, null, null"}
                  : KEYS.get(m.getParameterTypes()[1]).split("\\|");
              return "    return " + ENTRIES.get(m.getName()) + "(ExecuteMethod." + (verb.isEmpty() ? "EXECUTE" : verb)
                  + key[0] + ", a0" + (verb.equals("QUERY") ? "" : key[1]) + ");\n";
            }));
  }

  static String recordedSettings() {
    List<Method> setters = methods(java.sql.Statement.class).stream()
        .filter(m -> m.getName().startsWith("set") && m.getParameterCount() == 1).toList();
    StringBuilder fields = new StringBuilder();
    StringBuilder apply = new StringBuilder();
    StringBuilder methods = new StringBuilder();
    for (int i = 0; i < setters.size(); i++) {
      Method m = setters.get(i);
      int bit = 1 << i;
      String field = Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4);
      String type = m.getParameterTypes()[0].getSimpleName();
      String kind = Character.toUpperCase(type.charAt(0)) + type.substring(1);
      fields.append("  ").append(typeName(m.getGenericParameterTypes()[0])).append(' ').append(field).append(";\n");
      apply.append("      (s, r) -> s.%s(r.%s),\n".formatted(m.getName(), field));
      // setMaxRows and setLargeMaxRows set one value inside Connector/J: setting one forgets what the other recorded.
      int forgets = IntStream.range(0, setters.size()).filter(j -> 1 << j != bit && m.getName().endsWith("MaxRows")
          && setters.get(j).getName().endsWith("MaxRows")).map(j -> 1 << j).sum();
      methods.append(opening(m, "public")).append("    %s = StatementSettings.set%s(this, java.sql.Statement::%s, a0, %d, %d);\n"
          .formatted(field, kind, m.getName(), bit, forgets)).append("  }\n");
      String property = m.getName().substring("set".length());
      methods.append(each(java.sql.Statement.class, g -> g.getParameterCount() == 0
          && g.getReturnType() == m.getParameterTypes()[0] && g.getName().matches("(get|is)" + property), "public",
          g -> "    return StatementSettings.get%s(this, java.sql.Statement::%s, %s, %d);\n"
              .formatted(kind, g.getName(), field, bit)));
    }
    return file("java.sql.Statement", """
         * Every setting of {@link java.sql.Statement} that takes one value in a field and a bit of {@link #settingsSet}, its
         * setter and getter one call each to {@link StatementSettings} ({@link #APPLY}: how each reaches a new physical
         * statement); the quoting helpers ask a physical statement. The statement is its own session Execution.
         */
        @org.jspecify.annotations.NullUnmarked
        abstract class RecordedSettings extends dev.ryow.jdbc.session.Execution implements java.sql.Statement {
          abstract void checkOpen() throws java.sql.SQLException;
          abstract int physicalSlots();
          abstract java.sql.Statement physicalSlot(int i);
          abstract java.sql.Statement answering() throws java.sql.SQLException;
          /** Bit {@code i}: the application set the {@code i}-th setting of this class. */
          int settingsSet;
        """, fields + "\n  /** How each setting is given to a new physical statement, in bit order. */\n"
        + "  static final StatementSettings.Apply[] APPLY = {\n" + apply + "  };\n" + methods + each(java.sql.Statement.class,
            m -> m.getName().matches(QUOTING), "public", m -> "    return StatementSettings.answering(this)." + call(m)
            + ";\n"));
  }

  /**
   * The setters (name and parameter count) whose values Connector/J's client-side prepared statement takes without a
   * check: it refuses only an index outside the text's placeholders (or a closed statement, which
   * {@code openRecorder} checks first). Not setDouble or setFloat (NaN and infinities), nor setObject, dates, streams.
   */
  static final java.util.Set<String> INDEX_ONLY =
      java.util.Set.of("setBoolean2", "setByte2", "setShort2", "setInt2", "setLong2", "setString2", "setNull2");

  static String recordedParameters() {
    return file("java.sql.PreparedStatement", """
         * Every parameter setter of {@link java.sql.PreparedStatement}: {@link #checker()} takes the value as Connector/J
         * would ({@link InertPreparedStatement} if nothing checks), then {@link #openRecorder()} (which threw if closed)
         * records it for the next execution's server; {@code null} for a missing calendar, -1 for a missing stream length.
         * The setters whose values Connector/J never refuses (it checks only the index) ask {@link #checkerAt(int)}.
         */
        @org.jspecify.annotations.NullUnmarked
        public interface RecordedParameters extends java.sql.PreparedStatement {
          dev.ryow.jdbc.session.ParameterRecorder openRecorder() throws java.sql.SQLException;
          java.sql.PreparedStatement checker() throws java.sql.SQLException;
          /** The checker of a setter that Connector/J checks only for its {@code index} (see INDEX_ONLY). */
          java.sql.PreparedStatement checkerAt(int index) throws java.sql.SQLException;
        """, each(java.sql.PreparedStatement.class, m -> m.getDeclaringClass() == java.sql.PreparedStatement.class
            && m.getName().startsWith("set") && m.getParameterCount() >= 2 && m.getParameterTypes()[0] == int.class, "default",
          m -> {
            Class<?> value = m.getParameterTypes()[1];
            String missing = m.getParameterCount() > 2 ? ""
                : value == java.sql.Date.class || value == java.sql.Time.class || value == java.sql.Timestamp.class ? ", null"
                : value == java.io.InputStream.class || value == java.io.Reader.class ? ", -1" : "";
            String checker = INDEX_ONLY.contains(m.getName() + m.getParameterCount()) ? "checkerAt(a0)" : "checker()";
            return "    dev.ryow.jdbc.session.ParameterRecorder recorder = openRecorder();\n    " + checker + "." + call(m)
                + ";\n    recorder." + call(m).substring(0, call(m).length() - 1) + missing + ");\n";
          }));
  }

  static String inertPreparedStatement() {
    return file("java.sql.PreparedStatement", """
         * Every method of {@link java.sql.PreparedStatement} doing nothing and answering 0, false or null: the checker of
         * {@link RecordedParameters} when nothing checks the values in the setter ({@code RoutingPreparedStatement.checker}:
         * they are checked when the statement runs), so that no setter asks whether there is one. One {@link #INSTANCE}.
         */
        @org.jspecify.annotations.NullUnmarked
        final class InertPreparedStatement implements java.sql.PreparedStatement {
          static final InertPreparedStatement INSTANCE = new InertPreparedStatement();
          private InertPreparedStatement() {}
        """, each(java.sql.PreparedStatement.class, m -> true, "public", m -> m.getReturnType() == void.class ? ""
            : "    return " + (m.getReturnType() == boolean.class ? "false" : m.getReturnType().isPrimitive() ? "0" : "null")
                + ";\n"));
  }

  /** Each method but {@code Wrapper}'s to {@code delegate()}, its exceptions to {@code failed}; to {@code physical()} if none. */
  static String delegating(Class<?> type, String name) {
    String iface = type.getName();
    return file(iface, """
         * Every method of {@link %1$s} passed unchanged to {@link #delegate()}, each {@link java.sql.SQLException}
         * through {@link #failed} ({@code unwrap} and {@code isWrapperFor}: {@link PhysicalWrapper}'s). Subclasses
         * override only the methods that do something else.
         */
        @org.jspecify.annotations.NullUnmarked
        abstract class %2$s extends PhysicalWrapper implements %1$s {
          /** The physical object the next call goes to, after this wrapper's checks (open, still current). */
          @Override
          abstract %1$s delegate() throws java.sql.SQLException;
          /** The physical object, unchecked: for the few methods that cannot throw. */
          abstract %1$s physical();
        """.formatted(iface, name), (methods(type).stream().noneMatch(m -> m.getReturnType() == java.sql.ResultSet.class) ? ""
            : "\n  abstract java.sql.ResultSet wrap(java.sql.ResultSet physical);\n")
        + each(type, m -> m.getDeclaringClass() != java.sql.Wrapper.class, "public", m -> {
          boolean hooked = Arrays.asList(m.getExceptionTypes()).contains(SQLException.class);
          String call = (hooked ? "d." : "physical().") + call(m);
          String result = (m.getReturnType() == void.class ? "" : "return ")
              + (m.getReturnType() == java.sql.ResultSet.class ? "wrap(" + call + ")" : call) + ";";
          return hooked ? "    " + iface + " d = delegate();\n    try {\n      " + result
              + "\n    } catch (java.sql.SQLException e) {\n      throw failed(e);\n    }\n" : "    " + result + "\n";
        }));
  }

  /** For each method of {@code type} that {@code keep} keeps: its opening ({@link #opening}), {@code body}, its end. */
  private static String each(Class<?> type, Predicate<Method> keep, String modifier, Function<Method, String> body) {
    return methods(type).stream().filter(keep).map(m -> opening(m, modifier) + body.apply(m) + "  }\n")
        .collect(Collectors.joining());
  }

  /** {@code "\n  @Override\n  <modifier> <T> R name(T0 a0, ...) throws E0, ... {\n"} (JDBC's type parameters have no bounds). */
  private static String opening(Method m, String modifier) {
    return "\n" + (m.isAnnotationPresent(Deprecated.class) ? "  @Deprecated\n  @SuppressWarnings(\"deprecation\")\n" : "")
        + "  @Override\n  " + modifier + " " + (m.getTypeParameters().length == 0 ? ""
            : Arrays.stream(m.getTypeParameters()).map(v -> v.getName()).collect(Collectors.joining(", ", "<", "> ")))
        + typeName(m.getGenericReturnType()) + " " + m.getName() + "(" + IntStream.range(0, m.getParameterCount())
            .mapToObj(i -> typeName(m.getGenericParameterTypes()[i]) + " a" + i).collect(Collectors.joining(", ")) + ")"
        + (m.getExceptionTypes().length == 0 ? ""
            : Arrays.stream(m.getExceptionTypes()).map(Class::getName).collect(Collectors.joining(", ", " throws ", "")))
        + " {\n";
  }

  /** {@code name(a0, a1, ...)}. */
  private static String call(Method m) {
    return m.getName() + IntStream.range(0, m.getParameterCount()).mapToObj(i -> "a" + i)
        .collect(Collectors.joining(", ", "(", ")"));
  }

  /** What a class implementing {@code type} must have: one method per signature (the most specific), sorted by it. */
  static List<Method> methods(Class<?> type) {
    return List.copyOf(Arrays.stream(type.getMethods()).filter(m -> !Modifier.isStatic(m.getModifiers()))
        .collect(Collectors.toMap(m -> m.getName() + Arrays.stream(m.getParameterTypes()).map(Class::getName)
            .collect(Collectors.joining(",", "(", ")")), m -> m,
            (known, m) -> known.getDeclaringClass().isAssignableFrom(m.getDeclaringClass()) ? m : known, TreeMap::new))
        .values());
  }

  /** A generated file: what it is generated from, its package, its type's comment and head ({@code doc}), {@code body}. */
  private static String file(String source, String doc, String body) {
    return "// Generated by driver/src/build/java/GenerateDelegates.java from " + source + " on every build: do not edit.\n"
        + "package " + PACKAGE + ";\n\n/**\n" + doc + body + "}\n";
  }

  private static String typeName(Type t) {
    return t.getTypeName().replace('$', '.');
  }
}
