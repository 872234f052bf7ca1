package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.RyowProperty;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Messages name a {@code ryow.*} property through its constant ({@code RyowProperties.X.name()}), never as
 * text: a string literal of the driver's sources that spells a property's name is a message that a renamed
 * property would leave wrong. {@link RyowProperties} itself (the definitions and their descriptions) is
 * exempt.
 */
class PropertyNamesInMessagesTest {
  private static final Path MAIN = Path.of("src/main/java");
  private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
  private static final Pattern NAME = Pattern.compile("ryow\\.[a-zA-Z]+");

  @Test
  void noStringLiteralSpellsAPropertyName() throws IOException {
    Set<String> names = RyowProperties.ALL.stream().map(RyowProperty::name).collect(Collectors.toSet());
    assertThat(names).as("property names").contains("ryow.tokenMaxLength");
    List<String> spelled = new ArrayList<>();
    try (Stream<Path> files = Files.walk(MAIN)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
        if (f.endsWith(Path.of("config", "RyowProperties.java"))) {
          continue;
        }
        spelled.addAll(spelledIn(MAIN.relativize(f).toString(), Files.readString(f), names));
      }
    }
    assertThat(spelled).as("string literals that spell a ryow.* property instead of naming its constant").isEmpty();
  }

  @Test
  void theCheckFindsASpelledName() {
    Set<String> names = Set.of("ryow.tokenKey");
    assertThat(spelledIn("A.java", "throw new X(\"needs ryow.tokenKey set\"); // ryow.tokenKey", names))
        .containsExactly("A.java:1: ryow.tokenKey in \"needs ryow.tokenKey set\"");
    assertThat(spelledIn("A.java", "/* \"ryow.tokenKey\" */ throw new X(RyowProperties.TOKEN_KEY.name());", names))
        .isEmpty();
  }

  private static List<String> spelledIn(String file, String source, Set<String> names) {
    List<String> spelled = new ArrayList<>();
    String[] lines = withoutComments(source).split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      Matcher literal = LITERAL.matcher(lines[i]);
      while (literal.find()) {
        Matcher name = NAME.matcher(literal.group(1));
        while (name.find()) {
          if (names.contains(name.group())) {
            spelled.add(file + ":" + (i + 1) + ": " + name.group() + " in " + literal.group());
          }
        }
      }
    }
    return spelled;
  }

  /** The source with comments blanked, line breaks kept (strings are left as they are). */
  private static String withoutComments(String s) {
    StringBuilder out = new StringBuilder(s.length());
    int i = 0;
    boolean inString = false;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (inString) {
        out.append(c);
        if (c == '\\' && i + 1 < s.length()) {
          out.append(s.charAt(++i));
        } else if (c == '"' || c == '\n') {
          inString = false;
        }
        i++;
      } else if (c == '"') {
        inString = true;
        out.append(c);
        i++;
      } else if (s.startsWith("//", i)) {
        while (i < s.length() && s.charAt(i) != '\n') {
          i++;
        }
      } else if (s.startsWith("/*", i)) {
        int end = s.indexOf("*/", i + 2);
        end = end < 0 ? s.length() : end + 2;
        for (int k = i; k < end; k++) {
          if (s.charAt(k) == '\n') {
            out.append('\n');
          }
        }
        i = end;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }
}
