package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.wait.SharedWait;
import dev.ryow.jdbc.gtid.GtidSet;
import java.sql.SQLNonTransientConnectionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WaitGuardTest {

  @Test
  void onlyTheStatementThatWaitsCanCancelItsWait() {
    WaitGuard guard = new WaitGuard();
    Object waiting = new Object();
    Object other = new Object();
    assertThat(guard.cancel(waiting)).as("nothing waits yet").isFalse();
    guard.enter(waiting);
    assertThat(guard.cancel(other)).isFalse();
    assertThat(guard.stopRequested()).isFalse();
    assertThat(guard.cancel(waiting)).isTrue();
    assertThat(guard.stopRequested()).isTrue();
    assertThat((Throwable) guard.stopped()).hasMessage("Statement cancelled due to client request");
    guard.exit();
    guard.enter(waiting);
    assertThat(guard.stopRequested()).as("a new execution starts uncancelled").isFalse();
  }

  @Test
  void closingStopsEveryWaitForGood() {
    WaitGuard guard = new WaitGuard();
    guard.close();
    guard.enter(new Object());
    assertThat(guard.stopRequested()).isTrue();
    assertThat((Throwable) guard.stopped()).isInstanceOf(SQLNonTransientConnectionException.class)
        .satisfies(e -> assertThat(((SQLNonTransientConnectionException) e).getSQLState()).isEqualTo("08003"));
  }

  @Test
  void aCancelEndsARideOnAnotherReadsWaitAtOnce() throws Exception {
    WaitGuard guard = new WaitGuard();
    Object statement = new Object();
    guard.enter(statement);
    SharedWait w = new SharedWait(GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-10"), System.nanoTime(), 100);
    AtomicReference<Boolean> ended = new AtomicReference<>();
    Thread rider = new Thread(() -> {
      guard.ridingOn(w);
      try {
        ended.set(w.await(TimeUnit.MINUTES.toNanos(5), guard::stopRequested));
      } catch (InterruptedException e) {
        ended.set(null);
      }
    });
    rider.start();
    while (rider.getState() != Thread.State.TIMED_WAITING && rider.isAlive()) {
      Thread.onSpinWait();
    }
    assertThat(guard.cancel(statement)).isTrue();
    rider.join(TimeUnit.MINUTES.toMillis(5));
    assertThat(rider.isAlive()).as("the ride ended long before its 5 minutes").isFalse();
    assertThat(ended.get()).as("ended by the cancel, not by the wait").isFalse();
  }
}
