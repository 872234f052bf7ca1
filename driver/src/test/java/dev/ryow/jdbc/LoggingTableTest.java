package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The logging table of {@code docs/operations.md} is complete and true: every log call of
 * {@code driver/src/main/java}, at every level, has a row with its level, its logger and its message, and
 * every message a row quotes is logged by the code at that level under that logger.
 */
class LoggingTableTest {
  private static final Path OPERATIONS = Path.of("..", "docs", "operations.md");
  private static final String PREFIX = "dev.ryow.jdbc.";
  private static final Pattern SPAN = Pattern.compile("`([^`]+)`");

  /** One row of the table: level, logger (without {@link #PREFIX}), the messages it quotes. */
  record Row(String level, String logger, List<String> quotes) {}

  @Test
  void everyLogCallOfTheDriverHasARowWithItsLevelLoggerAndMessage() throws IOException {
    List<JavaMessages.LogLine> lines = JavaMessages.scan(Path.of("src", "main", "java")).logLines();
    assertThat(lines).as("log calls found in the sources").hasSizeGreaterThan(25);
    List<Row> rows = rows(Files.readAllLines(OPERATIONS));
    List<String> missing = new ArrayList<>();
    for (JavaMessages.LogLine l : lines) {
      boolean listed = rows.stream().anyMatch(r -> r.level().equalsIgnoreCase(l.level())
          && (PREFIX + r.logger()).equals(l.logger())
          && r.quotes().stream().anyMatch(q -> JavaMessages.quotes(q, l.template())));
      if (!listed) {
        missing.add(l.toString());
      }
    }
    assertThat(missing)
        .as("log calls without a row (level | logger | message) in the logging table of docs/operations.md")
        .isEmpty();
  }

  @Test
  void everyRowQuotesALineTheCodeLogsAtThatLevel() throws IOException {
    List<JavaMessages.LogLine> lines = JavaMessages.scan(Path.of("src", "main", "java")).logLines();
    List<Row> rows = rows(Files.readAllLines(OPERATIONS));
    assertThat(rows).as("rows of the logging table").hasSizeGreaterThan(25);
    List<String> unknown = new ArrayList<>();
    for (Row r : rows) {
      assertThat(r.quotes()).as("messages quoted by the row " + r).isNotEmpty();
      for (String q : r.quotes()) {
        boolean logged = lines.stream().anyMatch(l -> r.level().equalsIgnoreCase(l.level())
            && (PREFIX + r.logger()).equals(l.logger()) && JavaMessages.quotes(q, l.template()));
        if (!logged) {
          unknown.add(r.level() + " " + r.logger() + ": " + q);
        }
      }
    }
    assertThat(unknown).as("rows of docs/operations.md's logging table that the code does not log so").isEmpty();
  }

  @Test
  void aRowIsReadByItsCells() {
    List<Row> rows = rows(List.of("### Logging", "", "| Level | Logger | Message | What to do |", "|---|---|---|---|",
        "| WARN | `route.Cluster` | `[…] primary moved from … to … (…)` (a note) | Nothing: `x` |", "",
        "| WARN | `other.Table` | `not this one` | |"));
    assertThat(rows).containsExactly(new Row("WARN", "route.Cluster", List.of("[…] primary moved from … to … (…)")));
    JavaMessages code = JavaMessages.parse(Map.of("dev/ryow/jdbc/route/Cluster.java", """
        package dev.ryow.jdbc.route;
        class Cluster {
          private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);
          void f() { LOG.info("[{}] primary moved from {} to {} ({})", a, b, c, d); }
        }
        """));
    assertThat(code.logLines()).singleElement().satisfies(l -> {
      assertThat(l.logger()).isEqualTo("dev.ryow.jdbc.route.Cluster");
      assertThat(l.level()).isEqualTo("info");
      assertThat(JavaMessages.quotes(rows.get(0).quotes().get(0), l.template())).isTrue();
      assertThat(JavaMessages.quotes("[…] primary moved to … from …", l.template())).isFalse();
    });
  }

  /** The rows of the first table after the {@code ### Logging} heading. */
  static List<Row> rows(List<String> doc) {
    List<Row> rows = new ArrayList<>();
    int at = doc.indexOf("### Logging");
    assertThat(at).as("a ### Logging section").isNotNegative();
    boolean inTable = false;
    for (int i = at + 1; i < doc.size(); i++) {
      String line = doc.get(i);
      if (!line.startsWith("|")) {
        if (inTable) {
          break;
        }
        continue;
      }
      inTable = true;
      if (line.startsWith("|---") || line.startsWith("| Level ")) {
        continue;
      }
      String[] cells = line.substring(1).split("(?<!\\\\)\\|", -1);
      String logger = cells[1].strip().replace("`", "");
      List<String> quotes = new ArrayList<>();
      Matcher m = SPAN.matcher(cells[2]);
      while (m.find()) {
        quotes.add(m.group(1));
      }
      rows.add(new Row(cells[0].strip().toUpperCase(Locale.ROOT), logger, quotes));
    }
    return rows;
  }
}
