package dev.ryow.jdbc.session;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.route.RetryRule;
import dev.ryow.jdbc.route.RetryRule.Failure;
import dev.ryow.jdbc.route.Target;
import dev.ryow.jdbc.route.TransactionState;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.PipelinedWait;
import dev.ryow.jdbc.server.Sql;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a statement {@link Execution} runs again after a failure ended its attempt, or that it does not.
 * A query whose pipelined wait did not reach its set goes to the fallback policy; any other failure is
 * decided by the {@link RetryRule}: another replica, the primary as a write, a new primary connection, or
 * nowhere, or, inside a transaction ({@code ryow.transactionReplay}), a replay of the whole transaction on
 * a new primary connection. This class carries the decision out: it reconnects, replays, logs and counts.
 * No write that may have committed runs twice, and nothing inside a transaction runs again except by a
 * replay whose every result read is identical.
 */
final class Retries {
  private static final Logger LOG = LoggerFactory.getLogger(Retries.class);

  private final Cluster cluster;
  private final PrimaryLink link;
  private final PrimaryGate primary;
  private final PrimaryFallback fallback;
  private final Transactions transactions;
  private final ReplicaSet replicas;
  private final ReadPlacer reads;
  private final SessionSettings settings;
  /** The open transaction's statements ({@code ryow.transactionReplay}); null when off. */
  private final @Nullable TransactionLog log;

  Retries(Cluster cluster, PrimaryLink link, PrimaryGate primary, PrimaryFallback fallback,
      Transactions transactions, ReplicaSet replicas, ReadPlacer reads, SessionSettings settings,
      @Nullable TransactionLog log) {
    this.cluster = cluster;
    this.link = link;
    this.primary = primary;
    this.fallback = fallback;
    this.transactions = transactions;
    this.replicas = replicas;
    this.reads = reads;
    this.settings = settings;
    this.log = log;
  }

  /** After {@code e} ended the attempt of {@code x}: returns where it may safely run again, or rethrows {@code e}. */
  PhysicalConnection after(Execution x, SQLException e) throws SQLException {
    PhysicalConnection on = x.on();
    boolean onReplica = on != link.connection();
    if (onReplica && x.pipelined()) {
      PhysicalConnection next = afterPipelinedWaitFailed(x, e);
      if (next != null) {
        return next;
      }
    }
    Failure failure = Failure.of(e);
    TransactionState tx = transactions.state();
    RetryRule.Replay replay = log == null ? RetryRule.Replay.OFF : log.state(x);
    RetryRule.Retry retry = RetryRule.decide(x.kind(), onReplica ? Target.REPLICA : Target.PRIMARY, failure,
        transactions.inTransaction(), tx.pinned(), x.replicaRoute, replay);
    if (onReplica && failure == Failure.CALLER_TIMEOUT) {
      // The caller's own network timeout, not the replica's failure: as with Connector/J, the
      // statement fails; the server stays in rotation for everyone else.
      replicas.timedOut(on);
    } else if (!onReplica && RetryRule.breaksPrimaryLink(failure)) {
      link.connection().markBroken(); // either way it must not serve the next statement: reconnect first
    }
    switch (retry) {
      case ELSEWHERE -> {
        ReplicaEndpoint failed = reads.failed(on, e);
        LOG.warn("[{}] replica connection {} failed; the read runs again elsewhere: {}", cluster.name(), on,
            e.getMessage());
        cluster.metrics().readRetried();
        PhysicalConnection r = reads.replicaFor(x, failed, false);
        return r != null ? x.runOn(r, true) : fallback.read(x, true);
      }
      case ON_PRIMARY_AS_WRITE -> {
        hiddenWrite(on, e, x.sql());
        x.ranAsWrite(true);
        return fallback.onPrimary(x, true);
      }
      case NEW_PRIMARY -> {
        primary.replace(failure == Failure.READ_ONLY_REFUSAL ? "the primary refused a write (read-only)"
            : "the primary connection failed: " + e.getMessage(), PrimaryLink.Patience.FAILOVER);
        cluster.metrics().readRetried();
        transactions.syncPrimary();
        return x.runOn(link.connection(), true);
      }
      case REPLICA_OR_PRIMARY -> {
        LOG.debug("[{}] primary connection {} failed under a read that fell back to it; the read is placed again: {}",
            cluster.name(), link.connection(), e.getMessage());
        cluster.metrics().readRetried();
        PhysicalConnection r = reads.replicaFor(x, null, false);
        return r != null ? x.runOn(r, true) : fallback.read(x, true);
      }
      case REPLAY_TRANSACTION -> {
        return replayTransaction(x, e, failure, tx);
      }
      case THROW -> {
        if (log != null && !onReplica && transactions.inTransaction() && RetryRule.breaksPrimaryLink(failure)) {
          String why = log.whyIncomplete(x);
          LOG.warn("[{}] the transaction interrupted by the loss of the primary connection is not replayed: {}",
              cluster.name(), why != null ? why : "its statement (" + x.kind()
                  + ") ends or commits the transaction, or the session is pinned, or the failure was the caller's timeout");
        }
        throw notRunAgain(e, failure, onReplica, tx);
      }
      default -> throw e;
    }
  }

