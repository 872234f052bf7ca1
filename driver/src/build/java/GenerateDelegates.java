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
import java.util.stream.Collectors;

/**
 * Writes the abstract {@code Delegating*} base classes of the driver's pure JDBC delegates (package
 * {@code dev.ryow.jdbc.proxy}) from the {@code java.sql} interfaces, on every build (the driver's
 * {@code generate-sources} phase). Each generated method passes its arguments unchanged to
 * {@code delegate()} (the wrapper's physical object, after its own checks) and returns its result (a
 * {@code ResultSet} through the wrapper's {@code wrap}, so that it reports the wrapper, not Connector/J's);
 * every {@link SQLException} of the physical object goes through {@code failed(e)} first (the hook that
 * tells the logical connection a physical connection broke). The hand-written subclasses override only
 * the methods that do something else. Reflection runs here, at build time; the output is sorted by
 * method signature, so it is the same on every build with the same JDK.
 *
 * <p>Usage: {@code java GenerateDelegates.java OUTPUT_SOURCE_ROOT}
 */
public final class GenerateDelegates {
  private static final String PACKAGE = "dev.ryow.jdbc.proxy";
  private static final List<Class<?>> INTERFACES = List.of(
      java.sql.CallableStatement.class, java.sql.ResultSet.class, java.sql.DatabaseMetaData.class,
      java.sql.Connection.class);
  /**
   * The parameter setters of {@link java.sql.PreparedStatement} ({@code setXxx(int parameterIndex, ...)})
   * go to one {@code ParameterRecorder} method each: the same arguments, except that the overloads without
   * a calendar pass {@code null} and the stream overloads without a length pass {@code -1}.
   */
  /**
   * Pass-throughs that check the wrapper is open first ({@code checkOpen()}), before they reach the
   * delegate: the methods that did so when they were hand-written (the others leave that to the delegate).
   */
  private static final Map<Class<?>, java.util.Set<String>> CHECK_OPEN =
      Map.of(java.sql.Connection.class, java.util.Set.of("getWarnings"));
  private static final String RECORDED_PARAMETERS = "RecordedParameters";
  /** Every {@code Statement} execution of an SQL string, passed to the hand-written loop, and the last results. */
  private static final String ROUTED_EXECUTIONS = "RoutedExecutions";
  /**
   * The results of the last execution: each asks the physical statement that ran last ({@code last()}), and
   * answers this (the value Connector/J's statement gives before it ran) when none has run yet.
   */
  private static final Map<String, String> BEFORE_ANY_EXECUTION = Map.of(
      "getResultSet", "null", "getUpdateCount", "-1", "getLargeUpdateCount", "-1", "getMoreResults", "false",
      "getWarnings", "null");
  /**
   * The quoting helpers of {@code Statement}: JDBC's defaults quote as ANSI SQL does, Connector/J's as
   * MySQL does (backquotes), so each is asked of a physical statement, as the settings' getters are.
   */
  private static final java.util.Set<String> QUOTING =
      java.util.Set.of("enquoteLiteral", "enquoteIdentifier", "isSimpleIdentifier", "enquoteNCharLiteral");
  /** The around-execute template of {@code CallableStatement}: each execution between two hooks. */
  private static final String BRACKETED_CALL_EXECUTIONS = "BracketedCallExecutions";
  /** The settings template: every single-value setting of {@code Statement}, recorded and applied to each physical statement. */
  private static final String RECORDED_SETTINGS = "RecordedSettings";
  /** Setters that change one value inside Connector/J (its max rows): setting one forgets what the other recorded. */
  private static final List<java.util.Set<String>> SHARED_STATE = List.of(java.util.Set.of("setMaxRows", "setLargeMaxRows"));

