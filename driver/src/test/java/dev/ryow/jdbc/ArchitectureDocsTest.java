package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The pages of {@code docs/architecture/} name only code that exists: every class, {@code Class.member},
 * {@code Class#member}, {@code package.Class}, {@code dev.ryow...} and {@code …package} name in a code span
 * resolves against the project's sources (parsed as text: the types each file declares, with their methods,
 * fields, enum constants, record components and nested types; members of supertypes count) or, for a name
 * the project does not declare, against the JDK's and Connector/J's classes. The package dependencies that
 * {@code packages.md} states ("Depends on ...") are the ones the package's imports show.
 */
class ArchitectureDocsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path DOCS = ROOT.resolve("docs/architecture");
  private static final String BASE = "dev.ryow.jdbc";
  private static final Pattern CODE_SPAN = Pattern.compile("`([^`\n]+)`");
  private static final String TYPE = "[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*";
  private static final Pattern MEMBER_REF = Pattern.compile(
      "(?<![\\w$.#/])(?:([a-z]+)[./])?(" + TYPE + ")[.#]([A-Za-z_$][\\w$]*)");
  private static final Pattern TYPE_REF = Pattern.compile(
      "(?<![\\w$.#/])(?:([a-z]+)[./])?(" + TYPE + ")(?![\\w$*])");
  private static final Pattern PACKAGE_REF = Pattern.compile("(?:dev\\.ryow\\.[a-z0-9.]*[a-z0-9]|(?:…|\\.\\.\\.)([a-z]+))");
  private static final Pattern CAMEL_REF = Pattern.compile("(?<![\\w$.#/:=-])([a-z]+[A-Z][A-Za-z0-9]*)(?![\\w$*.-])");
  /** The types whose record components are JMX attribute and column names (capitalised). */
  private static final List<String> JMX_RECORDS = List.of("MetricsSnapshot", "ReplicaState");
  /** Connector/J's statement and connection methods and its property names (PropertyKey's constants). */
  private static final List<String> CONNECTOR_J_NAMES = List.of("com.mysql.cj.jdbc.JdbcStatement",
      "com.mysql.cj.jdbc.JdbcConnection", "com.mysql.cj.conf.PropertyKey");
  private static final List<String> EXTERNAL_PACKAGES = List.of("java.lang", "java.sql", "java.util",
      "java.util.concurrent", "java.util.concurrent.locks", "java.util.concurrent.atomic", "java.io", "java.net",
      "java.lang.reflect", "java.math", "javax.sql", "javax.management", "com.mysql.cj", "com.mysql.cj.jdbc",
      "com.mysql.cj.jdbc.exceptions", "com.mysql.cj.protocol", "com.mysql.cj.exceptions");

  @Test
  void everyCodeNameOnTheArchitecturePagesResolves() throws IOException {
    Code code = Code.scan();
    List<String> stale = new ArrayList<>();
    int checked = 0;
    for (Path page : pages()) {
      List<String> lines = Files.readAllLines(page);
      boolean fenced = false;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.strip().startsWith("```")) {
          fenced = !fenced;
          continue;
        }
        if (fenced) {
          continue;
        }
        Matcher span = CODE_SPAN.matcher(line);
        while (span.find()) {
          for (String problem : code.problems(span.group(1))) {
            stale.add(ROOT.relativize(page) + ":" + (i + 1) + ": `" + span.group(1) + "`: " + problem);
          }
          checked++;
        }
      }
    }
    assertThat(checked).as("code spans checked").isGreaterThan(500);
    assertThat(stale).as("names on docs/architecture/ pages that the code does not declare").isEmpty();
  }

  @Test
  void packageDependenciesStatedInPackagesMdAreTheImports() throws IOException {
    String list = "((?:`[a-z]+`(?:, )?)+)";
    Pattern row = Pattern.compile("^\\| `…([a-z]+)` \\|.*Depends on " + list + "(?:never on " + list + ")?");
    List<String> wrong = new ArrayList<>();
    int rows = 0;
    for (String line : Files.readAllLines(DOCS.resolve("packages.md"))) {
      Matcher m = row.matcher(line);
      if (!m.find()) {
        continue;
      }
      rows++;
      String pkg = m.group(1);
      Set<String> stated = spans(m.group(2));
      Set<String> actual = imports(pkg);
      actual.retainAll(Set.of("route", "server", "gtid", "sql", "config", "cluster", "metrics", "proxy", "session"));
      if (!stated.equals(actual)) {
        wrong.add("…" + pkg + " states it depends on " + stated + ", its imports name " + actual);
      }
      if (m.group(3) != null) {
        for (String never : spans(m.group(3))) {
          if (imports(pkg).contains(never)) {
            wrong.add("…" + pkg + " states it never depends on " + never + ", its imports name it");
          }
        }
      }
    }
    assertThat(rows).as("rows of packages.md that state dependencies").isPositive();
    assertThat(wrong).isEmpty();
  }

  @Test
  void theCheckFindsAStaleName() throws IOException {
    Code code = Code.scan();
    assertThat(code.problems("Session.begin(x)")).isEmpty();
    assertThat(code.problems("Session.beginn(x)")).containsExactly("no member beginn in Session");
    assertThat(code.problems("SessionX")).containsExactly("no class SessionX");
    assertThat(code.problems("readsOn")).isEmpty();
    assertThat(code.problems("readsOnn")).containsExactly("no member readsOnn in any class");
    assertThat(code.problems("WaitBoundMillis")).isEmpty();
    assertThat(code.problems("databaseTerm")).isEmpty();
    assertThat(code.problems("Router.route(kind, transactionState)")).isEmpty();
    assertThat(code.problems("…sessions")).containsExactly("no package dev.ryow.jdbc.sessions");
    assertThat(code.problems("cluster.ReplicaSet")).containsExactly("no class ReplicaSet in package cluster");
    assertThat(code.problems("ResultSet.getStatement()")).isEmpty();
    assertThat(code.problems("ResultSet.getStatment()")).containsExactly("no member getStatment in ResultSet");
  }

  private static Set<String> spans(String text) {
    Set<String> names = new TreeSet<>();
    Matcher m = CODE_SPAN.matcher(text);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  private static Set<String> imports(String pkg) throws IOException {
    Set<String> named = new TreeSet<>();
    Pattern imp = Pattern.compile("^import (?:static )?" + Pattern.quote(BASE) + "\\.([a-z]+)\\.", Pattern.MULTILINE);
    try (Stream<Path> files = Files.walk(ROOT.resolve("driver/src/main/java/dev/ryow/jdbc/" + pkg))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        Matcher m = imp.matcher(Files.readString(f));
        while (m.find()) {
          named.add(m.group(1));
        }
      }
    }
    named.remove(pkg);
    return named;
  }

  private static List<Path> pages() throws IOException {
    try (Stream<Path> files = Files.list(DOCS)) {
      return files.filter(f -> f.toString().endsWith(".md")).sorted().toList();
    }
  }

  /** The project's declared types, parsed from its Java sources. */
  private static final class Code {
    /** Simple name to its declarations (one name may be declared in several packages). */
    private final Map<String, List<Decl>> types = new HashMap<>();
    private final Set<String> packages = new HashSet<>();
    private final Set<String> allMembers = new HashSet<>();

    static Code scan() throws IOException {
      Code code = new Code();
      try (Stream<Path> files = Files.walk(ROOT)) {
        for (Path f : files.filter(Code::isSource).toList()) {
          code.read(f);
        }
      }
      code.types.values().forEach(ds -> ds.forEach(d -> code.allMembers.addAll(d.members)));
      for (String c : CONNECTOR_J_NAMES) {
        try {
          code.allMembers.addAll(externalMembers(Class.forName(c, false, ArchitectureDocsTest.class.getClassLoader())));
        } catch (ClassNotFoundException e) {
          throw new IllegalStateException(c + " is not on the test class path", e);
        }
      }
      // the -all jar's relocated packages
      Matcher shaded = Pattern.compile("<shadedPattern>([\\w.]+)</shadedPattern>")
          .matcher(Files.readString(ROOT.resolve("driver/pom.xml")));
      while (shaded.find()) {
        code.packages.add(shaded.group(1));
      }
      return code;
    }

    private static boolean isSource(Path f) {
      String s = ROOT.relativize(f).toString().replace('\\', '/');
      return s.endsWith(".java") && !s.contains("/.") && !s.startsWith(".")
          && (s.contains("/src/") || s.contains("/target/generated-sources/"));
    }

    List<String> problems(String span) {
      List<String> problems = new ArrayList<>();
      if (span.contains("src/") || span.endsWith(".java") || span.endsWith(".properties")) {
        return problems;  // a file path
      }
      Matcher p = PACKAGE_REF.matcher(span);
      while (p.find()) {
        String pkg = p.group(1) != null ? BASE + "." + p.group(1) : p.group();
        if (!packages.contains(pkg)) {
          problems.add("no package " + pkg);
        }
      }
      Matcher m = MEMBER_REF.matcher(span);
      Set<Integer> typeStarts = new HashSet<>();
      while (m.find()) {
        typeStarts.add(m.start(2));
        String type = m.group(2);
        String member = m.group(3);
        if (member.equals("class")) {
          continue;
        }
        List<Decl> decls = declarations(m.group(1), type, problems);
        if (decls == null) {
          continue;
        }
        if (decls.isEmpty()) {
          Class<?> external = external(type);
          if (external == null) {
            problems.add("no class " + type);
          } else if (!externalMembers(external).contains(member)) {
            problems.add("no member " + member + " in " + type);
          }
        } else if (decls.stream().noneMatch(d -> members(d, new HashSet<>()).contains(member))) {
          problems.add("no member " + member + " in " + type);
        }
      }
      Matcher t = TYPE_REF.matcher(span);
      while (t.find()) {
        if (typeStarts.contains(t.start(2))) {
          continue;
        }
        List<Decl> decls = declarations(t.group(1), t.group(2), problems);
        if (decls != null && decls.isEmpty() && external(t.group(2)) == null && !jmxAttribute(t.group(2))) {
          problems.add("no class " + t.group(2));
        }
      }
      Matcher c = CAMEL_REF.matcher(span);
      while (c.find()) {
        boolean parameter = span.lastIndexOf('(', c.start()) > span.lastIndexOf(')', c.start());
        if (!parameter && !allMembers.contains(c.group(1))) {
          problems.add("no member " + c.group(1) + " in any class");
        }
      }
      return problems;
    }

    private boolean jmxAttribute(String name) {
      String component = Character.toLowerCase(name.charAt(0)) + name.substring(1);
      return JMX_RECORDS.stream().flatMap(r -> types.getOrDefault(r, List.of()).stream())
          .anyMatch(d -> d.members.contains(component));
    }

    /** The declarations of a type (of a package, if named); null after reporting a package with no such type. */
    private List<Decl> declarations(String pkg, String type, List<String> problems) {
      List<Decl> all = types.getOrDefault(type, List.of());
      if (pkg == null) {
        return all;
      }
      List<Decl> in = all.stream().filter(d -> d.pkg.equals(BASE + "." + pkg)).toList();
      if (in.isEmpty()) {
        problems.add("no class " + type + " in package " + pkg);
        return null;
      }
      return in;
    }

    private Set<String> members(Decl decl, Set<Decl> seen) {
      Set<String> all = new HashSet<>(decl.members);
      if (seen.add(decl)) {
        for (String sup : decl.supertypes) {
          for (Decl s : types.getOrDefault(sup, List.of())) {
            all.addAll(members(s, seen));
          }
          Class<?> external = types.containsKey(sup) ? null : external(sup);
          if (external != null) {
            all.addAll(externalMembers(external));
          }
        }
      }
      return all;
    }

    private static Class<?> external(String simpleName) {
      for (String pkg : EXTERNAL_PACKAGES) {
        try {
          return Class.forName(pkg + "." + simpleName, false, ArchitectureDocsTest.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
          // not in this package
        }
      }
      return null;
    }

    private static Set<String> externalMembers(Class<?> c) {
      Set<String> names = new HashSet<>();
      for (var m : c.getMethods()) {
        names.add(m.getName());
      }
      for (var f : c.getFields()) {
        names.add(f.getName());
      }
      for (var n : c.getClasses()) {
        names.add(n.getSimpleName());
      }
      return names;
    }

    private void read(Path file) throws IOException {
      String src = JavaText.strip(Files.readString(file));
      Matcher pkgDecl = Pattern.compile("\\bpackage\\s+([\\w.]+)\\s*;").matcher(src);
      String pkg = pkgDecl.find() ? pkgDecl.group(1) : "";
      packages.add(pkg);
      int[] open = JavaText.innermostOpenBrace(src);
      Map<Integer, Decl> byBrace = new HashMap<>();
      Matcher t = Pattern.compile("\\b(class|interface|enum|record)\\s+([A-Z][\\w$]*)").matcher(src);
      while (t.find()) {
        int brace = src.indexOf('{', t.end());
        if (brace < 0) {
          continue;
        }
        String header = src.substring(t.end(), brace);
        Decl decl = new Decl(pkg, t.group(2));
        Matcher sup = Pattern.compile("\\b(?:extends|implements)\\s+([^{]*)").matcher(header);
        if (sup.find()) {
          Matcher n = Pattern.compile("([A-Z][\\w$]*)(?![\\w$.])").matcher(sup.group(1).replaceAll("<[^<>]*>", ""));
          while (n.find()) {
            decl.supertypes.add(n.group(1));
          }
        }
        if (t.group(1).equals("record")) {
          int lp = header.indexOf('(');
          int rp = header.lastIndexOf(')');
          if (lp >= 0 && rp > lp) {
            Matcher c = Pattern.compile("([a-zA-Z_$][\\w$]*)\\s*(?:,|$)")
                .matcher(header.substring(lp + 1, rp).replaceAll("<[^<>]*>", ""));
            while (c.find()) {
              decl.members.add(c.group(1));
            }
          }
        }
        if (t.group(1).equals("enum")) {
          int end = brace + 1;
          int depth = 0;
          while (end < src.length() && !(depth == 0 && (src.charAt(end) == ';' || src.charAt(end) == '}'))) {
            char ch = src.charAt(end);
            depth += ch == '(' || ch == '{' ? 1 : ch == ')' || ch == '}' ? -1 : 0;
            end++;
          }
          Matcher c = Pattern.compile("\\b([A-Z][A-Z0-9_]*)\\b").matcher(src.substring(brace + 1, end));
          while (c.find()) {
            decl.members.add(c.group(1));
          }
        }
        Decl outer = byBrace.get(open[t.start()]);
        if (outer != null) {
          outer.members.add(decl.name);
        }
        byBrace.put(brace, decl);
        types.computeIfAbsent(decl.name, k -> new ArrayList<>()).add(decl);
      }
      Matcher d = Pattern.compile("([\\w$>\\]]+)\\s+([a-zA-Z_$][\\w$]*)\\s*[(=;,]").matcher(src);
      while (d.find()) {
        Decl owner = byBrace.get(open[d.start(2)]);
        if (owner != null && !JavaText.KEYWORDS.contains(d.group(1))) {
          owner.members.add(d.group(2));
        }
      }
    }
  }

  /** One declared type: its package, simple name, members and the simple names of its supertypes. */
  private static final class Decl {
    final String pkg;
    final String name;
    final Set<String> members = new HashSet<>();
    final Set<String> supertypes = new LinkedHashSet<>();

    Decl(String pkg, String name) {
      this.pkg = pkg;
      this.name = name;
    }
  }

  /** Just enough of Java's lexical rules to find declarations. */
  private static final class JavaText {
    static final Set<String> KEYWORDS = Set.of("return", "new", "throw", "else", "case", "yield", "assert",
        "package", "import", "instanceof", "throws", "extends", "implements", "permits");

    /** The source with comments, string, text-block and char literals blanked (same length, same offsets). */
    static String strip(String s) {
      StringBuilder out = new StringBuilder(s);
      int i = 0;
      while (i < s.length()) {
        int end;
        if (s.startsWith("//", i)) {
          end = s.indexOf('\n', i);
          end = end < 0 ? s.length() : end;
        } else if (s.startsWith("/*", i)) {
          end = s.indexOf("*/", i + 2);
          end = end < 0 ? s.length() : end + 2;
        } else if (s.startsWith("\"\"\"", i)) {
          end = s.indexOf("\"\"\"", i + 3);
          end = end < 0 ? s.length() : end + 3;
        } else if (s.charAt(i) == '"' || s.charAt(i) == '\'') {
          char q = s.charAt(i);
          end = i + 1;
          while (end < s.length() && s.charAt(end) != q && s.charAt(end) != '\n') {
            end += s.charAt(end) == '\\' ? 2 : 1;
          }
          end = Math.min(end + 1, s.length());
        } else {
          i++;
          continue;
        }
        for (int k = i; k < end; k++) {
          if (out.charAt(k) != '\n') {
            out.setCharAt(k, ' ');
          }
        }
        i = end;
      }
      return out.toString();
    }

    /** For each offset, the offset of the innermost '{' still open there (-1 at top level). */
    static int[] innermostOpenBrace(String s) {
      int[] open = new int[s.length()];
      Deque<Integer> stack = new ArrayDeque<>();
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '}' && !stack.isEmpty()) {
          stack.pop();
        }
        open[i] = stack.isEmpty() ? -1 : stack.peek();
        if (c == '{') {
          stack.push(i);
        }
      }
      return open;
    }
  }
}
