package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README opens with the two commands, and CI runs the README's test command as written there. */
class ReadmeCommandsTest {
  private static final Path ROOT = Path.of("..");

  @Test
  void ciRunsTheReadmesTestCommand() throws IOException {
    List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
    int fence = readme.indexOf("```sh");
    assertThat(fence).as("the README's first code block, the two commands").isBetween(0, 5);
    String demo = command(readme.get(fence + 1));
    String test = readme.stream().skip(fence + 1).filter(l -> l.contains("# all tests")).findFirst()
        .map(ReadmeCommandsTest::command).orElseThrow();
    assertThat(demo).isEqualTo("sandbox/demo");
    assertThat(test).startsWith("mvn ");

    List<String> ci = Files.readAllLines(ROOT.resolve(".ci/run")).stream().map(String::strip).toList();
    assertThat(ci).as(".ci/run runs the README's test command (%s) as a line of its own", test).contains(test);
    assertThat(ROOT.resolve("sandbox/demo")).isExecutable();
  }

  private static String command(String line) {
    int comment = line.indexOf('#');
    return (comment < 0 ? line : line.substring(0, comment)).strip();
  }
}
