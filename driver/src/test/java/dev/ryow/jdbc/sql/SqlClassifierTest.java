package dev.ryow.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Contract, large pathological inputs and the no-allocation claim. */
class SqlClassifierTest {

  private static final int MB = 1 << 20;

  @Test
  void nullIsANullPointerException() {
    assertThatNullPointerException().isThrownBy(() -> SqlClassifier.classify(nullString()));
  }

  private static String nullString() {
    return null;
  }

  @Test
  void isAFinalUtilityClass() throws Exception {
    assertThat(Modifier.isFinal(SqlClassifier.class.getModifiers())).isTrue();
    Constructor<?>[] constructors = SqlClassifier.class.getDeclaredConstructors();
    assertThat(constructors).hasSize(1);
    assertThat(Modifier.isPrivate(constructors[0].getModifiers())).isTrue();
  }

  static Stream<Arguments> pathological() {
    return Stream.of(
        Arguments.of("open parentheses", "(".repeat(MB), StatementKind.WRITE),
        Arguments.of("balanced parentheses around a select", "(".repeat(MB / 2) + "SELECT 1" + ")".repeat(MB / 2),
            StatementKind.READ),
        Arguments.of("close parentheses", "SELECT " + ")".repeat(MB), StatementKind.WRITE),
        Arguments.of("comment openers", "/*".repeat(MB / 2), StatementKind.WRITE),
        Arguments.of("comment openers then select", "SELECT 1 " + "/*".repeat(MB / 2), StatementKind.WRITE),
        Arguments.of("version comment openers", "/*!".repeat(MB / 3), StatementKind.WRITE),
        Arguments.of("closed comments", "/**/".repeat(MB / 4) + "SELECT 1", StatementKind.READ),
        Arguments.of("single quotes", "'".repeat(MB), StatementKind.WRITE),
        Arguments.of("select of doubled quotes", "SELECT '" + "''".repeat(MB / 2) + "'", StatementKind.READ),
        Arguments.of("backslashes in a string", "SELECT '" + "\\\\".repeat(MB / 2) + "'", StatementKind.READ),
        Arguments.of("escaped quotes, unterminated", "SELECT '" + "\\'".repeat(MB / 2), StatementKind.WRITE),
        Arguments.of("double quotes", "\"".repeat(MB), StatementKind.WRITE),
        Arguments.of("backticks", "`".repeat(MB + 1), StatementKind.WRITE),
        Arguments.of("line comments", "-- x\n".repeat(MB / 5) + "SELECT 1", StatementKind.READ),
        Arguments.of("hash comments", "#\n".repeat(MB / 2) + "SELECT 1", StatementKind.READ),
        Arguments.of("dashes", "SELECT 1" + "-".repeat(MB), StatementKind.READ),
        Arguments.of("semicolons", "SELECT 1" + ";".repeat(MB), StatementKind.WRITE),
        Arguments.of("many statements", "SELECT 1;".repeat(MB / 9), StatementKind.WRITE),
        Arguments.of("many session statements", "SET @a = 1;".repeat(MB / 11), StatementKind.SESSION_PIN),
        Arguments.of("many columns", "SELECT " + "a,".repeat(MB / 2) + "b FROM t", StatementKind.READ),
        Arguments.of("many user variables", "SELECT " + "@a,".repeat(MB / 3) + "1", StatementKind.PRIMARY_READ),
        Arguments.of("system variable prefixes", "SELECT " + "@@".repeat(MB / 2), StatementKind.PRIMARY_READ),
        Arguments.of("dots in a system variable", "SELECT @@" + ".".repeat(MB), StatementKind.PRIMARY_READ),
        Arguments.of("spaced system variable scopes", "SELECT " + "@@session . x, ".repeat(MB / 15) + "1",
            StatementKind.PRIMARY_READ),
        Arguments.of("dangling scopes", "SELECT " + "@@session ".repeat(MB / 10), StatementKind.PRIMARY_READ),
        Arguments.of("quoted names", "SELECT " + "`a`.".repeat(MB / 4) + "b", StatementKind.READ),
        Arguments.of("quoted calls", "SELECT " + "`f`(".repeat(MB / 4) + ")".repeat(MB / 4), StatementKind.READ),
        Arguments.of("lone at signs", "SELECT " + "@ ".repeat(MB / 2), StatementKind.PRIMARY_READ),
        Arguments.of("a long word", "SELECT " + "x".repeat(MB), StatementKind.READ),
        Arguments.of("many locking clauses", "SELECT 1 " + "FOR UPDATE ".repeat(MB / 11), StatementKind.PRIMARY_READ),
        Arguments.of("hints in a comment", "/* " + "ryow:".repeat(MB / 5) + " */ SELECT 1", StatementKind.READ),
        Arguments.of("hint words in a comment", "/* " + "ryow:primaryx ".repeat(MB / 14) + " */ SELECT 1", StatementKind.READ),
        Arguments.of("calls", "SELECT " + "f(".repeat(MB / 2) + ")".repeat(MB / 2), StatementKind.READ),
        Arguments.of("explain options", "EXPLAIN " + "EXTENDED ".repeat(MB / 9) + "SELECT 1", StatementKind.READ),
        Arguments.of("commit words", "COMMIT " + "AND NO CHAIN ".repeat(MB / 13), StatementKind.COMMIT),
        Arguments.of("start transaction characteristics", "START TRANSACTION " + "READ ONLY, ".repeat(MB / 11) + "READ ONLY",
            StatementKind.BEGIN_READ_ONLY),
        Arguments.of("compound body", "CREATE PROCEDURE p() BEGIN " + "SELECT 1; ".repeat(MB / 10) + "END", StatementKind.WRITE),
        Arguments.of("whitespace only", " ".repeat(MB), StatementKind.WRITE),
        Arguments.of("version comment with digits", "/*!" + "9".repeat(MB) + " SELECT 1 */", StatementKind.READ));
  }

  /**
   * Inputs of a megabyte built to break backtracking or nested scanning. The classifier is a single
   * forward pass by construction; these only have to finish (no wall-clock assertion).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("pathological")
  void classifiesMegabyteInputs(String name, String sql, StatementKind expected) {
    assertThat(SqlClassifier.classify(sql)).as(name).isEqualTo(expected);
  }

  @Test
  void allocatesNothing() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    assumeThat(bean).isInstanceOf(com.sun.management.ThreadMXBean.class);
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
    assumeThat(threads.isThreadAllocatedMemorySupported()).isTrue();
    threads.setThreadAllocatedMemoryEnabled(true);
    List<String> statements = StatementTable.cases().stream().map(StatementTable.Case::sql).toList();
    String[] sql = statements.toArray(new String[0]);
    long id = Thread.currentThread().getId();
    int sink = 0;
    for (String s : sql) {
      sink += SqlClassifier.classify(s).ordinal(); // loads and initialises every class involved
    }
    long before = threads.getThreadAllocatedBytes(id);
    for (int round = 0; round < 20; round++) {
      for (String s : sql) {
        sink += SqlClassifier.classify(s).ordinal();
      }
    }
    long allocated = threads.getThreadAllocatedBytes(id) - before;
    assertThat(sink).isPositive();
    // 20 × hundreds of statements; a single object per call would be hundreds of kilobytes.
    assertThat(allocated).as("bytes allocated by %s classifications", 20 * sql.length).isLessThan(4096);
  }
}
