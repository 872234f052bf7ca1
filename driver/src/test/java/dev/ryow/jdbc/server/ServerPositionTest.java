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
  void anythingElseIsMalformed() {
    assertThatThrownBy(() -> ServerPosition.parseOwned(A + ":5#")).isInstanceOf(MalformedGtidSetException.class);
    assertThatThrownBy(() -> ServerPosition.parseOwned(A + ":#5")).isInstanceOf(MalformedGtidSetException.class);
  }

  @Test
  void theBoundIsExecutedAndOwned() {
    ServerPosition p = new ServerPosition(GtidSet.parse(A + ":1-23"), GtidSet.parse(A + ":24-27"));
    assertThat(p.visibleBound()).isEqualTo(GtidSet.parse(A + ":1-27"));
  }
}
