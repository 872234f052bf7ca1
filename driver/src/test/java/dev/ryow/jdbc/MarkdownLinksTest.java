package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the repository's Markdown files resolves: the file or folder exists and, for
 * a {@code #fragment}, the target page has a heading with that anchor (GitHub's rule: lower case,
 * punctuation dropped, spaces to hyphens, {@code -1}, {@code -2}... for repeats).
 */
class MarkdownLinksTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

  @Test
  void everyRelativeLinkAndAnchorResolves() throws IOException {
    List<Path> pages = pages();
    assertThat(pages).as("Markdown files found").hasSizeGreaterThan(8);
    Map<Path, Set<String>> anchors = new HashMap<>();
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path page : pages) {
      Matcher m = LINK.matcher(prose(Files.readString(page)));
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
          continue;  // http:, https:, mailto:
        }
        checked++;
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
          broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
        } else if (hash >= 0) {
          String anchor = target.substring(hash + 1);
          Set<String> known = anchors.computeIfAbsent(resolved, MarkdownLinksTest::anchorsOf);
          if (!known.contains(anchor)) {
            broken.add(ROOT.relativize(page) + ": " + target + " (no heading with that anchor)");
          }
        }
      }
    }
    assertThat(checked).as("relative links checked").isGreaterThan(30);
    assertThat(broken).as("broken relative links in *.md").isEmpty();
  }

  @Test
  void anchorsFollowGitHubsRule() {
    assertThat(slug("Statement classification (`SqlClassifier`)")).isEqualTo("statement-classification-sqlclassifier");
    assertThat(slug("A `DataSource` configured by properties")).isEqualTo("a-datasource-configured-by-properties");
    assertThat(slug("Capping the primary's fallback reads")).isEqualTo("capping-the-primarys-fallback-reads");
    assertThat(slug("Scopes, the servlet filter and tokens")).isEqualTo("scopes-the-servlet-filter-and-tokens");
    assertThat(slug("Log lines (WARN)")).isEqualTo("log-lines-warn");
  }

  private static List<Path> pages() throws IOException {
    try (Stream<Path> files = Files.walk(ROOT)) {
      return files.filter(f -> f.toString().endsWith(".md"))
          .filter(f -> {
            Path rel = ROOT.relativize(f);
            for (Path part : rel) {
              String p = part.toString();
              if (p.equals("target") || p.startsWith(".") || p.equals("node_modules")) {
                return false;
              }
            }
            return true;
          })
          .sorted().toList();
    }
  }

  private static Set<String> anchorsOf(Path page) {
    Set<String> anchors = new HashSet<>();
    if (!page.toString().endsWith(".md")) {
      return anchors;
    }
    Map<String, Integer> seen = new HashMap<>();
    try {
      boolean fenced = false;
      for (String line : Files.readAllLines(page)) {
        if (line.strip().startsWith("```")) {
          fenced = !fenced;
          continue;
        }
        Matcher h = HEADING.matcher(line);
        if (!fenced && h.matches()) {
          String s = slug(h.group(1));
          int n = seen.merge(s, 1, Integer::sum);
          anchors.add(n == 1 ? s : s + "-" + (n - 1));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return anchors;
  }

  static String slug(String heading) {
    StringBuilder sb = new StringBuilder();
    for (char c : heading.toLowerCase(Locale.ROOT).toCharArray()) {
      if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
        sb.append(c);
      } else if (c == ' ') {
        sb.append('-');
      }
    }
    return sb.toString();
  }

  /** The text without fenced code blocks and code spans (links there are examples, not links). */
  private static String prose(String text) {
    StringBuilder sb = new StringBuilder();
    boolean fenced = false;
    for (String line : text.split("\n", -1)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced) {
        sb.append(CODE_SPAN.matcher(line).replaceAll("``")).append('\n');
      }
    }
    return sb.toString();
  }
}
