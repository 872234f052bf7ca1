package dev.ryow.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The statement table: hundreds of real statements and the kind each must get. */
class SqlClassifierTableTest {

  static Stream<StatementTable.Case> cases() {
    return StatementTable.cases().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void classifiesAsInTheTable(StatementTable.Case c) {
    assertThat(SqlClassifier.classify(c.sql())).as(c.toString()).isEqualTo(c.expected());
  }

  @Test
  void tableIsLargeAndCoversEveryKind() {
    assertThat(StatementTable.cases()).hasSizeGreaterThan(500);
    Set<StatementKind> covered =
        StatementTable.cases().stream().map(StatementTable.Case::expected)
            .collect(Collectors.toCollection(() -> EnumSet.noneOf(StatementKind.class)));
    assertThat(covered).containsExactlyInAnyOrder(StatementKind.values());
  }

  @Test
  void tableHasNoDuplicateStatements() {
    assertThat(StatementTable.cases().stream().map(StatementTable.Case::sql)).doesNotHaveDuplicates();
  }
}