  /**
   * What a statement the rule does not run again throws: {@code e} itself, or, when its primary
   * connection was lost under it, an 08S01 that says what happened to it ({@code why} it did not run
   * again) and what the connection does next, with the driver's exception as its cause.
   */
  private SQLException notRunAgain(SQLException e, Failure failure, boolean onReplica, TransactionState tx) {
    return notRunAgain(e, failure, onReplica, tx, link.connection());
  }

  private SQLException notRunAgain(
      SQLException e, Failure failure, boolean onReplica, TransactionState tx, PhysicalConnection lost) {
    if (onReplica || !RetryRule.breaksPrimaryLink(failure)) {
      return e;
    }
    String why = transactions.inTransaction() ? "inside a transaction"
        : tx.pinned() ? "session state pinned to it" : "a write may have committed";
    LOG.warn("[{}] primary connection {} {}; not run again ({}): {}", cluster.name(), lost,
        failure == Failure.READ_ONLY_REFUSAL ? "refused the statement (read-only)" : "failed", why, e.getMessage());
    if (failure != Failure.CONNECTION_LOST) {
      return e;
    }
    String next = transactions.inTransaction()
        ? "the transaction is lost with the connection (the server rolls it back): roll back, then run it again"
        : "the connection's next statement reconnects to the primary by itself";
    return new SQLTransientConnectionException("[" + cluster.name() + "] the connection to the primary "
        + lost.host() + " was lost while this statement ran; it was not run again (" + why + "); "
        + next + ". Cause: " + e.getMessage(), "08S01", e);
  }

