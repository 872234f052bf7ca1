package dev.ryow.jdbc.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pure MariaDB decisions: which flavour a version names, and when a write's GTID may be unreported. */
class MariaDbRulesTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "11.8.9-MariaDB-4|MARIADB",
      "5.5.5-10.11.18-MariaDB-0+deb12u1|MARIADB",
      "10.11.19-MariaDB-log|MARIADB",
      "9.7.4|MYSQL",
      "8.4.3-commercial|MYSQL",
      "8.0.36-0ubuntu0.22.04.1|MYSQL",
  })
  void theVersionNamesTheFlavour(String version, ServerFlavor expected) {
    assertThat(ServerFlavor.ofVersion(version)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "reported={0} sessionHasGtid={1} damaged={2} -> query={3}")
  @CsvSource({
      // reported: the OK carried last_gtid, nothing is missing
      "true, true, false, false",
      "true, false, false, false",
      // no report on the session's first write: it logged nothing (no query)
      "false, false, false, false",
      // no report after an earlier GTID: another domain may repeat the seq_no (the trap): query
      "false, true, false, true",
      // an unreadable report: query
      "true, true, true, true",
      "false, false, true, true",
  })
  void captureQueriesWheneverAReportMayBeMissing(boolean reported, boolean hasGtid, boolean damaged, boolean query) {
    assertThat(LastGtidTracker.CaptureRule.mayHaveMissed(reported, hasGtid, damaged)).isEqualTo(query);
  }
}
