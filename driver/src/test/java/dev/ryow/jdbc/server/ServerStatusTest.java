package dev.ryow.jdbc.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.gtid.GtidSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A multi-source replica judged on the channels from the cluster's primary ({@link ServerStatus#forSource}). */
class ServerStatusTest {
  private static final String P = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String S = "99999999-9999-9999-9999-999999999999";
  private static final ServerStatus.Channel MAIN_OK = new ServerStatus.Channel(P, true, true, 5, "", 0);
  private static final ServerStatus.Channel SIDE_STOPPED = new ServerStatus.Channel(S, false, false, 0, "", 0);
  private static final ServerStatus.Channel SIDE_FAILED = new ServerStatus.Channel(S, true, false, 0, "boom", 0);
  private static final ServerStatus.Channel SIDE_SLOW = new ServerStatus.Channel(S, true, true, 90_000, "", 3600);

  /** The aggregates a poll reads over every channel, with the channels themselves. */
  private static ServerStatus multi(ServerStatus.Channel... channels) {
    List<ServerStatus.Channel> list = List.of(channels);
    boolean io = list.stream().allMatch(ServerStatus.Channel::receiverRunning);
    boolean sql = list.stream().allMatch(ServerStatus.Channel::applierRunning);
    long lag = list.stream().mapToLong(ServerStatus.Channel::applierLagMillis).max().orElse(0);
    long delay = list.stream().mapToLong(ServerStatus.Channel::delaySeconds).max().orElse(0);
    String error = list.stream().map(ServerStatus.Channel::lastError).filter(e -> !e.isEmpty()).findFirst().orElse("");
    return new ServerStatus("r", GtidSet.EMPTY, GtidSet.EMPTY, true, list.size(), io, sql, lag, error, true, "",
        List.of(P, S), delay, list, 0);
  }

  @Test
  void anotherSourcesChannelStoppedFailingLaggingOrDelayedDoesNotCount() {
    for (ServerStatus.Channel side : List.of(SIDE_STOPPED, SIDE_FAILED, SIDE_SLOW)) {
      ServerStatus all = multi(MAIN_OK, side);
      ServerStatus mine = all.forSource(P);
      assertThat(mine.replicaChannels()).isEqualTo(1);
      assertThat(mine.receiverRunning()).isTrue();
      assertThat(mine.applierRunning()).isTrue();
      assertThat(mine.lastError()).isEmpty();
      assertThat(mine.applierLagMillis()).isEqualTo(5);
      assertThat(mine.sourceDelaySeconds()).isZero();
      assertThat(mine.sourceUuids()).as("every source still named").containsExactly(P, S);
    }
  }

  @Test
  void thePrimarysOwnChannelStillCounts() {
    ServerStatus.Channel mainStopped = new ServerStatus.Channel(P, true, false, 0, "", 0);
    ServerStatus mine = multi(mainStopped, new ServerStatus.Channel(S, true, true, 0, "", 0)).forSource(P);
    assertThat(mine.applierRunning()).isFalse();
  }

  @Test
  void withoutAChannelFromThePrimaryOrWithOnlyItsChannelsTheStatusIsUnchanged() {
    ServerStatus noneFromP = multi(SIDE_STOPPED, new ServerStatus.Channel("", false, true, 0, "", 0));
    assertThat(noneFromP.forSource(P)).isSameAs(noneFromP);
    ServerStatus onlyP = multi(MAIN_OK, new ServerStatus.Channel(P, true, true, 0, "", 0));
    assertThat(onlyP.forSource(P)).isSameAs(onlyP);
    ServerStatus single = new ServerStatus("r", GtidSet.EMPTY, GtidSet.EMPTY, true, 1, false, true, 0, "", true, "",
        List.of(S), 0);
    assertThat(single.forSource(P)).as("one channel: no per-channel rows").isSameAs(single);
  }

  @Test
  void anApplierErrorWinsAndAReceiverErrorOnlyFillsAnEmptyOne() {
    assertThat(ServerStatus.newestError("", null, null)).isEmpty();
    assertThat(ServerStatus.newestError("", "", "io")).isEqualTo("io");
    assertThat(ServerStatus.newestError("io", "sql", "io2")).isEqualTo("sql");
    assertThat(ServerStatus.newestError("sql", null, "io2")).isEqualTo("sql");
  }
}
