package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering the build enforces, read from the compiled classes' constant pools (every class,
 * field and method a class names, including types that only appear in signatures):
 *
 * <ul>
 *   <li>{@code proxy} (the JDBC face) → {@code session} (the routing brain) → {@code route} (the
 *       decisions) → {@code cluster} (shared cluster state and polling; the facade {@code Cluster} and the
 *       state it holds above its sub-packages, such as {@code cluster.wait}) → {@code server}, {@code gtid},
 *       {@code sql}, {@code config}, {@code metrics}: nothing below depends on {@code proxy} or
 *       {@code session}, and {@code cluster} never names {@code route};
 *   <li>{@code com.mysql.*} only in {@code server};
 *   <li>reflection ({@code java.lang.reflect}, {@code Class.forName}, {@code Class.getMethod} and
 *       kin) only where it is today ({@code metrics.ClusterMBean}, the JMX view), never on the
 *       statement path;
 *   <li>the thread's consistency scope ({@code ConsistencyScope.current()}, a {@code ThreadLocal}) read
 *       only as a call of the session begins ({@code Session.beginCall}) and by the public API that
 *       answers for the calling thread: the scope then travels with the call, in its plan.
 * </ul>
 */
class ArchitectureTest {
  private static final String ROOT = "dev/ryow/jdbc/";
  /** Packages that may name {@code proxy}: the face itself and the driver that hands it out. */
  private static final Set<String> MAY_USE_PROXY = Set.of("dev/ryow/jdbc", ROOT + "proxy");
  /** Packages that may name {@code session}: the face, the driver, the session itself. */
  private static final Set<String> MAY_USE_SESSION = Set.of("dev/ryow/jdbc", ROOT + "proxy", ROOT + "session");
  /** The only classes (and their nested classes) that use reflection today. */
  private static final Set<String> REFLECTION_ALLOWED = Set.of(ROOT + "metrics/ClusterMBean");
  private static final Set<String> REFLECTIVE_CLASS_METHODS = Set.of(
      "forName", "getMethod", "getMethods", "getDeclaredMethod", "getDeclaredMethods", "getField", "getFields",
      "getDeclaredField", "getDeclaredFields", "getConstructor", "getConstructors", "getDeclaredConstructor",
      "getDeclaredConstructors", "getRecordComponents", "newInstance");
  /** The scope's {@code ThreadLocal} look-up, as a method reference of the constant pool. */
  private static final String SCOPE_LOOKUP = "dev/ryow/jdbc/ConsistencyScope.current";
  /**
   * The only methods that may call it: the session's one capture as a call begins, and the public API that
   * answers for the calling thread ({@code RyowConnection.consistencyMode}, the HTTP and messaging tokens).
   */
  private static final Set<String> MAY_LOOK_UP_THE_SCOPE = Set.of(
      ROOT + "session/Session.beginCall", ROOT + "session/Session.consistencyMode",
      ROOT + "web/HttpTokens.outgoing", ROOT + "web/HttpTokens.merge", ROOT + "messaging/MessageTokens.outgoing");
  private static final Pattern DESCRIPTOR_TYPE = Pattern.compile("L([A-Za-z0-9_$/]+)[;<]");

  private static final List<ClassFile> CLASSES = new ArrayList<>();

