package dev.ryow.jdbc.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.sql.StatementKind;
import java.sql.ResultSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class WritableResultsTest {

  @ParameterizedTest(name = "concurrency={0} blobLocators={1} -> results write: {2}")
  @CsvSource({
    "" + ResultSet.CONCUR_READ_ONLY + ", false, false",
    "" + ResultSet.CONCUR_READ_ONLY + ", true,  true",
    "" + ResultSet.CONCUR_UPDATABLE + ", false, true",
    "" + ResultSet.CONCUR_UPDATABLE + ", true,  true",
  })
  void resultsWrite(int concurrency, boolean blobLocators, boolean expected) {
    assertThat(WritableResults.resultsWrite(concurrency, blobLocators)).isEqualTo(expected);
  }

  @ParameterizedTest
  @EnumSource(StatementKind.class)
  void aReadWhoseResultsWriteRunsOnThePrimaryEverythingElseKeepsItsKind(StatementKind classified) {
    StatementKind expected = classified == StatementKind.READ ? StatementKind.PRIMARY_READ : classified;
    assertThat(WritableResults.kind(classified, true)).isEqualTo(expected);
    assertThat(WritableResults.kind(classified, false)).isEqualTo(classified);
  }
}
