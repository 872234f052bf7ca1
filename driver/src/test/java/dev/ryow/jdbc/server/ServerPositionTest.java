package dev.ryow.jdbc.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.MalformedGtidSetException;
import org.junit.jupiter.api.Test;

class ServerPositionTest {
  private static final String A = "a36dc5e4-ecb0-11f1-b472-02fc00000001";
  private static final String B = "8c3a9a2e-1d4f-11ef-8b7a-0242ac120002";

  @Test
  void ownedGtidsLoseTheirThreadIds() {
    // As MySQL 9.7 printed it for four appliers blocked by FLUSH TABLES WITH READ LOCK.
    assertThat(ServerPosition.parseOwned(A + ":27#17:26#16:25#15:24#14")).isEqualTo(GtidSet.parse(A + ":24-27"));
    assertThat(ServerPosition.parseOwned(A + ":5#3,\n" + B + ":tag_a:9#12"))
        .isEqualTo(GtidSet.parse(A + ":5," + B + ":tag_a:9"));
    assertThat(ServerPosition.parseOwned("")).isEqualTo(GtidSet.EMPTY);
  }

  @Test
  void aUuidFollowsTheLastThreadIdOfThePreviousOneWithNoSeparator() {
    // As MySQL 9.7 printed it for sessions holding GTIDs of five UUIDs and tags (SET gtid_next, then BEGIN
    // and an insert): no comma between UUIDs, and a UUID may begin with digits, even eight of them.
    String owned = "12345678-eef5-11f1-afd1-02fc00000001:tag_b:3#20"
        + "3e11fa47-71ca-11e1-9e33-c80aa9429562:102#21:101#18"
        + "3e11fa47-71ca-11e1-9e33-c80aa9429562:tag_a:9#19"
        + "abcdef01-eef5-11f1-afd1-02fc00000001:7#17";
    assertThat(ServerPosition.parseOwned(owned)).isEqualTo(GtidSet.parse(
        "12345678-eef5-11f1-afd1-02fc00000001:tag_b:3,3e11fa47-71ca-11e1-9e33-c80aa9429562:101-102,"
            + "3e11fa47-71ca-11e1-9e33-c80aa9429562:tag_a:9,abcdef01-eef5-11f1-afd1-02fc00000001:7"));
    assertThat(ServerPosition.parseOwned("3e11fa47-71ca-11e1-9e33-c80aa9429562:100#14"
        + "98112345-eef5-11f1-afd1-02fc00000001:200#15"))
        .isEqualTo(GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:100,98112345-eef5-11f1-afd1-02fc00000001:200"));
    assertThat(ServerPosition.parseOwned(A + ":5#3" + B + ":9#1234567"))
        .isEqualTo(GtidSet.parse(A + ":5," + B + ":9"));
  }

  @Test
  void anythingElseIsMalformed() {
    assertThatThrownBy(() -> ServerPosition.parseOwned(A + ":5#")).isInstanceOf(MalformedGtidSetException.class);
    assertThatThrownBy(() -> ServerPosition.parseOwned(A + ":#5")).isInstanceOf(MalformedGtidSetException.class);
    assertThatThrownBy(() -> ServerPosition.parseOwned(A + ":5#" + B + ":9#1"))
        .as("no thread id before the next UUID").isInstanceOf(MalformedGtidSetException.class);
    assertThatThrownBy(() -> ServerPosition.parseOwned(A + ":5#3x")).isInstanceOf(MalformedGtidSetException.class);
  }

  @Test
  void theBoundIsExecutedAndOwned() {
    ServerPosition p = new ServerPosition(GtidSet.parse(A + ":1-23"), GtidSet.parse(A + ":24-27"));
    assertThat(p.visibleBound()).isEqualTo(GtidSet.parse(A + ":1-27"));
  }
}
