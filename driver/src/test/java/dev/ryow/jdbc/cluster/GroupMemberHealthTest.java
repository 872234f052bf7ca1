package dev.ryow.jdbc.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GroupMemberHealthTest {

  @ParameterizedTest(name = "{0} readOnly={1} lag={2} -> {3}")
  @CsvSource({
    "ONLINE, true, 0, UP, ''",
    "ONLINE, true, 5000, LAGGING, applier lag 5000 ms > ryow.maxReplicaLag=1000",
    "ONLINE, false, 0, REPLICATION_STOPPED, writable ONLINE group member (a primary)",
    "RECOVERING, true, 0, REPLICATION_STOPPED, group member state RECOVERING",
    "OFFLINE, true, 0, REPLICATION_STOPPED, group member state OFFLINE",
    "UNREACHABLE, true, 0, REPLICATION_STOPPED, group member state UNREACHABLE",
    "ERROR, true, 0, REPLICATION_ERROR, group member state ERROR",
  })
  void onlyOnlineReadOnlyMembersWithinTheLagServeReads(
      String state, boolean readOnly, long lag, Health health, String why) {
    GroupMemberHealth h = GroupMemberHealth.of(state, readOnly, "", lag, 1000);
    assertEquals(health, h.health());
    assertEquals(why, h.why());
  }

  @org.junit.jupiter.api.Test
  void anErrorCarriesTheApplierMessage() {
    assertEquals("group member state ERROR: Could not execute Write_rows event",
        GroupMemberHealth.of("ERROR", true, "Could not execute Write_rows event", 0, 1000).why());
  }
}
