package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs and the code agree on every message: each exception message and WARN/ERROR log line the
 * driver (or its Spring Boot starter) can produce is listed in {@code docs/troubleshooting.md}, and every
 * message quoted in the docs is one the code produces.
 *
 * <p>Quotes are code spans: in {@code docs/troubleshooting.md}, every span in the first column of a
 * table; elsewhere (README, ARCHITECTURE, the tool notes, the sandbox's README, {@code docs/**.md}), every span that reads
 * like a sentence (three or more lower-case words). {@code …} stands for a variable part.
 */
class DocumentedMessagesTest {
  private static final Path ROOT = Path.of("..");
  private static final Path TROUBLESHOOTING = ROOT.resolve("docs/troubleshooting.md");
  private static final Pattern SPAN = Pattern.compile("`([^`]+)`");
  private static final Pattern PROSE_WORD = Pattern.compile("[a-z]+[,;:.)]?");

  /** Texts quoted in the docs that come from Connector/J, the server, DriverManager or SLF4J. */
  private static final List<String> FOREIGN = List.of(
      "No suitable driver found",                 // java.sql.DriverManager
      "Public Key Retrieval is not allowed",      // Connector/J
      "Communications link failure",              // Connector/J
      "No operations allowed after connection closed", // Connector/J (a closed connection)
      "Access denied for user",                   // MySQL server
      "Parameter index out of range (",           // Connector/J's setters
      "SLF4J(W): No SLF4J providers were found",  // slf4j-api
      "Waiting for global read lock");            // MySQL server (processlist state)

  /** The driver's sources and the Spring Boot starter's (its messages are the driver's to the user). */
  private static final JavaMessages CODE =
      JavaMessages.scan(Path.of("src", "main", "java"), ROOT.resolve("ryow-spring-boot-starter/src/main/java"));

  @Test
  void everyMessageTheDriverProducesIsListed() throws IOException {
    assertThat(CODE.userMessages()).as("messages found in the sources").hasSizeGreaterThan(50);
    List<String> listed = tableQuotes(read(TROUBLESHOOTING));
    List<String> missing = new ArrayList<>();
    for (JavaMessages.Message m : CODE.userMessages()) {
      String fragment = m.longestFragment();
      if (listed.stream().noneMatch(q -> q.contains(fragment))) {
        missing.add(m + "\n    (quote at least: " + fragment + ")");
      }
    }
    assertThat(missing)
        .as("messages of driver/src/main/java without a row in docs/troubleshooting.md (quote them in the first"
            + " column, " + JavaMessages.HOLE + " for variable parts)")
        .isEmpty();
  }

  @Test
  void everyQuotedMessageIsProducedByTheCode() throws IOException {
    List<String> unknown = new ArrayList<>();
    List<String> table = tableQuotes(read(TROUBLESHOOTING));
    assertThat(table).as("quotes in the troubleshooting tables").hasSizeGreaterThan(50);
    for (String q : table) {
      if (!foreign(q) && !CODE.produces(q)) {
        unknown.add("docs/troubleshooting.md (table): " + q);
      }
    }
    for (Path doc : docs()) {
      for (String q : proseQuotes(read(doc))) {
        if (!foreign(q) && !CODE.produces(q)) {
          unknown.add(ROOT.relativize(doc) + ": " + q);
        }
      }
    }
    assertThat(unknown)
        .as("texts quoted in the docs that driver/src/main/java does not produce (" + JavaMessages.HOLE
            + " marks a variable part; messages of Connector/J and the server go in " + getClass().getSimpleName()
            + ".FOREIGN)")
        .isEmpty();
  }

  @Test
  void theParserReadsConcatenationsConstantsAndLogCalls() {
    String source = """
        class A {
          private static final String SCHEME = "jdbc:ryow:";
          static final RyowProperty<Integer> WAIT = new RyowProperty<>("ryow.waitTimeout", x);
          void f(String host, int n) throws Exception {
            // throw new SQLException("in a comment");
            if (n < 0) throw new SQLException("Host " + host + " appears " + "twice", "08001");
            if (n == 1) throw new IllegalStateException(e);
            if (n == 2) throw new SQLException(e.getMessage(), "08001", e);
            if (n == 3) throw new SQLException("[" + host + "] " + e.getMessage(), "22023", e);
            if (n == 4) throw new ReflectionException(e, "reading " + m.getName());
            if (n == 5) throw new SQLException("Not a " + SCHEME + " URL, see " + WAIT.name() + " ("
                + (n > 9 ? "a" : "b") + ")");
            LOG.warn("[{}] replica {} failed; \\"{}\\"", name, host, why);
            LOG.debug("[{}] quiet", name);
            String s = what(host) + " and the budget is spent (" + n + "/s)";
          }
        }
        """;
    JavaMessages m = JavaMessages.parse(Map.of("A.java", source));
    assertThat(m.userMessages()).extracting(JavaMessages.Message::template).containsExactly(
        "Host … appears twice",
        "reading …",
        "Not a jdbc:ryow: URL, see ryow.waitTimeout (…)",
        "[…] replica … failed; \"…\"");
    assertThat(m.userMessages().get(0).longestFragment()).isEqualTo("appears twice");
    assertThat(m.userMessages().get(0).where()).isEqualTo("A.java:6");
    assertThat(m.produces("… and the budget is spent (…/s)")).isTrue();
    assertThat(m.produces("Host … appears twice")).isTrue();
    assertThat(m.produces("Host h:p appears twice")).as("a placeholder not marked as one").isFalse();
    assertThat(m.produces("appears twice … Host")).as("parts out of order").isFalse();
    assertThat(m.produces("in a comment")).isFalse();
  }

  private static boolean foreign(String quote) {
    return FOREIGN.stream().anyMatch(quote::contains);
  }

  private static List<Path> docs() throws IOException {
    List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("ARCHITECTURE.md"),
        ROOT.resolve("META-INF-services-notes.md"), ROOT.resolve("sandbox/README.md")));
    try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
      files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  /** The text without fenced code blocks. */
  private static String read(Path doc) throws IOException {
    assertThat(doc).exists();
    StringBuilder sb = new StringBuilder();
    boolean fenced = false;
    for (String line : Files.readAllLines(doc)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced) {
        sb.append(line).append('\n');
      }
    }
    return sb.toString();
  }

  /** The code spans of the first column of every table row (header and separator rows left out). */
  static List<String> tableQuotes(String text) {
    List<String> quotes = new ArrayList<>();
    String[] lines = text.split("\n");
    for (int i = 0; i < lines.length; i++) {
      boolean header = i + 1 < lines.length && lines[i + 1].startsWith("|---");
      if (lines[i].startsWith("|") && !lines[i].startsWith("|---") && !header) {
        String first = lines[i].substring(1).split("(?<!\\\\)\\|", -1)[0].replace("\\|", "|");
        Matcher m = SPAN.matcher(first);
        while (m.find()) {
          quotes.add(m.group(1));
        }
      }
    }
    return quotes;
  }

  /** Code spans that read like a sentence: three or more lower-case words. */
  static List<String> proseQuotes(String text) {
    List<String> quotes = new ArrayList<>();
    Matcher m = SPAN.matcher(text);
    while (m.find()) {
      String q = m.group(1).replace('\n', ' ');
      long words = Stream.of(q.split("\\s+")).filter(w -> PROSE_WORD.matcher(w).matches()).count();
      if (words >= 3) {
        quotes.add(q);
      }
    }
    return quotes;
  }
}
