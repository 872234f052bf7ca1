package dev.ryow.jdbc.route;

import dev.ryow.jdbc.server.Sql;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.SQLException;

/**
 * "A statement failed: where may it run again?" Pure decision from the statement's kind, where it ran,
 * what kind of failure it was, whether the router had sent it to the replicas, and the transaction
 * state. No write that may have committed ever runs twice, and nothing inside a transaction runs again
 * except by a whole replay of the transaction ({@code ryow.transactionReplay}). The table is in
 * {@code RetryRuleTest}:
 *
 * <ul>
 *   <li>On a replica: the caller's own network timeout fails the statement, as with Connector/J (the
 *       server stays in rotation for everyone else). A read the replica refused because it writes (a
 *       stored function called from a {@code SELECT}) did not change anything: outside a transaction it
 *       runs on the primary as the write it is. A read whose connection failed runs again elsewhere (another
 *       replica, or the fallback), outside a transaction.
 *   <li>On the primary: a replica read that fell back to the primary and lost its connection there is
 *       placed again as a replica read: a replica that has what it must see serves it, and the primary
 *       only once it answers again (a read never waits for a failover on the primary while replicas can
 *       serve it). A statement the primary refused because it is read-only (it did not run), and any
 *       other read whose connection failed (or timed out), run again on a new primary connection, outside
 *       a transaction and unless the session is pinned to the old one. A write whose connection failed
 *       may have committed: it is never run again.
 *   <li>Inside a transaction, on the primary, with {@code ryow.transactionReplay} on and every statement
 *       of the transaction recorded ({@link Replay#RECORDED}): a statement whose connection was lost, or
 *       that a primary turned read-only refused, replays the whole transaction on the new primary, then
 *       runs there. Never a {@code COMMIT} or {@code ROLLBACK} (a commit whose outcome is unknown is
 *       never replayed; a lost connection rolled the transaction back anyway), nor {@code BEGIN}/{@code
 *       START TRANSACTION} (it commits the open transaction implicitly), nor session state that only the
 *       old connection had ({@code SESSION_PIN}, or the session pinned). The caller's own network
 *       timeout is not a lost connection: the transaction may still be running on the old server.
 *   <li>Anything else is the statement's own error: thrown as it is.
 * </ul>
 */
public final class RetryRule {
  /**
   * How many times one execution runs again at most: twice covers a read whose wait failed on a replica,
   * then whose connection failed on the primary it fell back to. A failure after that is thrown as it is.
   */
  public static final int MAX_RETRIES = 2;

  private RetryRule() {}

  /**
   * Whether an execution that already ran again {@code retries} times may be decided once more
   * ({@link #decide}); when not, its failure is thrown as it is, before any bookkeeping.
   */
  public static boolean mayRunAgain(int retries) {
    return retries < MAX_RETRIES;
  }

  /** What a failure was, for {@link #decide}. */
  public enum Failure {
    /** A socket read timed out: the caller's own network timeout ({@link Sql#isSocketTimeout}). */
    CALLER_TIMEOUT,
    /** The server refused the statement because it is read-only (error 1290 or 1836): it did not run. */
    READ_ONLY_REFUSAL,
    /** The connection failed ({@link Sql#isConnectionFailure}). */
    CONNECTION_LOST,
    /** Anything else: the statement's own error. */
    OTHER;

    /** Classifies {@code e}. */
    public static Failure of(SQLException e) {
      if (Sql.isSocketTimeout(e)) {
        return CALLER_TIMEOUT;
      }
      if (Sql.isReadOnlyRefusal(e)) {
        return READ_ONLY_REFUSAL;
      }
      return Sql.isConnectionFailure(e) ? CONNECTION_LOST : OTHER;
    }
  }

