package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

/** Gates on the sources: every package is {@code @NullMarked}, every public type has Javadoc. */
class PackagesAndJavadocTest {
  private static final Path SOURCES = Path.of("src", "main", "java");
  private static final Pattern PUBLIC_TYPE =
      Pattern.compile("^\\s*public\\s+(?:(?:static|final|abstract|sealed|non-sealed|strictfp)\\s+)*"
          + "(?:class|interface|record|enum|@interface)\\s+(\\w+).*");

  @Test
  void everyPackageIsNullMarked() throws Exception {
    Set<String> packages = new TreeSet<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("module-info.java"))
          .forEach(f -> packages.add(SOURCES.relativize(f.getParent()).toString().replace('/', '.')));
    }
    assertThat(packages).contains("dev.ryow.jdbc", "dev.ryow.jdbc.metrics");
    List<String> unmarked = new ArrayList<>();
    for (String pkg : packages) {
      Class<?> info;
      try {
        info = Class.forName(pkg + ".package-info");
      } catch (ClassNotFoundException e) {
        unmarked.add(pkg + " (no package-info.java)");
        continue;
      }
      if (!info.isAnnotationPresent(NullMarked.class)) {
        unmarked.add(pkg);
      }
    }
    assertThat(unmarked).as("packages without @NullMarked").isEmpty();
  }

  @Test
  void everyPublicTypeHasJavadoc() throws IOException {
    List<String> undocumented = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
          var m = PUBLIC_TYPE.matcher(lines.get(i));
          if (m.matches() && !documented(lines, i)) {
            undocumented.add(file + ": " + m.group(1));
          }
        }
      }
    }
    assertThat(undocumented).as("public types without a Javadoc comment").isEmpty();
  }

  /** Whether the first line above {@code index} that is not blank or an annotation closes a Javadoc comment. */
  private static boolean documented(List<String> lines, int index) {
    for (int i = index - 1; i >= 0; i--) {
      String line = lines.get(i).trim();
      if (line.isEmpty() || line.startsWith("@")) {
        continue;
      }
      if (!line.endsWith("*/")) {
        return false;
      }
      for (int j = i; j >= 0; j--) {
        String open = lines.get(j).trim();
        if (open.startsWith("/**")) {
          return true;
        }
        if (open.startsWith("/*")) {
          return false;
        }
      }
      return false;
    }
    return false;
  }
}
