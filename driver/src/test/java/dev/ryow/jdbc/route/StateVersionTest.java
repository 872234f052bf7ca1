package dev.ryow.jdbc.route;

import static dev.ryow.jdbc.route.MonotonicFixture.U1;
import static dev.ryow.jdbc.route.MonotonicFixture.U2;
import static dev.ryow.jdbc.route.MonotonicFixture.gtids;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.Health;
import dev.ryow.jdbc.cluster.ReadWatermark;
import dev.ryow.jdbc.cluster.StateVersion;
import dev.ryow.jdbc.cluster.Watermark;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.server.ServerPosition;
import org.junit.jupiter.api.Test;

/**
 * The versions a reused read plan is checked against ({@link StateVersion}): every change a plan reads
 * moves them; reading the same server again, or a poll-free read, does not.
 */
class StateVersionTest {
  private final MonotonicFixture f;
  private final ReadWatermark w = new ReadWatermark();

  StateVersionTest() throws Exception {
    f = new MonotonicFixture();
  }

  @Test
  void aReadWatermarkMovesWhenAServerStartsOrStopsHavingAPendingReadOrItsBoundChanges() {
    long v0 = w.version();
    w.observed(U1, f.tick());
    long v1 = w.version();
    assertThat(v1).as("a read pending on a new server").isNotEqualTo(v0);
    w.observed(U1, f.tick());
    assertThat(w.version()).as("another read of the server it is pending on").isEqualTo(v1);
    w.resolve(f.cluster);
    assertThat(w.version()).as("no poll bounds it yet").isEqualTo(v1);
    f.poll(f.r1, U1, "1-120", "");
    w.resolve(f.cluster);
    long v2 = w.version();
    assertThat(v2).as("a poll resolved it (bound grew, nothing pending)").isNotEqualTo(v1);
    w.observed(U2, f.tick());
    long v3 = w.version();
    assertThat(v3).isNotEqualTo(v2);
    String[] uuids = new String[8];
    long[] times = new long[8];
    assertThat(w.pending(uuids, times, 0)).isEqualTo(1);
    w.resolveBy(U2, times[0], U2, new ServerPosition(gtids("1-130"), GtidSet.EMPTY), f.tick(), GtidSet.EMPTY);
    long v4 = w.version();
    assertThat(v4).as("a position read on demand resolved it").isNotEqualTo(v3);
    assertThat(w.forget(w.bound(), gtids("1-90"))).isTrue();
    assertThat(w.version()).as("forgotten GTIDs").isNotEqualTo(v4);
  }

  @Test
  void theClusterMovesOnEveryChangeOfWhatAPlanReadsOfItsServers() {
    long v = f.cluster.stateVersion();
    f.poll(f.r1, U1, "1-120", "");
    v = moved(v, "a poll");
    f.pollPrimary("1-130", "");
    v = moved(v, "a poll of the primary");
    f.r2.learn(gtids("1-140"), U2);
    v = moved(v, "a wait taught a known position");
    f.r2.learn(gtids("1-140"), U2);
    assertThat(f.cluster.stateVersion()).as("nothing new learned").isEqualTo(v);
    f.r3.behind(true, Positions.EMPTY);
    v = moved(v, "behind");
    f.r3.behind(true, Positions.EMPTY);
    assertThat(f.cluster.stateVersion()).as("still behind").isEqualTo(v);
    f.cluster.unreachable(f.r1, "test");
    v = moved(v, "out of rotation");
    f.cluster.health(f.r1, Health.UP, 0, "");
    moved(v, "back in rotation");
  }

  @Test
  void aWriteThatFollowsWhatThePrimaryExecutedExtendsItAndIsWhatTheWatermarksAdd() {
    Position known = f.cluster.knownOnPrimary();
    assertThat(known).isEqualTo(gtids("1-100"));
    Watermark writer = new Watermark();
    Position covering = f.cluster.jvm().wroteNext(MonotonicFixture.P + ":101", writer);
    assertThat(covering).isEqualTo(gtids("1-101"));
    assertThat(f.cluster.knownOnPrimary()).isSameAs(covering);
    assertThat(f.cluster.jvm().writes()).isSameAs(covering);
    assertThat(writer.current()).isSameAs(covering);
    // The next write: each set still holds the one before, so each takes the new one as it is.
    Position next = f.cluster.jvm().wroteNext(MonotonicFixture.P + ":102", writer);
    assertThat(next).isEqualTo(gtids("1-102"));
    assertThat(f.cluster.knownOnPrimary()).isSameAs(next);
    assertThat(f.cluster.jvm().writes()).isSameAs(next);
    assertThat(writer.current()).isSameAs(next);
    covering = next;
    // The same as the general path gives for the parsed GTID.
    assertThat(f.cluster.jvm().wroteNext(MonotonicFixture.P + ":104", writer)).as("a gap: parsed instead").isNull();
    assertThat(f.cluster.knownOnPrimary()).as("nothing recorded").isSameAs(covering);
    assertThat(writer.current()).as("nothing recorded").isSameAs(covering);
    assertThat(f.cluster.jvm().wrote(gtids("103"))).isEqualTo(gtids("1-103"));
  }

  private long moved(long before, String why) {
    long now = f.cluster.stateVersion();
    assertThat(now).as(why).isNotEqualTo(before);
    return now;
  }
}