  /** What the session's transaction log holds of the open transaction, for {@link #decide}. */
  public enum Replay {
    /** {@code ryow.transactionReplay} is off: nothing is recorded. */
    OFF,
    /** Every statement of the transaction is recorded and can run again: the transaction can be replayed. */
    RECORDED,
    /**
     * Not the whole transaction: the size cap was passed, or a statement that cannot be replayed ran (a
     * batch, a stored procedure, a stream parameter, a row written through a result set, a savepoint set
     * through JDBC, a statement that commits implicitly).
     */
    INCOMPLETE
  }

  /** Where the failed statement runs again. */
  public enum Retry {
    /** Another replica, or wherever the fallback places the read. */
    ELSEWHERE,
    /** The primary, and the statement counts as a write from now on. */
    ON_PRIMARY_AS_WRITE,
    /** A new connection to the (possibly new) primary. */
    NEW_PRIMARY,
    /**
     * Placed again as a replica read: a replica that has what it must see, or the primary once it
     * answers; while the primary is lost the read waits on the replicas (up to {@code ryow.failoverTimeout}).
     */
    REPLICA_OR_PRIMARY,
    /**
     * The whole transaction is replayed on a new connection to the (possibly new) primary, and the
     * statement runs there after it; the replay is accepted only if every result the transaction read is
     * identical (else the failure is thrown).
     */
    REPLAY_TRANSACTION,
    /** Nowhere: the failure is thrown. */
    THROW
  }

  /**
   * Decides one retry.
   *
   * @param kind what the statement was classified as
   * @param ranOn where it ran
   * @param failure what {@link Failure#of} made of the exception
   * @param inTransaction a transaction was open (or the statement's transaction was placed on a server)
   * @param pinned session state exists that only the primary connection has
   * @param replicaRoute the router sent the statement to the replicas (on the primary: it fell back there)
   * @param replay what the transaction log holds of the open transaction
   */
  public static Retry decide(StatementKind kind, Target ranOn, Failure failure, boolean inTransaction,
      boolean pinned, boolean replicaRoute, Replay replay) {
    if (inTransaction) {
      return replay == Replay.RECORDED && ranOn == Target.PRIMARY && !pinned && replayable(kind)
          && (failure == Failure.CONNECTION_LOST || failure == Failure.READ_ONLY_REFUSAL)
          ? Retry.REPLAY_TRANSACTION : Retry.THROW;
    }
    if (failure == Failure.OTHER) {
      return Retry.THROW;
    }
    boolean read = kind == StatementKind.READ || kind == StatementKind.PRIMARY_READ;
    if (ranOn == Target.REPLICA) {
      if (kind != StatementKind.READ) {
        return Retry.THROW; // outside a transaction only reads run on a replica
      }
      return switch (failure) {
        case READ_ONLY_REFUSAL -> Retry.ON_PRIMARY_AS_WRITE;
        case CONNECTION_LOST -> Retry.ELSEWHERE;
        default -> Retry.THROW;
      };
    }
    if (pinned) {
      return Retry.THROW;
    }
    if (replicaRoute && kind == StatementKind.READ && failure == Failure.CONNECTION_LOST) {
      return Retry.REPLICA_OR_PRIMARY;
    }
    return failure == Failure.READ_ONLY_REFUSAL || read ? Retry.NEW_PRIMARY : Retry.THROW;
  }

  /**
   * Whether a statement of {@code kind} that failed inside a transaction may run again after a replay:
   * not one that ends the transaction or commits it implicitly, nor one that creates session state.
   */
  private static boolean replayable(StatementKind kind) {
    return switch (kind) {
      case READ, PRIMARY_READ, WRITE, SET_SESSION, USE, SAVEPOINT_CONTROL -> true;
      case SET_TRANSACTION, BEGIN, BEGIN_READ_ONLY, COMMIT, ROLLBACK, SESSION_PIN -> false;
    };
  }

  /**
   * Whether {@code failure} on the primary means its connection must not serve the next statement (it
   * is replaced, after a rediscovery, before the next one), whether or not the statement runs again.
   */
  public static boolean breaksPrimaryLink(Failure failure) {
    return failure != Failure.OTHER;
  }
}
