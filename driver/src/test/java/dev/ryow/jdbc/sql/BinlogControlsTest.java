package dev.ryow.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which {@code SET}s only shape the logging of the session's own writes (applied on the primary, not replayed). */
class BinlogControlsTest {

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
      "SET SESSION gtid_domain_id = 7                      | true",
      "set gtid_seq_no=42                                  | true",
      "SET @@session.gtid_seq_no = 42, @@gtid_domain_id = 0 | true",
      "SET LOCAL server_id := 9                            | true",
      "SET skip_replication = 1;                           | true",
      "SET gtid_domain_id = (1 + 2)                        | true",
      "SET gtid_domain_id = 7, time_zone = '+00:00'        | false",
      "SET time_zone = '+00:00'                            | false",
      "SET GLOBAL gtid_domain_id = 7                       | false",
      "SET @@global.gtid_domain_id = 7                     | false",
      "SET gtid_next = 'AUTOMATIC'                         | false",
      "SET gtid_domain_id = 7; SET time_zone = 'UTC'       | false",
      "SET gtid_domain_id = 7 -- comment                   | false",
      "SET gtid_domain_id = (7                             | false",
      "SET @gtid_domain_id = 7                             | false",
      "SELECT 1                                            | false",
      "SETgtid_domain_id = 7                               | false",
  })
  void onlyTheseAssignmentsQualify(String sql, boolean expected) {
    assertThat(BinlogControls.onlyShapesTheBinlog(sql)).isEqualTo(expected);
  }
}
