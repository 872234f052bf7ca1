package dev.ryow.jdbc.server;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLNonTransientConnectionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The supported Connector/J range: 8.4 (LTS) through 26.x. */
class ConnectorJVersionTest {

  @ParameterizedTest(name = "{0}.{1} supported")
  @CsvSource({"8, 4", "8, 9", "9, 0", "9, 6", "9, 7", "26, 7", "26, 10", "26, 99"})
  void supported(int major, int minor) {
    assertThatCode(() -> ConnectorJ.requireSupported(major, minor)).doesNotThrowAnyException();
  }

  @ParameterizedTest(name = "{0}.{1} refused")
  @CsvSource({"5, 1", "8, 0", "8, 3", "27, 0", "30, 1"})
  void refused(int major, int minor) {
    assertThatThrownBy(() -> ConnectorJ.requireSupported(major, minor))
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageStartingWith("MySQL Connector/J " + major + "." + minor + " is on the class path")
        .hasMessageContaining("supports Connector/J 8.4 through 26.x")
        .hasMessageContaining("mysql.version");
  }
}
