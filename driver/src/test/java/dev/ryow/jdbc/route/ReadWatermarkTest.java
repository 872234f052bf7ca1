package dev.ryow.jdbc.route;

import static dev.ryow.jdbc.route.MonotonicFixture.P;
import static dev.ryow.jdbc.route.MonotonicFixture.U1;
import static dev.ryow.jdbc.route.MonotonicFixture.U2;
import static dev.ryow.jdbc.route.MonotonicFixture.gtids;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.ReadBound;
import dev.ryow.jdbc.cluster.ReadWatermark;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.server.ServerPosition;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The read watermark's bookkeeping: what a read saw is bounded by a position read after it completed. */
class ReadWatermarkTest {
  private final MonotonicFixture f;
  private final ReadWatermark w = new ReadWatermark();

  ReadWatermarkTest() throws Exception {
    f = new MonotonicFixture();
  }

  private List<String> pending() {
    List<String> out = new ArrayList<>();
    w.pendingServers(out);
    return out;
  }

  @Test
  void aReadIsPendingOnItsServerUntilAPollSentAfterItCompleted() {
    long read = f.tick();
    w.observed(U1, read);
    assertThat(w.resolve(f.cluster)).as("no poll since the read").isTrue();
    assertThat(pending()).containsExactly(U1);
    assertThat(w.bound().isEmpty()).isTrue();

    f.poll(f.r2, U2, "1-150", "");
    f.pollPrimary("1-160", "");
    assertThat(w.resolve(f.cluster)).as("polls of other servers do not bound it while its own is reachable").isTrue();

    f.poll(f.r1, U1, "1-120", "121:122");
    assertThat(w.resolve(f.cluster)).isFalse();
    assertThat(pending()).isEmpty();
    assertThat(w.bound().executed()).isEqualTo(gtids("1-120"));
    assertThat(w.bound().inFlight()).as("owned GTIDs: they may have been visible already").isEqualTo(gtids("1-122"));
    assertThat(w.bound().inFlightSource()).isEqualTo(U1);
    assertThat(w.bound().full()).isEqualTo(gtids("1-122"));
  }

  @Test
  void aPollSentBeforeTheReadCompletedBoundsNothing() {
    f.poll(f.r1, U1, "1-120", "");
    long sentBefore = f.r1.lastPoll().startedNanos();
    w.observed(U1, sentBefore + 1);
    assertThat(w.resolve(f.cluster)).isTrue();
    assertThat(w.bound().isEmpty()).isTrue();
  }

  @Test
  void onlyTheLatestReadPerServerIsKeptAndANewerOneSurvivesResolvingAnOlderOne() {
    w.observed(U1, f.tick());
    long second = f.tick();
    w.observed(U1, second);
    w.observed(U1, second - 500_000);
    String[] uuids = new String[8];
    long[] times = new long[8];
    assertThat(w.pending(uuids, times, 0)).isEqualTo(1);
    assertThat(times[0]).isEqualTo(second | 1);

    // A position read on demand, sent before a read that completes meanwhile, resolves only the older one.
    long probeSent = f.tick();
    long concurrent = f.tick();
    w.observed(U1, concurrent);
    w.resolveBy(U1, times[0], U1, new ServerPosition(gtids("1-130"), GtidSet.EMPTY), probeSent, GtidSet.EMPTY);
    assertThat(pending()).as("the read that completed after the probe was sent").containsExactly(U1);
    assertThat(w.bound().full()).as("the probe sent after the first two bounds those").isEqualTo(gtids("1-130"));
    w.resolveBy(U1, concurrent | 1, U1, new ServerPosition(gtids("1-131"), GtidSet.EMPTY), f.tick(), GtidSet.EMPTY);
    assertThat(pending()).isEmpty();
  }

  @Test
  void aNewerReadStandsForTheOlderOnesItReplaced() {
    long older = f.tick();
    w.observed(U1, older);
    long callerBegan = f.tick();
    w.observed(U1, f.tick());
    String[] uuids = new String[8];
    long[] times = new long[8];
    // The slot now holds a read newer than the caller's start, yet the older one is not bounded: it counts.
    assertThat(w.pending(uuids, times, 0)).isEqualTo(1);
    assertThat(times[0] - callerBegan).isPositive();
  }

  @Test
  void aServerResetAfterTheReadIsBoundedByThePrimaryInstead() {
    w.observed(U1, f.tick());
    f.poll(f.r1, U1, "1-5", "");
    assertThat(f.r1.lastPoll().everReset()).isTrue();
    assertThat(w.resolve(f.cluster)).as("its own poll is no bound after a reset").isTrue();
    f.pollPrimary("1-200", "201");
    assertThat(w.resolve(f.cluster)).isFalse();
    assertThat(w.bound().full()).isEqualTo(gtids("1-201"));
    assertThat(w.bound().inFlightSource()).as("the primary's bound exempts no replica").isNull();
  }

