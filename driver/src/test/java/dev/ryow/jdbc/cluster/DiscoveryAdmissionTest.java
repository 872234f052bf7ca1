package dev.ryow.jdbc.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DiscoveryAdmissionTest {

  @ParameterizedTest(name = "reached={0} sources={1} -> {2}")
  @CsvSource(delimiter = '|', value = {
    "r1 | p      | true  | ''",
    "r1 | x p    | true  | ''",
    "   |        | false | 'not reachable with the URL''s credentials: Access denied'",
    "r2 | p      | false | 'the server at that address has server_uuid r2, the primary reports r1'",
    "r1 |        | false | 'it replicates from nobody, not from the primary p'",
    "r1 | r9     | false | 'it replicates from r9, not from the primary p'",
  })
  void onlyTheReportedServerReplicatingFromThisPrimaryIsAdmitted(
      String reached, String sources, boolean admitted, String why) {
    List<String> s = sources == null ? List.of() : Arrays.asList(sources.split(" "));
    DiscoveryAdmission a = DiscoveryAdmission.of("r1", "p", reached, "Access denied", s);
    assertEquals(admitted, a.admitted());
    assertEquals(why, a.why());
  }

  @org.junit.jupiter.api.Test
  void thePrimaryListedAsItsOwnReplicaIsRefused() {
    assertEquals("it is the primary itself", DiscoveryAdmission.of("p", "p", "p", "", List.of("p")).why());
  }
}
