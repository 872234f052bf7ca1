package dev.ryow.jdbc.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rule that keeps the project honest about its defaults: no integration test (this module's and the
 * Spring Boot starter's), demo or benchmark
 * changes the consistency mode, switches monotonic reads off, lifts the fallback budget or turns
 * transaction replay on, unless an integration test class says with {@link AboutSettings} that it is
 * about that setting. (Runs with the unit tests of this module, before the sandbox starts.)
 */
class ItSettingsRuleTest {
  /** The settings that decide what users get: consistency, monotonic reads, fallback and transaction replay. */
  private static final Pattern GUARDED = Pattern.compile("ryow\\.(consistency|monotonicReads|fallback|fallbackRate"
      + "|fallbackBurst|fallbackDegrade|transactionReplay)(?![A-Za-z])");
  /** Changing the mode through the API counts as changing {@code ryow.consistency}. */
  private static final Pattern MODE_API = Pattern.compile("setConsistencyMode\\s*\\(");
  private static final Pattern DECLARED = Pattern.compile("@AboutSettings\\s*\\((?:value\\s*=\\s*)?\\{?([^}]*?)\\}?\\s*,\\s*why");
  private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");

  private static final Path MODULE = Path.of("").toAbsolutePath();
  private static final Path ROOT = MODULE.getParent();

  @Test
  void integrationTestsChangeOnlyTheGuardedSettingsTheyAreAbout() throws IOException {
    List<String> violations = new ArrayList<>();
    int scanned = 0;
    List<Path> files = new ArrayList<>(javaFiles(MODULE.resolve("src/test/java")));
    files.addAll(javaFiles(ROOT.resolve("ryow-spring-boot-starter-tests/src/test/java")));
    for (Path file : files) {
      String name = file.getFileName().toString();
      if (name.equals("ItSettingsRuleTest.java") || name.equals("AboutSettings.java")) {
        continue;
      }
      scanned++;
      String text = Files.readString(file, StandardCharsets.UTF_8);
      Set<String> used = guardedSettingsIn(text);
      Set<String> declared = declaredIn(text);
      used.removeAll(declared);
      if (!used.isEmpty()) {
        violations.add(name + " changes " + used + " without @AboutSettings");
      }
    }
    assertThat(scanned).as("integration test sources found under " + MODULE).isGreaterThan(10);
    assertThat(violations).isEmpty();
  }

  @Test
  void theDemoAndTheBenchmarksRunOnDefaults() throws IOException {
    List<String> violations = new ArrayList<>();
    List<Path> files = new ArrayList<>(javaFiles(ROOT.resolve("benchmarks/src/main")));
    files.add(ROOT.resolve("sandbox/demo"));
    files.add(ROOT.resolve("benchmarks/run-benchmarks"));
    for (Path file : files) {
      Set<String> used = guardedSettingsIn(Files.readString(file, StandardCharsets.UTF_8));
      if (!used.isEmpty()) {
        violations.add(ROOT.relativize(file) + " changes " + used);
      }
    }
    assertThat(files).hasSizeGreaterThan(3);
    assertThat(violations).isEmpty();
  }

  @Test
  void theRuleSeesWhatItGuards() {
    assertThat(guardedSettingsIn("Topology.ryow(\"ryow.fallbackRate=100\", \"ryow.waitTimeout=5\")"))
        .containsExactly("ryow.fallbackRate");
    assertThat(guardedSettingsIn("c.unwrap(RyowConnection.class).setConsistencyMode(ConsistencyMode.NONE)"))
        .containsExactly("ryow.consistency");
    assertThat(guardedSettingsIn("metric \"ryow.fallbacks\" and ryow.consistencyToken()")).isEmpty();
    assertThat(declaredIn("@AboutSettings(value = {\"ryow.fallback\", \"ryow.consistency\"}, why = \"x\")"))
        .containsExactly("ryow.consistency", "ryow.fallback");
    assertThat(declaredIn("@AboutSettings(value = \"ryow.fallback\", why = \"x\")")).containsExactly("ryow.fallback");
  }

  private static Set<String> guardedSettingsIn(String text) {
    Set<String> used = new TreeSet<>();
    Matcher m = GUARDED.matcher(text);
    while (m.find()) {
      used.add(m.group());
    }
    if (MODE_API.matcher(text).find()) {
      used.add("ryow.consistency");
    }
    return used;
  }

  private static Set<String> declaredIn(String text) {
    Set<String> declared = new TreeSet<>();
    Matcher m = DECLARED.matcher(text);
    if (m.find()) {
      Matcher q = QUOTED.matcher(m.group(1));
      while (q.find()) {
        declared.add(q.group(1));
      }
    }
    return declared;
  }

  private static List<Path> javaFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }
}