  @Test
  void aResetFoundBeforeTheReadDoesNotMatter() {
    f.poll(f.r1, U1, "1-5", "");
    w.observed(U1, f.tick());
    f.poll(f.r1, U1, "1-8", "");
    assertThat(w.resolve(f.cluster)).isFalse();
    assertThat(w.bound().full()).isEqualTo(gtids("1-8"));
  }

  @Test
  void anUnknownServerOrAnUnreachableOneIsBoundedByThePrimary() {
    w.observed("99999999-9999-9999-9999-999999999999", f.tick());
    w.observed(U2, f.tick());
    f.cluster.unreachable(f.r2, "test");
    assertThat(w.resolve(f.cluster)).isTrue();
    f.pollPrimary("1-300", "");
    assertThat(w.resolve(f.cluster)).isFalse();
    assertThat(w.bound().full()).isEqualTo(gtids("1-300"));
  }

  @Test
  void aReadOnThePrimaryIsBoundedByTheNextPrimaryPoll() {
    w.observed(P, f.tick());
    assertThat(w.resolve(f.cluster)).isTrue();
    f.pollPrimary("1-310", "311");
    assertThat(w.resolve(f.cluster)).isFalse();
    assertThat(w.bound().full()).isEqualTo(gtids("1-311"));
  }

  @Test
  void moreServersThanSlotsShareOneSlotThatOnlyThePrimaryBounds() {
    for (int i = 0; i < ReadWatermark.SLOTS + 2; i++) {
      w.observed(String.format("%08d-0000-0000-0000-000000000000", i), f.tick());
    }
    assertThat(pending()).hasSize(ReadWatermark.SLOTS).contains(ReadWatermark.ANY_SERVER);
    f.pollPrimary("1-400", "");
    assertThat(w.resolve(f.cluster)).isFalse();
    assertThat(w.bound().full()).isEqualTo(gtids("1-400"));
  }

  @Test
  void tokensAddUnverifiedReadsAndServersPendingSinceArrival() {
    long arrived = f.tick();
    w.imported(gtids("1-50"), List.of(U1), arrived);
    assertThat(w.bound().unverified()).isEqualTo(gtids("1-50"));
    assertThat(pending()).containsExactly(U1);
    w.verified(gtids("1-60"));
    assertThat(w.bound().unverified().isEmpty()).isTrue();
    assertThat(w.bound().full()).isEqualTo(gtids("1-50"));
    f.poll(f.r1, U1, "1-170", "");
    w.resolve(f.cluster);
    assertThat(w.bound().full()).isEqualTo(gtids("1-170"));
  }

  @Test
  void nestedWatermarksHandBackBoundsAndPendingReads() {
    ReadWatermark inner = new ReadWatermark();
    inner.imported(gtids("1-20"), List.of(U2), f.tick());
    w.advance(inner);
    assertThat(w.bound().full()).isEqualTo(gtids("1-20"));
    assertThat(pending()).containsExactly(U2);
  }

  @Test
  void forgettingReplacesTheBoundUnlessItChanged() {
    w.imported(gtids("1-20"), List.of(), f.tick());
    ReadBound b = w.bound();
    assertThat(w.forget(b, gtids("1-10"))).isTrue();
    assertThat(w.bound().full()).isEqualTo(gtids("1-10"));
    assertThat(w.forget(b, GtidSet.EMPTY)).isFalse();
  }

  @Test
  void inFlightGtidsAreFilledFromThePrimaryAndDroppedOnceExecuted() {
    ReadBound b = ReadBound.EMPTY.plus(gtids("1-100"), gtids("104:106"), U1, gtids("1-110"));
    assertThat(b.inFlight()).as("filled below the highest owned GTID").isEqualTo(gtids("1-106"));
    assertThat(b.full().intervalCount()).isEqualTo(1);
    ReadBound mixed = b.plus(gtids("1-100"), gtids("107"), U2, gtids("1-110"));
    assertThat(mixed.inFlightSource()).as("in-flight GTIDs of two servers").isNull();
    ReadBound sameSource = b.plus(gtids("1-101"), gtids("107"), U1, GtidSet.EMPTY);
    assertThat(sameSource.inFlightSource()).isEqualTo(U1);
    ReadBound executed = b.plus(gtids("1-120"), GtidSet.EMPTY, U2, GtidSet.EMPTY);
    assertThat(executed.inFlight().isEmpty()).isTrue();
    assertThat(executed.inFlightSource()).isNull();
  }
}