  /**
   * Replays the open transaction on a new primary connection ({@link TransactionReplay}) after {@code e}
   * interrupted {@code x}, and returns that connection for {@code x} to run on. When the new connection
   * cannot be had, the replay fails, or any result the transaction read differs, the replay is rolled back,
   * the new connection is closed (as the lost one was: a commit fails, a rollback succeeds, the next
   * statement reconnects) and the application gets the error it would have had without replay, with the
   * reason attached as a suppressed exception.
   */
  private PhysicalConnection replayTransaction(Execution x, SQLException e, Failure failure, TransactionState tx)
      throws SQLException {
    TransactionLog recorded = java.util.Objects.requireNonNull(log, "replay without a log");
    PhysicalConnection lost = link.connection();
    int statements = recorded.entries().size();
    String refused;
    try {
      primary.replace(failure == Failure.READ_ONLY_REFUSAL ? "the primary refused a write (read-only) in a transaction"
          : "the primary connection failed in a transaction: " + e.getMessage(), PrimaryLink.Patience.FAILOVER);
      transactions.syncPrimary();
      if (transactions.readsOn() == lost) {
        transactions.readsOn(link.connection());
      }
      refused = TransactionReplay.run(recorded, link.connection(), settings, tx.autoCommit());
    } catch (SQLException replayFailed) {
      refused = "the replay failed: " + replayFailed.getMessage();
    }
    if (refused == null) {
      cluster.metrics().transactionReplayed();
      LOG.info("[{}] transaction replayed on {} ({} statements, every result identical); the interrupted statement"
          + " runs there now", cluster.name(), link.connection(), statements);
      return x.runOn(link.connection(), true);
    }
    PhysicalConnection fresh = link.connection();
    if (fresh != lost) {
      try {
        fresh.jdbc().rollback();
      } catch (SQLException ignored) {
        // Closing it rolls the replay back as well.
      }
      fresh.close();
      fresh.markBroken(); // as the lost one: a commit fails (40000), a rollback succeeds, the next statement reconnects
    }
    recorded.cut("its replay was refused");
    cluster.metrics().transactionReplayRefused();
    LOG.warn("[{}] transaction replay refused, the application gets the original error: {}", cluster.name(), refused);
    SQLException original = notRunAgain(e, failure, false, tx, lost);
    original.addSuppressed(new SQLException("Transaction replay refused: " + refused, "08S01"));
    throw original;
  }

  /**
   * A query sent with its pipelined wait failed. When the wait did not reach its set (the query did not
   * run), the fallback policy places it, as after a wait of its own. When the packet failed otherwise,
   * the query runs again with its wait sent first on its own (a read: running it again is harmless), so
   * that a failing wait falls back and an error of the query's own is thrown as it is. Null for a
   * connection failure or a read-only refusal, which the {@link RetryRule} decides as for any replica read.
   */
  private @Nullable PhysicalConnection afterPipelinedWaitFailed(Execution x, SQLException e) throws SQLException {
    TransactionState tx = transactions.state();
    PhysicalConnection r;
    if (PipelinedWait.notReached(e)) {
      r = reads.deferredWaitFailed(tx.autoCommit() || !tx.readOnly());
    } else {
      reads.abandonDeferredWait();
      if (!tx.autoCommit()) {
        transactions.readsOn(null); // the transaction ran nothing there: its next read is placed afresh
      }
      if (Sql.isCancellation(e)) {
        throw e; // the caller's query timeout or cancel ended the wait or the query: never run it again
      }
      if (Sql.isConnectionFailure(e) || Sql.isReadOnlyRefusal(e)) {
        return null;
      }
      r = reads.replicaFor(x, null, false);
    }
    PhysicalConnection next = r != null ? x.runOn(r, true) : fallback.read(x, true);
    if (!tx.autoCommit()) {
      transactions.readsOn(next); // the transaction's reads follow its first one, wherever the fallback placed it
    }
    return next;
  }

  /**
   * A replica refused a statement classified as a read because it would write (a stored function that
   * inserts, called from a {@code SELECT}): it runs on the primary as the write it is. Its shape is
   * remembered for the cluster's life (later ones go straight to the primary), counted in
   * {@code hiddenWrites}, and logged once per shape (literals masked).
   */
  private void hiddenWrite(PhysicalConnection on, SQLException e, String sql) {
    cluster.metrics().hiddenWrite();
    String shape = cluster.classifications().rememberWrite(sql);
    if (shape != null) {
      LOG.warn("[{}] a statement classified as a read writes (a stored function?): replica {} refused it (error {});"
              + " it ran on the primary, as will every statement of its shape from now on: {}",
          cluster.name(), on.host(), e.getErrorCode(), shape);
    } else if (!cluster.classifications().isRememberedWrite(sql)) {
      LOG.debug("[{}] a statement classified as a read writes (replica {} refused it, error {}); it runs on the"
          + " primary (too long or too many such statements to remember it)", cluster.name(), on.host(), e.getErrorCode());
    }
  }
}
