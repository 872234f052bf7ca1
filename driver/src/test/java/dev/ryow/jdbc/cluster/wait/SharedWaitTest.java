package dev.ryow.jdbc.cluster.wait;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Riding on another read's wait: who may join, and what ends a ride. */
class SharedWaitTest {
  private static final String U = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final Position TO_10 = GtidSet.parse(U + ":1-10");
  private static final Position TO_12 = GtidSet.parse(U + ":1-12");
  private static final long T0 = 1_000_000_000L;

  @Test
  void aReadJoinsOnlyAPendingWaitForNoLessWithinItsBudget() {
    SharedWait w = new SharedWait(TO_10, T0, 100);
    assertThat(w.covers(TO_10, T0)).isTrue();
    assertThat(w.covers(GtidSet.parse(U + ":1-9"), T0 + 99_000_000L)).isTrue();
    assertThat(w.covers(TO_12, T0)).as("a larger set is not waited for").isFalse();
    assertThat(w.covers(TO_10, T0 + 100_000_000L)).as("past its budget the server's wait is over").isFalse();
    w.end(true);
    assertThat(w.covers(TO_10, T0)).as("ended").isFalse();
    assertThat(w.reached()).isTrue();
    w.end(false);
    assertThat(w.reached()).as("only the first end counts").isTrue();
  }

  @Test
  void aRiderGoesOnWhenTheWaitEnds() throws Exception {
    SharedWait w = new SharedWait(TO_10, System.nanoTime(), 100);
    Rider rider = Rider.start(w, () -> false, () -> { }).parked();
    w.end(true);
    assertThat(rider.ended()).isTrue();
    assertThat(w.reached()).isTrue();
  }

  @Test
  void aRideEndsWhenItsBudgetRunsOutOrItIsStoppedAndWoken() throws Exception {
    SharedWait w = new SharedWait(TO_10, System.nanoTime(), 600_000);
    assertThat(w.await(1_000_000L, () -> false)).as("1 ms passed, not ended").isFalse();
    assertThat(w.await(TimeUnit.MINUTES.toNanos(5), () -> true)).as("stopped before it began").isFalse();

    AtomicBoolean stop = new AtomicBoolean();
    Rider rider = Rider.start(w, stop::get, () -> { }).parked();
    stop.set(true);
    w.wake();
    assertThat(rider.ended()).as("stopped, not ended: the ride returns false").isFalse();
    assertThat(w.reached()).isFalse();
    assertThat(w.covers(TO_10, System.nanoTime())).as("still pending").isTrue();
  }
}