  private GenerateDelegates() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: java GenerateDelegates.java OUTPUT_SOURCE_ROOT");
    }
    Path dir = Path.of(args[0]).resolve(PACKAGE.replace('.', '/'));
    Files.createDirectories(dir);
    for (Class<?> type : INTERFACES) {
      String name = "Delegating" + type.getSimpleName();
      write(dir.resolve(name + ".java"), generate(type, name));
    }
    write(dir.resolve(RECORDED_PARAMETERS + ".java"), recordedParameters());
    write(dir.resolve(ROUTED_EXECUTIONS + ".java"), routedExecutions());
    write(dir.resolve(RECORDED_SETTINGS + ".java"), recordedSettings());
    write(dir.resolve(BRACKETED_CALL_EXECUTIONS + ".java"), bracketedCallExecutions());
    // A file an older generator wrote and this one does not would still be compiled: removed.
    Files.deleteIfExists(dir.resolve("RoutedPreparedExecutions.java"));
  }

  /**
   * The around-execute template of {@code CallableStatement}, over its delegating base: every
   * {@code execute*} method runs {@code beforeExecute()}, the delegate's execution, then
   * {@code afterExecute()} (which a failed execution skips).
   */
  static String bracketedCallExecutions() {
    StringBuilder out = header("java.sql.CallableStatement",
        " * Every execution of {@link java.sql.CallableStatement} between two hooks: {@link #beforeExecute} (the\n"
        + " * statement's checks, the session's placement), the delegate's execution, and {@link #afterExecute} (the\n"
        + " * session's bookkeeping), which an execution that threw skips.\n");
    out.append("@org.jspecify.annotations.NullUnmarked\n");
    out.append("abstract class ").append(BRACKETED_CALL_EXECUTIONS).append(" extends DelegatingCallableStatement {\n");
    out.append("  /** Before each execution. */\n");
    out.append("  abstract void beforeExecute() throws java.sql.SQLException;\n\n");
    out.append("  /** After each execution that returned. */\n");
    out.append("  abstract void afterExecute() throws java.sql.SQLException;\n");
    for (Method m : methods(java.sql.CallableStatement.class)) {
      if (!m.getName().startsWith("execute")) {
        continue;
      }
      String returnType = typeName(m.getGenericReturnType());
      out.append("\n  @Override\n  public ").append(returnType).append(' ').append(m.getName()).append('(');
      List<String> arguments = parameters(out, m);
      out.append(") throws java.sql.SQLException {\n");
      out.append("    beforeExecute();\n");
      out.append("    ").append(returnType).append(" result = super.").append(m.getName()).append('(')
          .append(String.join(", ", arguments)).append(");\n");
      out.append("    afterExecute();\n    return result;\n  }\n");
    }
    out.append("}\n");
    return out.toString();
  }

  private static void write(Path file, String text) throws IOException {
    // Unchanged output keeps its timestamp: the compiler's stale-source check sees nothing new.
    if (!Files.exists(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(text)) {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    }
  }

  /** The executions of {@code Statement} that take the SQL text: {@code execute*(String sql, ...)}. */
  static List<Method> sqlExecutions() {
    return methods(java.sql.Statement.class).stream()
        .filter(m -> m.getName().startsWith("execute") && m.getParameterCount() >= 1 && m.getParameterTypes()[0] == String.class)
        .toList();
  }

  /**
   * Each execution of an SQL string of {@code Statement} in one line: to {@code RoutingStatement}'s typed entry
   * of its return type ({@code query}, {@code executed}, {@code updated}, {@code largeUpdated}), with the
   * {@code ExecuteMethod} that names it and its keys argument in its place; and the results of the last
   * execution, asked of the physical statement that ran last ({@code last()}).
   */
  static String routedExecutions() {
    StringBuilder out = header("java.sql.Statement",
        " * Every execution of an SQL string of {@link java.sql.Statement}, passed to the one hand-written loop\n"
        + " * ({@code RoutingStatement.run}) through the typed entry of its return type; and the results of the last\n"
        + " * execution, asked of the physical statement that ran last ({@link #last}). A result set is returned\n"
        + " * through {@link #wrap}.\n");
    out.append("abstract class ").append(ROUTED_EXECUTIONS).append(" extends ").append(RECORDED_SETTINGS).append(" {\n");
    String keys = "int keys, int @org.jspecify.annotations.Nullable [] indexes, "
        + "String @org.jspecify.annotations.Nullable [] names) throws java.sql.SQLException;\n";
    out.append("  abstract java.sql.ResultSet query(ExecuteMethod m, String sql) throws java.sql.SQLException;\n\n");
    out.append("  abstract boolean executed(ExecuteMethod m, String sql, ").append(keys).append('\n');
    out.append("  abstract int updated(ExecuteMethod m, String sql, ").append(keys).append('\n');
    out.append("  abstract long largeUpdated(ExecuteMethod m, String sql, ").append(keys).append('\n');
    out.append("  /** The application's view of a physical result set. */\n");
    out.append("  abstract java.sql.ResultSet wrap(java.sql.ResultSet physical);\n\n");
    out.append("  /** The physical statement that ran last, or null before the first execution. */\n");
    out.append("  abstract java.sql.@org.jspecify.annotations.Nullable Statement last();\n");
    for (Method m : methods(java.sql.Statement.class)) {
      String none = BEFORE_ANY_EXECUTION.get(m.getName());
      if (none == null) {
        continue;
      }
      boolean resultSet = m.getReturnType() == java.sql.ResultSet.class;
      String returnType = typeName(m.getGenericReturnType());
      if (none.equals("null")) {
        int dot = returnType.lastIndexOf('.');
        returnType = returnType.substring(0, dot + 1) + "@org.jspecify.annotations.Nullable " + returnType.substring(dot + 1);
      }
      out.append("\n  @Override\n  public ").append(returnType).append(' ').append(m.getName()).append('(');
      List<String> arguments = parameters(out, m);
      out.append(") throws java.sql.SQLException {\n");
      out.append("    checkOpen();\n");
      out.append("    java.sql.Statement s = last();\n");
      String call = "s." + m.getName() + "(" + String.join(", ", arguments) + ")";
      if (resultSet) {
        out.append("    java.sql.ResultSet rs = s == null ? null : ").append(call).append(";\n");
        out.append("    return rs == null ? null : wrap(rs);\n");
      } else if (none.equals("false")) {
        out.append("    return s != null && ").append(call).append(";\n");
      } else {
        out.append("    return s == null ? ").append(none).append(" : ").append(call).append(";\n");
      }
      out.append("  }\n");
    }
    Map<String, String> entries = Map.of("execute", "executed", "executeQuery", "query", "executeUpdate", "updated",
        "executeLargeUpdate", "largeUpdated");
    Map<Class<?>, String> keyed = Map.of(int.class, "_KEYS|a1, null, null", int[].class, "_COLUMN_INDEXES|0, a1, null",
        String[].class, "_COLUMN_NAMES|0, null, a1");
    for (Method m : sqlExecutions()) {
      String verb = m.getName().substring("execute".length()).replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase();
      String[] key = m.getParameterCount() == 1 ? new String[] {"", "0, null, null"}
          : keyed.get(m.getParameterTypes()[1]).split("\\|");
      String constant = "ExecuteMethod." + (verb.isEmpty() ? "EXECUTE" : verb) + key[0];
      String rest = m.getName().equals("executeQuery") ? "" : ", " + key[1];
      out.append("\n  @Override\n  public ").append(typeName(m.getGenericReturnType())).append(' ').append(m.getName())
          .append('(');
      parameters(out, m);
      out.append(") throws java.sql.SQLException {\n    return ").append(entries.get(m.getName())).append('(')
          .append(constant).append(", a0").append(rest).append(");\n  }\n");
    }
    out.append("}\n");
    return out.toString();
  }

  /** The settings of {@code Statement}: its setters of one value ({@code setXxx(value)}), sorted. */
  static List<Method> settingSetters() {
    return methods(java.sql.Statement.class).stream()
        .filter(m -> m.getName().startsWith("set") && m.getParameterCount() == 1)
        .toList();
  }

  /** The getter of the setting {@code setter} sets ({@code getXxx()} or {@code isXxx()}), if {@code Statement} has one. */
  static java.util.Optional<Method> settingGetter(Method setter) {
    String property = setter.getName().substring("set".length());
    return methods(java.sql.Statement.class).stream()
        .filter(m -> m.getParameterCount() == 0 && m.getReturnType() == setter.getParameterTypes()[0])
        .filter(m -> m.getName().equals("get" + property) || m.getName().equals("is" + property))
        .findFirst();
  }

  /**
   * The settings template: a class with one field per setting of {@code Statement}, a bit per setting that
   * says the application set it, setters that apply the value to every physical statement that exists
   * (to one created on the primary if none does, so that Connector/J checks it at once) and record it,
   * getters that answer the recorded value, or else a physical statement's (Connector/J's default, some
   * from the URL; the query timeout a physical statement holds may be what was left of it), and
   * {@code applySettings}, which gives a new physical statement the values the application set.
   */
  static String recordedSettings() {
    List<Method> setters = settingSetters();
    StringBuilder out = header("java.sql.Statement",
        " * Every setting of {@link java.sql.Statement} that takes one value, recorded: a setter applies the value to\n"
        + " * the physical statements that exist (to the one {@link #answering} creates when none does, so Connector/J\n"
        + " * checks it at once) and records it; {@link #applySettings} gives each new physical statement the values\n"
        + " * the application set, and nothing else, so the others stay Connector/J's defaults (some from the URL). A\n"
        + " * getter answers the recorded value, or else a physical statement's default. The quoting helpers ask a\n"
        + " * physical statement too\n"
        + " * ({@code enquoteIdentifier}...): Connector/J quotes as MySQL does, JDBC's defaults as ANSI SQL does. The\n"
        + " * statement is its own {@link dev.ryow.jdbc.session.Execution}, the one its executions hand the session.\n");
    out.append("@org.jspecify.annotations.NullUnmarked\n");
    out.append("abstract class ").append(RECORDED_SETTINGS)
        .append(" extends dev.ryow.jdbc.session.Execution implements java.sql.Statement {\n");
    out.append("  /** Throws for a closed statement. */\n");
    out.append("  abstract void checkOpen() throws java.sql.SQLException;\n\n");
    out.append("  /** How many physical statements this statement can hold at once ({@link #physicalSlot}). */\n");
    out.append("  abstract int physicalSlots();\n\n");
    out.append("  /** The physical statement in slot {@code i}, or null when the slot is empty. */\n");
    out.append("  abstract java.sql.Statement physicalSlot(int i);\n\n");
    out.append("  /** The physical statement that answers a getter: the current one, or one on the primary (created if")
        .append(" need be). */\n");
    out.append("  abstract java.sql.Statement answering() throws java.sql.SQLException;\n\n");
    out.append("  /** Bit {@code i}: the application set the {@code i}-th setting of this class. */\n");
    out.append("  private int recorded;\n");
    for (Method m : setters) {
      out.append("  /** What the application gave {@code ").append(m.getName()).append("} last. */\n");
      out.append("  ").append(typeName(m.getGenericParameterTypes()[0])).append(' ').append(field(m)).append(";\n");
    }
    out.append("\n  /** Gives the new physical statement {@code s} the values the application set. */\n");
    out.append("  final <S extends java.sql.Statement> S applySettings(S s) throws java.sql.SQLException {\n");
    out.append("    int r = recorded;\n");
    for (int i = 0; i < setters.size(); i++) {
      Method m = setters.get(i);
      out.append("    if ((r & ").append(1 << i).append(") != 0) {\n");
      out.append("      s.").append(m.getName()).append('(').append(field(m)).append(");\n    }\n");
    }
    out.append("    return s;\n  }\n");
    for (int i = 0; i < setters.size(); i++) {
      Method m = setters.get(i);
      int forgets = 0;
      for (java.util.Set<String> shared : SHARED_STATE) {
        if (shared.contains(m.getName())) {
          for (int j = 0; j < setters.size(); j++) {
            if (j != i && shared.contains(setters.get(j).getName())) {
              forgets |= 1 << j;
            }
          }
        }
      }
      out.append("\n  @Override\n  public void ").append(m.getName()).append('(');
      parameters(out, m);
      out.append(") throws java.sql.SQLException {\n");
      out.append("    checkOpen();\n");
      out.append("    boolean applied = false;\n");
      out.append("    for (int i = 0, n = physicalSlots(); i < n; i++) {\n");
      out.append("      java.sql.Statement s = physicalSlot(i);\n");
      out.append("      if (s != null) {\n        s.").append(m.getName()).append("(a0);\n        applied = true;\n      }\n");
      out.append("    }\n");
      out.append("    if (!applied) {\n      answering().").append(m.getName()).append("(a0);\n    }\n");
      out.append("    ").append(field(m)).append(" = a0;\n");
      String kept = forgets == 0 ? "recorded" : "(recorded & ~" + forgets + ")";
      out.append("    recorded = ").append(kept).append(" | ").append(1 << i)
          .append(";\n");
      out.append("  }\n");
      java.util.Optional<Method> getter = settingGetter(m);
      if (getter.isPresent()) {
        Method g = getter.get();
        out.append("\n  @Override\n  public ").append(typeName(g.getGenericReturnType())).append(' ').append(g.getName())
            .append("() throws java.sql.SQLException {\n");
        out.append("    checkOpen();\n");
        out.append("    return (recorded & ").append(1 << i).append(") != 0 ? ").append(field(m)).append(" : answering().")
            .append(g.getName()).append("();\n  }\n");
      }
    }
    for (Method m : methods(java.sql.Statement.class)) {
      if (QUOTING.contains(m.getName())) {
        out.append("\n  @Override\n  public ").append(typeName(m.getGenericReturnType())).append(' ')
            .append(m.getName()).append('(');
        List<String> arguments = parameters(out, m);
        out.append(") throws java.sql.SQLException {\n");
        out.append("    checkOpen();\n");
        out.append("    return answering().").append(m.getName()).append('(').append(String.join(", ", arguments))
            .append(");\n  }\n");
      }
    }
    out.append("}\n");
    return out.toString();
  }

  /** The field that records what {@code setter} was given: {@code setMaxRows} → {@code maxRows}. */
  private static String field(Method setter) {
    String property = setter.getName().substring("set".length());
    return Character.toLowerCase(property.charAt(0)) + property.substring(1);
  }

  /** The parameter setters of {@code PreparedStatement}: declared there, {@code set*}, an index first. */
  static List<Method> parameterSetters() {
    return methods(java.sql.PreparedStatement.class).stream()
        .filter(m -> m.getDeclaringClass() == java.sql.PreparedStatement.class)
        .filter(m -> m.getName().startsWith("set") && m.getParameterCount() >= 2 && m.getParameterTypes()[0] == int.class)
        .toList();
  }

  /**
   * The parameter-setter template: an interface whose default methods record each parameter into the
   * statement's {@code ParameterRecorder} ({@code openRecorder()}: after the statement's open check).
   */
  static String recordedParameters() {
    StringBuilder out = header("java.sql.PreparedStatement",
        " * Every parameter setter of {@link java.sql.PreparedStatement}, recorded: {@link #openRecorder()} (which\n"
        + " * throws for a closed statement) gets the value, to be replayed onto the physical statement of whichever\n"
        + " * server runs the next execution, once {@link #checker()} (if any) took it as Connector/J would. The\n"
        + " * overloads without a calendar record {@code null}, the stream overloads without a length record {@code -1}.\n");
    out.append("@org.jspecify.annotations.NullUnmarked\n");
    out.append("public interface ").append(RECORDED_PARAMETERS).append(" extends java.sql.PreparedStatement {\n");
    out.append("  /** The statement's recorder, after its open check. */\n");
    out.append("  dev.ryow.jdbc.session.ParameterRecorder openRecorder() throws java.sql.SQLException;\n\n");
    out.append("  /**\n")
        .append("   * The physical statement that checks each parameter in its setter, as Connector/J does, before it is\n")
        .append("   * recorded (null: checked when it is replayed, at execution).\n")
        .append("   */\n");
    out.append("  java.sql.PreparedStatement checker() throws java.sql.SQLException;\n");
    for (Method m : parameterSetters()) {
      out.append('\n');
      if (m.isAnnotationPresent(Deprecated.class)) {
        out.append("  @Deprecated\n  @SuppressWarnings(\"deprecation\")\n");
      }
      out.append("  @Override\n  default void ").append(m.getName()).append('(');
      List<String> arguments = parameters(out, m);
      Class<?>[] types = m.getParameterTypes();
      if (types.length == 2) {
        Class<?> value = types[1];
        if (value == java.sql.Date.class || value == java.sql.Time.class || value == java.sql.Timestamp.class) {
          arguments.add("null");
        } else if (value == java.io.InputStream.class || value == java.io.Reader.class) {
          arguments.add("-1");
        }
      }
      List<String> given = new ArrayList<>(arguments.subList(0, types.length));
      out.append(") throws java.sql.SQLException {\n");
      out.append("    dev.ryow.jdbc.session.ParameterRecorder recorder = openRecorder();\n");
      out.append("    java.sql.PreparedStatement checker = checker();\n");
      out.append("    if (checker != null) {\n");
      out.append("      checker.").append(m.getName()).append('(').append(String.join(", ", given)).append(");\n");
      out.append("    }\n");
      out.append("    recorder.").append(m.getName()).append('(').append(String.join(", ", arguments)).append(");\n");
      out.append("  }\n");
    }
    out.append("}\n");
    return out.toString();
  }

  /** Writes {@code m}'s parameters as {@code T0 a0, T1 a1, ...}; returns their names, in order. */
  private static List<String> parameters(StringBuilder out, Method m) {
    Type[] parameters = m.getGenericParameterTypes();
    List<String> arguments = new ArrayList<>();
    for (int i = 0; i < parameters.length; i++) {
      out.append(i > 0 ? ", " : "").append(typeName(parameters[i])).append(" a").append(i);
      arguments.add("a" + i);
    }
    return arguments;
  }

  /** The methods a class implementing {@code type} must have, one per signature, sorted. */
  static List<Method> methods(Class<?> type) {
    Map<String, Method> bySignature = new LinkedHashMap<>();
    for (Method m : type.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      String key = m.getName() + Arrays.toString(m.getParameterTypes());
      Method known = bySignature.get(key);
      // The declaration of the most specific interface wins (Statement.close over AutoCloseable.close).
      if (known == null || known.getDeclaringClass().isAssignableFrom(m.getDeclaringClass())) {
        bySignature.put(key, m);
      }
    }
    List<Method> sorted = new ArrayList<>(bySignature.values());
    sorted.sort(Comparator.comparing(GenerateDelegates::signature));
    return sorted;
  }

  /**
   * A generated file's first lines: the line that says it is generated from {@code source}, its package,
   * and its type's comment ({@code doc}: the comment's lines, each {@code " * ...\n"}).
   */
  private static StringBuilder header(String source, String doc) {
    StringBuilder out = new StringBuilder();
    out.append("// Generated by driver/src/build/java/GenerateDelegates.java from ").append(source)
        .append(" on every build: do not edit.\n");
    out.append("package ").append(PACKAGE).append(";\n\n");
    return out.append("/**\n").append(doc).append(" */\n");
  }

  private static String signature(Method m) {
    return m.getName() + Arrays.stream(m.getParameterTypes()).map(Class::getName).collect(Collectors.joining(",", "(", ")"));
  }

  static String generate(Class<?> type, String name) {
    String iface = type.getName();
    StringBuilder out = header(iface,
        " * Every method of {@link " + iface + "} passed unchanged to {@link #delegate()}; each\n"
        + " * {@link java.sql.SQLException} of the delegate goes through {@link #failed} before it reaches the caller.\n"
        + " * Subclasses override only the methods that do something else.\n");
    out.append("@org.jspecify.annotations.NullUnmarked\n");
    out.append("abstract class ").append(name).append(" implements ").append(iface).append(" {\n");
    out.append("  /** The physical object the next call goes to, after this wrapper's checks (open, still current). */\n");
    out.append("  abstract ").append(iface).append(" delegate() throws java.sql.SQLException;\n\n");
    out.append("  /** The physical object, unchecked: for the few methods that cannot throw. */\n");
    out.append("  abstract ").append(iface).append(" physical();\n\n");
    out.append("  /** Sees every {@code SQLException} of the delegate (a broken connection, for one); ")
        .append("returns what to throw. */\n");
    out.append("  abstract java.sql.SQLException failed(java.sql.SQLException e);\n");
    java.util.Set<String> checkOpen = CHECK_OPEN.getOrDefault(type, java.util.Set.of());
    if (!checkOpen.isEmpty()) {
      out.append("\n  /** Throws for a closed wrapper: the first call of ")
          .append(String.join(", ", new java.util.TreeSet<>(checkOpen))).append(". */\n");
      out.append("  abstract void checkOpen() throws java.sql.SQLException;\n");
    }
    if (methods(type).stream().anyMatch(m -> m.getReturnType() == java.sql.ResultSet.class)) {
      out.append("\n  /** The application's view of a result set the delegate returned (null stays null). */\n");
      out.append("  abstract java.sql.ResultSet wrap(java.sql.ResultSet physical);\n");
    }
    for (Method m : methods(type)) {
      out.append('\n');
      method(out, m, checkOpen.contains(m.getName()));
    }
    out.append("}\n");
    return out.toString();
  }

  private static void method(StringBuilder out, Method m, boolean checkOpen) {
    boolean deprecated = m.isAnnotationPresent(Deprecated.class);
    out.append("  @Override\n");
    if (deprecated) {
      out.append("  @Deprecated\n  @SuppressWarnings(\"deprecation\")\n");
    }
    out.append("  public ");
    TypeVariable<Method>[] typeParameters = m.getTypeParameters();
    if (typeParameters.length > 0) {
      out.append(Arrays.stream(typeParameters).map(GenerateDelegates::bounded).collect(Collectors.joining(", ", "<", "> ")));
    }
    String returnType = typeName(m.getGenericReturnType());
    out.append(returnType).append(' ').append(m.getName()).append('(');
    List<String> arguments = parameters(out, m);
    out.append(')');
    Class<?>[] exceptions = m.getExceptionTypes();
    boolean throwsSql = Arrays.asList(exceptions).contains(SQLException.class);
    if (exceptions.length > 0) {
      out.append(Arrays.stream(exceptions).map(Class::getName).collect(Collectors.joining(", ", " throws ", "")));
    }
    out.append(" {\n");
    String call = "d." + m.getName() + "(" + String.join(", ", arguments) + ")";
    if (m.getReturnType() == java.sql.ResultSet.class) {
      call = "wrap(" + call + ")";
    }
    String result = m.getReturnType() == void.class ? call + ";" : "return " + call + ";";
    if (m.getName().equals("unwrap") && arguments.size() == 1) {
      out.append("    if (a0.isInstance(this)) {\n      return a0.cast(this);\n    }\n");
    } else if (m.getName().equals("isWrapperFor") && arguments.size() == 1) {
      out.append("    if (a0.isInstance(this)) {\n      return true;\n    }\n");
    }
    if (throwsSql) {
      if (checkOpen) {
        out.append("    checkOpen();\n");
      }
      out.append("    ").append(m.getDeclaringClass().getName()).append(" d = delegate();\n");
      out.append("    try {\n      ").append(result).append("\n    } catch (java.sql.SQLException e) {\n")
          .append("      throw failed(e);\n    }\n");
    } else {
      // Nothing to hook (DatabaseMetaData.getDriverMajorVersion and the like): the delegate answers.
      out.append("    ").append(m.getDeclaringClass().getName()).append(" d = physical();\n");
      out.append("    ").append(result).append('\n');
    }
    out.append("  }\n");
  }

  private static String bounded(TypeVariable<?> v) {
    Type[] bounds = v.getBounds();
    if (bounds.length == 1 && bounds[0] == Object.class) {
      return v.getName();
    }
    return v.getName()
        + Arrays.stream(bounds).map(GenerateDelegates::typeName).collect(Collectors.joining(" & ", " extends ", ""));
  }

  private static String typeName(Type t) {
    return t.getTypeName().replace('$', '.');
  }
}
