package dev.ryow.jdbc.session;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.Sql;
import dev.ryow.jdbc.server.StatementTimeouts;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientException;

/**
 * A read the router sent to the replicas goes to the primary: the fallback, or GTIDs only the primary
 * can vouch for. Such a read never waits for a failover there: the primary connection is replaced after
 * one round of discovery at most. While the primary is lost (that round, or the fallback policy, found
 * no writable server), the read waits on the replicas instead, for a replica that received the writes
 * will apply them: it runs on the first replica known to have what it must see, or on the primary as
 * soon as it answers again.
 *
 * <p>The wait ends at {@code ryow.failoverTimeout} (or the query timeout, if sooner) with a retryable
 * {@code HYT00}. It is paced: each attempt waits on a replica ({@code ryow.waitTimeout}) or, when none can
 * be waited on, sleeps a poll interval (the poller learns what the replicas applied). Statements in a
 * transaction, on a pinned session, and anything but a plain read run on the primary as any statement
 * there does (up to {@code ryow.failoverTimeout} for a failover).
 */
final class PrimaryFallback {
  private final Cluster cluster;
  private final PrimaryGate primary;
  private final Transactions transactions;
  private final ReadPlacer reads;
  private final WaitGuard guard;

  PrimaryFallback(Cluster cluster, PrimaryGate primary, Transactions transactions, ReadPlacer reads,
      WaitGuard guard) {
    this.cluster = cluster;
    this.primary = primary;
    this.transactions = transactions;
    this.reads = reads;
    this.guard = guard;
  }

  /** {@code x} runs on the primary connection, replaced first if it broke, with the application's flags synced. */
  PhysicalConnection onPrimary(Execution x, boolean retry) throws SQLException {
    return x.runOn(primary.forStatement(PrimaryLink.Patience.FAILOVER), retry);
  }

  /** Where {@code x}, a read no replica took, runs: the primary, or while it is lost the first replica that can. */
  PhysicalConnection read(Execution x, boolean retry) throws SQLException {
    if (!x.replicaRoute || x.kind() != StatementKind.READ || transactions.inTransaction()
        || transactions.state().pinned()) {
      return onPrimary(x, retry);
    }
    boolean again = retry;
    boolean tryPrimary = !reads.plan().awaitingReplica();
    long deadline = 0;
    long since = System.nanoTime();
    while (true) {
      if (tryPrimary) {
        try {
          return x.runOn(primary.forStatement(PrimaryLink.Patience.ONE_ROUND), again);
        } catch (SQLException e) {
          if (!Sql.isUnreachable(e)) {
            throw e;
          }
        }
      }
      long now = System.nanoTime();
      if (deadline == 0) {
        deadline = deadline(x, now);
      } else if (now - deadline >= 0) {
        throw timedOut(x, since);
      }
      if (guard.closed()) {
        throw new SQLNonTransientConnectionException("Connection is closed", "08003");
      }
      PhysicalConnection r = reads.replicaFor(x, null, false);
      if (r != null) {
        return x.runOn(r, true);
      }
      again = true;
      tryPrimary = !reads.plan().awaitingReplica();
      if (!tryPrimary && reads.plan().waitNanos() == 0) {
        pause(Math.min(cluster.settings().pollIntervalMillis(), Math.max(1, (deadline - now) / 1_000_000)));
      }
    }
  }

  /** When a read that waits on the replicas for a lost primary gives up: {@code ryow.failoverTimeout}, or its query timeout. */
  private long deadline(Execution x, long now) {
    long d = now + cluster.settings().failoverTimeoutMillis() * 1_000_000L;
    long q = x.deadlineNanos();
    return q != 0 && q - d < 0 ? q : d;
  }

  private SQLException timedOut(Execution x, long sinceNanos) {
    if (x.deadlineNanos() != 0 && System.nanoTime() - x.deadlineNanos() >= 0) {
      return StatementTimeouts.timedOut();
    }
    long waited = (System.nanoTime() - sinceNanos) / 1_000_000;
    return new SQLTransientException("[" + cluster.name() + "] the primary " + cluster.primaryEndpoint()
        + " is unreachable (no writable server found), and no replica had what this read must see (this connection's"
        + " writes, with the default consistency every write of this JVM, and no older state than the reads before it"
        + " showed) within " + waited + " ms ("
        + RyowProperties.FAILOVER_TIMEOUT_MILLIS.name() + "=" + cluster.settings().failoverTimeoutMillis() + " ms): retry the"
        + " read; a replica that received the writes applies them, and the primary's return or a failover makes them"
        + " readable.", "HYT00");
  }

  private static void pause(long millis) throws SQLException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLTransientException("Interrupted while waiting for a replica", "HYT00", e);
    }
  }
}
