package dev.ryow.jdbc.session;

import dev.ryow.jdbc.route.TransactionState;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.Connection;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * A session's transactions: the {@link TransactionState} (one interned value, replaced by its pure
 * transitions), the server that the current transaction's reads were placed on, and the JDBC calls that
 * change them ({@code setAutoCommit}, {@code commit}, {@code rollback}, {@code setReadOnly}, savepoints).
 * Commit and rollback reach exactly the servers that took part in the transaction.
 */
public final class Transactions {
  private final PrimaryLink link;
  private final ReplicaSet replicas;
  private final ReadConsistency consistency;
  /** The open transaction's statements, for a replay ({@code ryow.transactionReplay}); null when off. */
  private final @Nullable TransactionLog log;
  private TransactionState state = TransactionState.INITIAL;
  /**
   * Where the reads of the current transaction run, once its first read was placed: a read-only
   * transaction stays on one server (and waits once), even when that was the primary after a failed wait.
   */
  private @Nullable PhysicalConnection readsOn;

  Transactions(PrimaryLink link, ReplicaSet replicas, ReadConsistency consistency, @Nullable TransactionLog log) {
    this.link = link;
    this.replicas = replicas;
    this.consistency = consistency;
    this.log = log;
  }

  /** The state now. */
  public TransactionState state() {
    return state;
  }

  /** Where the current transaction's reads run, or null before its first read (or outside one). */
  @Nullable PhysicalConnection readsOn() {
    return readsOn;
  }

  /** The current transaction's reads run on {@code on} (null: its next read is placed afresh). */
  void readsOn(@Nullable PhysicalConnection on) {
    readsOn = on;
  }

  /** A transaction is open, or a statement's transaction was already placed on a server. */
  boolean inTransaction() {
    return state.inTransaction() || readsOn != null;
  }

  /** After a statement of {@code kind} ran, on the primary when {@code onPrimary}; COMMIT and ROLLBACK end the transaction. */
  @SuppressWarnings("ReferenceEquality") // the states are interned: identity is "unchanged"
  void ran(StatementKind kind, boolean onPrimary) {
    if (onPrimary && (kind == StatementKind.SET_SESSION || kind == StatementKind.SESSION_PIN)) {
      // SET SESSION TRANSACTION READ WRITE, SET transaction_read_only = …: the next isReadOnly() asks the server
      link.readOnlySqlRan();
    }
    if (kind == StatementKind.COMMIT || kind == StatementKind.ROLLBACK) {
      endTransaction();
    } else {
      TransactionState next = state.ran(kind, onPrimary);
      if (next != state) {
        state = next; // stored only when it changes: see Execution's class comment
      }
    }
  }

  /** Before a statement runs on the primary: the application's read-only and autocommit flags reach it. */
  void syncPrimary() throws SQLException {
    link.sync(state.readOnly(), state.autoCommit());
  }

  public void setAutoCommit(boolean autoCommit) throws SQLException {
    if (autoCommit && !state.autoCommit()) {
      // JDBC: switching autocommit on commits the open transaction, on every server that holds part of it.
      // A primary connection in a transaction gets autocommit back now (that commits, as with Connector/J);
      // one that took no part is left alone, and so are replica connections until their next use.
      try {
        if (state.holdsPrimary() && !link.autoCommitOnServer() && link.connection().isClosed()) {
          throw notCommitted(); // the server rolled it back with the lost connection
        }
        link.autoCommitOn();
        replicas.commitOrRollback(true);
      } finally {
        endTransaction();
        consistency.captureDue();
      }
      state = state.withAutoCommit(true);
      consistency.captureAfterCommit(); // as commit() does: other connections may read these writes next
      return;
    }
    state = state.withAutoCommit(autoCommit);
  }

  public boolean autoCommit() {
    return state.autoCommit();
  }

  public void commit() throws SQLException {
    end(true);
  }

