package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.wait.Rider;
import dev.ryow.jdbc.cluster.wait.SharedWait;
import dev.ryow.jdbc.gtid.GtidSet;
import java.sql.SQLNonTransientConnectionException;
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
    Rider rider = Rider.start(w, guard::stopRequested, () -> guard.ridingOn(w)).parked();
    assertThat(guard.cancel(statement)).isTrue();
    assertThat(rider.ended()).as("ended by the cancel, long before its 5 minutes, not by the wait").isFalse();
  }
}