  @BeforeAll
  static void readClasses() throws IOException {
    Path classes = Path.of("target", "classes", "dev", "ryow", "jdbc");
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
        try (InputStream in = Files.newInputStream(p)) {
          CLASSES.add(ClassFile.read(in));
        }
      }
    }
    // A scan that finds nothing proves nothing: the driver has well over a hundred classes.
    assertThat(CLASSES).hasSizeGreaterThan(100);
    assertThat(CLASSES).anySatisfy(c -> assertThat(c.name).isEqualTo(ROOT + "proxy/LogicalConnection"));
    assertThat(CLASSES).anySatisfy(c -> assertThat(c.name).startsWith(ROOT + "session/"));
  }

  @Test
  void nothingBelowTheFaceDependsOnProxyOrSession() {
    List<String> violations = new ArrayList<>();
    for (ClassFile c : CLASSES) {
      for (String used : c.types) {
        if (used.startsWith(ROOT + "proxy/") && !MAY_USE_PROXY.contains(c.packageName())) {
          violations.add(c.name + " -> " + used);
        }
        if (used.startsWith(ROOT + "session/") && !MAY_USE_SESSION.contains(c.packageName())) {
          violations.add(c.name + " -> " + used);
        }
      }
    }
    assertThat(violations).as("dependencies on proxy/session from below them").isEmpty();
  }

  @Test
  void clusterStateNeverDependsOnTheDecisions() {
    List<String> violations = new ArrayList<>();
    for (ClassFile c : CLASSES) {
      if (!c.packageName().equals(ROOT + "cluster") && !c.packageName().startsWith(ROOT + "cluster/")) {
        continue;
      }
      for (String used : c.types) {
        if (used.startsWith(ROOT + "route/")) {
          violations.add(c.name + " -> " + used);
        }
      }
    }
    assertThat(CLASSES).anySatisfy(c -> assertThat(c.name).isEqualTo(ROOT + "cluster/Cluster"));
    assertThat(violations).as("dependencies of cluster on route").isEmpty();
  }

  /**
   * {@code Cluster} is a facade over parts; the parts kept in sub-packages of {@code cluster} (such as
   * {@code cluster.wait}) are below it: they name nothing of the {@code cluster} package itself, so the arrows
   * point from the facade and the state it holds down into them, never back.
   */
  @Test
  void clusterSubPackagesNeverNameTheFacadesPackage() {
    List<String> violations = new ArrayList<>();
    int scanned = 0;
    for (ClassFile c : CLASSES) {
      if (!c.packageName().startsWith(ROOT + "cluster/")) {
        continue;
      }
      scanned++;
      for (String used : c.types) {
        if (used.startsWith(ROOT + "cluster/") && used.lastIndexOf('/') == (ROOT + "cluster").length()) {
          violations.add(c.name + " -> " + used);
        }
      }
    }
    assertThat(scanned).as("classes in sub-packages of cluster").isPositive();
    assertThat(violations).as("dependencies of cluster's sub-packages on cluster itself").isEmpty();
  }

  /**
   * What differs between MySQL and MariaDB (GTID sets or positions, capture, waits, health) stays in
   * {@code server} and {@code gtid}: the routing brain and the decisions hold {@code gtid.Position} and ask
   * {@code server.PhysicalConnection}, and never name a flavour's own classes.
   */
  private static final Set<String> FLAVOUR_SPECIFIC = Set.of(
      ROOT + "server/MariaDbWait", ROOT + "server/LastGtidTracker", ROOT + "server/MariaDbServer",
      ROOT + "server/ServerFlavor", ROOT + "server/GtidTracker", ROOT + "gtid/GtidSet",
      ROOT + "gtid/MariaDbGtidPosition", ROOT + "gtid/BinlogPosition");

  @Test
  void routeAndSessionAreFlavourAgnostic() {
    List<String> violations = new ArrayList<>();
    int scanned = 0;
    for (ClassFile c : CLASSES) {
      if (!c.packageName().equals(ROOT + "route") && !c.packageName().equals(ROOT + "session")) {
        continue;
      }
      scanned++;
      for (String used : c.types) {
        String outer = used.contains("$") ? used.substring(0, used.indexOf('$')) : used;
        if (FLAVOUR_SPECIFIC.contains(outer)) {
          violations.add(c.name + " -> " + used);
        }
      }
    }
    assertThat(scanned).as("route and session classes scanned").isGreaterThan(20);
    assertThat(violations).as("flavour specifics named by route/session").isEmpty();
  }

  @Test
  void onlyServerNamesConnectorJ() {
    List<String> violations = new ArrayList<>();
    for (ClassFile c : CLASSES) {
      if (c.packageName().equals(ROOT + "server")) {
        continue;
      }
      for (String used : c.types) {
        if (used.startsWith("com/mysql/")) {
          violations.add(c.name + " -> " + used);
        }
      }
    }
    assertThat(violations).as("com.mysql.* outside dev.ryow.jdbc.server").isEmpty();
  }

  /** The same rule on the sources: even an import the compiler drops (unused) stays out of other packages. */
  @Test
  void onlyServerImportsConnectorJ() throws IOException {
    Path sources = Path.of("src", "main", "java", "dev", "ryow", "jdbc");
    Path server = sources.resolve("server");
    List<String> violations = new ArrayList<>();
    int files = 0;
    try (Stream<Path> all = Files.walk(sources)) {
      for (Path p : (Iterable<Path>) all.filter(f -> f.toString().endsWith(".java"))::iterator) {
        files++;
        if (p.startsWith(server)) {
          continue;
        }
        for (String line : Files.readAllLines(p)) {
          if (line.startsWith("import com.mysql.") || line.startsWith("import static com.mysql.")) {
            violations.add(sources.relativize(p) + ": " + line);
          }
        }
      }
    }
    assertThat(files).isGreaterThan(100);
    assertThat(violations).as("com.mysql.* imports outside dev.ryow.jdbc.server").isEmpty();
  }

  @Test
  void reflectionOnlyWhereItIsToday() {
    List<String> violations = new ArrayList<>();
    for (ClassFile c : CLASSES) {
      String outer = c.name.contains("$") ? c.name.substring(0, c.name.indexOf('$')) : c.name;
      if (REFLECTION_ALLOWED.contains(outer)) {
        continue;
      }
      for (String used : c.types) {
        if (used.startsWith("java/lang/reflect/")) {
          violations.add(c.name + " -> " + used);
        }
      }
      for (String m : c.methods) {
        if (m.startsWith("java/lang/Class.") && REFLECTIVE_CLASS_METHODS.contains(m.substring("java/lang/Class.".length()))) {
          violations.add(c.name + " -> " + m);
        }
      }
    }
    assertThat(violations).as("reflection outside " + REFLECTION_ALLOWED).isEmpty();
  }

  /**
   * The scope travels with the call ({@code Session.beginCall} captures it into the session's plan, where the
   * read's placement and the GTIDs of a write find it): no other method of the driver reads the
   * {@code ThreadLocal}, so that a look-up cannot creep back onto the statement path.
   */
  @Test
  void theThreadsScopeIsReadOnlyAsACallBeginsAndByThePublicApi() {
    List<String> violations = new ArrayList<>();
    Set<String> callers = new TreeSet<>();
    for (ClassFile c : CLASSES) {
      for (String method : c.staticCallers(SCOPE_LOOKUP)) {
        callers.add(c.name + "." + method);
        if (!MAY_LOOK_UP_THE_SCOPE.contains(c.name + "." + method)) {
          violations.add(c.name + "." + method + " -> " + SCOPE_LOOKUP);
        }
      }
    }
    assertThat(callers).as("a scan that finds the one capture").contains(ROOT + "session/Session.beginCall");
    assertThat(violations).as("reads of the thread's scope outside " + MAY_LOOK_UP_THE_SCOPE).isEmpty();
  }

  /**
   * The class names and method references of one class file's constant pool, and, for each of its methods,
   * the static methods its code calls.
   */
  private static final class ClassFile {
    final String name;
    final Set<String> types = new TreeSet<>();
    final Set<String> methods = new TreeSet<>();
    /** Per method name: the {@code owner.name} of each {@code invokestatic} in its code. */
    final java.util.Map<String, Set<String>> staticCalls = new java.util.TreeMap<>();

    private ClassFile(String name) {
      this.name = name;
    }

    /** The names of this class's methods whose code calls the static method {@code target} ({@code owner.name}). */
    Set<String> staticCallers(String target) {
      Set<String> out = new TreeSet<>();
      staticCalls.forEach((method, called) -> {
        if (called.contains(target)) {
          out.add(method);
        }
      });
      return out;
    }

    String packageName() {
      int slash = name.lastIndexOf('/');
      return slash < 0 ? "" : name.substring(0, slash);
    }

    static ClassFile read(InputStream stream) throws IOException {
      DataInputStream in = new DataInputStream(stream);
      if (in.readInt() != 0xCAFEBABE) {
        throw new IOException("not a class file");
      }
      in.readUnsignedShort();
      in.readUnsignedShort();
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      int[] classNameIndex = new int[count];
      int[][] memberRef = new int[count][];
      int[][] nameAndType = new int[count][];
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> utf8[i] = in.readUTF();
          case 3, 4 -> in.readInt();
          case 5, 6 -> {
            in.readLong();
            i++;
          }
          case 7 -> classNameIndex[i] = in.readUnsignedShort();
          case 8, 16, 19, 20 -> in.readUnsignedShort();
          case 9, 10, 11 -> memberRef[i] = new int[] {tag, in.readUnsignedShort(), in.readUnsignedShort()};
          case 12 -> nameAndType[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
          case 15 -> {
            in.readUnsignedByte();
            in.readUnsignedShort();
          }
          case 17, 18 -> {
            in.readUnsignedShort();
            in.readUnsignedShort();
          }
          default -> throw new IOException("unknown constant pool tag " + tag);
        }
      }
      in.readUnsignedShort(); // access flags
      ClassFile c = new ClassFile(utf8[classNameIndex[in.readUnsignedShort()]]);
      in.readUnsignedShort(); // super class
      in.skipBytes(2 * in.readUnsignedShort()); // interfaces
      skipMembers(in); // fields
      for (int m = in.readUnsignedShort(); m > 0; m--) {
        in.readUnsignedShort(); // access flags
        String method = utf8[in.readUnsignedShort()];
        in.readUnsignedShort(); // descriptor
        Set<String> called = c.staticCalls.computeIfAbsent(method, k -> new TreeSet<>());
        for (int a = in.readUnsignedShort(); a > 0; a--) {
          String attribute = utf8[in.readUnsignedShort()];
          byte[] body = new byte[in.readInt()];
          in.readFully(body);
          if (attribute.equals("Code")) {
            staticCalls(body, memberRef, nameAndType, classNameIndex, utf8, called);
          }
        }
      }
      for (int i = 1; i < count; i++) {
        if (classNameIndex[i] != 0) {
          String n = utf8[classNameIndex[i]];
          c.types.add(n.startsWith("[") ? n.replaceAll("^\\[+L?|;$", "") : n);
        }
        if (utf8[i] != null) {
          Matcher m = DESCRIPTOR_TYPE.matcher(utf8[i]);
          while (m.find()) {
            c.types.add(m.group(1));
          }
        }
        int[] ref = memberRef[i];
        if (ref != null && ref[0] != 9) {
          String owner = utf8[classNameIndex[ref[1]]];
          c.methods.add(owner + "." + utf8[nameAndType[ref[2]][0]]);
        }
      }
      return c;
    }

    private static void skipMembers(DataInputStream in) throws IOException {
      for (int n = in.readUnsignedShort(); n > 0; n--) {
        in.skipBytes(6); // access flags, name, descriptor
        for (int a = in.readUnsignedShort(); a > 0; a--) {
          in.readUnsignedShort();
          in.skipBytes(in.readInt());
        }
      }
    }

    /**
     * The {@code invokestatic} (0xB8) calls of a {@code Code} attribute's bytecode, by the three bytes of
     * each: an operand that happens to hold the same bytes would name one more call, never hide one.
     */
    private static void staticCalls(byte[] code, int[][] memberRef, int[][] nameAndType, int[] classNameIndex,
        String[] utf8, Set<String> out) {
      int length = ((code[4] & 0xFF) << 24) | ((code[5] & 0xFF) << 16) | ((code[6] & 0xFF) << 8) | (code[7] & 0xFF);
      for (int i = 8; i + 2 < 8 + length; i++) {
        if ((code[i] & 0xFF) != 0xB8) {
          continue;
        }
        int index = ((code[i + 1] & 0xFF) << 8) | (code[i + 2] & 0xFF);
        int[] ref = index < memberRef.length ? memberRef[index] : null;
        if (ref != null && ref[0] != 9) {
          out.add(utf8[classNameIndex[ref[1]]] + "." + utf8[nameAndType[ref[2]][0]]);
        }
      }
    }
  }
}