  public void rollback() throws SQLException {
    end(false);
  }

  /**
   * Commits or rolls back. In autocommit mode it is Connector/J's own answer on the primary. Otherwise it
   * reaches only the servers that took part (a primary connection still in autocommit mode ran nothing of
   * it), and the transaction is over whether or not that worked (a failed commit leaves its outcome to the
   * caller); a commit's GTIDs join the watermark.
   */
  private void end(boolean commit) throws SQLException {
    if (state.autoCommit()) {
      syncPrimary();
      finish(link.connection().jdbc(), commit);
      return;
    }
    try {
      if (!link.autoCommitOnServer()) {
        if (link.connection().isClosed()) {
          // The connection broke inside the transaction: the server rolled it back. A rollback is done; a
          // commit cannot be (the statement that failed already said so); the next statement reconnects.
          if (commit) {
            throw notCommitted();
          }
        } else {
          try {
            finish(link.connection().jdbc(), commit);
          } catch (SQLException e) {
            if (dev.ryow.jdbc.server.Sql.isConnectionFailure(e)) {
              // Its outcome is unknown (a COMMIT is never sent again): the connection is replaced before the
              // next statement, and a rollback of what is left succeeds without it.
              link.connection().markBroken();
            }
            throw e;
          }
        }
      }
      replicas.commitOrRollback(commit);
    } finally {
      endTransaction();
      if (commit) {
        consistency.captureDue();
      }
    }
    if (commit) {
      consistency.captureAfterCommit();
    }
  }

  /** What a commit of a transaction whose primary connection was lost throws. */
  private SQLException notCommitted() {
    return new java.sql.SQLTransactionRollbackException("Not committed: the connection to the primary "
        + link.connection().host() + " was lost inside this transaction, and the server rolled it back."
        + " Run the transaction again; the connection's next statement reconnects by itself.", "40000");
  }

  private static void finish(Connection c, boolean commit) throws SQLException {
    if (commit) {
      c.commit();
    } else {
      c.rollback();
    }
  }

  /**
   * The primary's JDBC connection for a call that belongs to its transaction (savepoints), with the
   * application's autocommit and read-only flags synced first.
   */
  public Connection primaryInTransaction() throws SQLException {
    if (log != null) {
      log.cut("a savepoint was set or rolled back to through JDBC");
    }
    syncPrimary();
    return link.connection().jdbc();
  }

  /**
   * Sets the read-only flag. As JDBC allows, it cannot change inside a transaction that has already
   * run a statement (the transaction's server is chosen): commit or roll back first. Setting the
   * current value is always allowed. It reaches the primary connection before its next statement.
   */
  public void setReadOnly(boolean readOnly) throws SQLException {
    TransactionState next = state.withReadOnly(readOnly);
    if (next == null) {
      throw new SQLException(
          "Cannot change read-only mode inside a transaction that has started; commit or roll back first", "25000");
    }
    state = next;
    link.readOnlySet(readOnly); // it reaches the primary connection before its next statement
  }

  /**
   * What Connector/J answers {@code isReadOnly()}: the session's mode. That is the flag set through JDBC
   * until SQL that may change the mode ran on the primary; then the primary's answer
   * ({@code @@session.transaction_read_only}, one query, remembered until such SQL runs again). The flag
   * stays what the application set, as Connector/J's client-side flag does: it refuses writes
   * ({@code S1009}) and routing follows it ({@link PrimaryReadOnly}).
   */
  public boolean readOnly() throws SQLException {
    Boolean known = link.readOnly().answer(state.readOnly());
    if (known != null) {
      return known;
    }
    syncPrimary();
    boolean onServer = link.connection().jdbc().isReadOnly();
    link.readOnlyServerSaid(onServer);
    return onServer;
  }

  private void endTransaction() {
    if (log != null) {
      log.clear();
    }
    state = state.ended();
    readsOn = null;
    replicas.transactionEnded();
  }
}
