package dev.ryow.jdbc.session;

import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.server.PipelinedWait;
import dev.ryow.jdbc.sql.StatementKind;
import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One statement execution as the JDBC face hands it to its {@link Session}: what the statement is
 * (its kind, its SQL, whether it is a query that can carry its replica wait), its deadline, and what the
 * session decided for it (the physical connection and the wait sent with the query; where a read ran is
 * the session's: {@link Session#lastRead}). One per statement wrapper, reused by every execution of it:
 * {@link Session#begin} fills it, {@link Session#retry} changes it, {@link Session#done} reads it. The
 * face's statement wrappers extend it ({@link #Execution()}), so a statement is one object: ORMs prepare
 * one per query.
 *
 * <p>It belongs to the statement's thread; only {@link #statement} is read by {@code cancel()} from another.
 *
 * <p>It lives as long as its statement, so it is soon in the old generation: a reference stored into it
 * costs G1's card-marking barrier (a fence) even when the value is the one it already holds. The
 * references an execution of the same statement sets again (its kind, its SQL, its server) are
 * therefore stored only when they change.
 */
public class Execution implements PipelinedWait.Request {
  /** The statement wrapper this execution belongs to: what {@code cancel()} names. */
  final Object statement;
  private StatementKind kind = StatementKind.READ;
  private String sql = "";
  private long deadlineNanos;
  private boolean query;
  private boolean ranAsWrite;
  private @Nullable PhysicalConnection on;
  /** {@link #on} belongs to this execution (it keeps the last execution's until then: see the class comment). */
  private boolean begun;
  /** The read's plan while its wait travels with the query ({@link #pipelined}): the set and the budget. */
  private @Nullable ReadPlan pipelinedWait;
  /** The router sent it to the replicas (it may still have been placed on the primary). */
  boolean replicaRoute;
  /** How many times it ran again after a failure ({@link Session#retry}; bounded by {@code RetryRule.mayRunAgain}). */
  int retries;

  /** The database its statement was created in (a transaction replay runs it there). */
  private @Nullable String database;
  /** A prepared statement's parameters (a transaction replay copies them), or null for an SQL string. */
  private @Nullable ParameterRecorder parameters;

  /** The execution of {@code statement}, a separate object. */
  public Execution(Object statement) {
    this.statement = statement;
  }

  /** A statement wrapper that is its own execution. */
  @SuppressWarnings("this-escape") // only the reference is kept; nothing is called on it here
  protected Execution() {
    this.statement = this;
  }

  /**
   * Set once, when the statement is created: the database it runs in and, for a prepared statement, its
   * parameters, which {@code ryow.transactionReplay} records with each execution inside a transaction.
   */
  public final void statementOf(@Nullable String database, @Nullable ParameterRecorder parameters) {
    this.database = database;
    this.parameters = parameters;
  }

  /** The database its statement was created in, where Connector/J runs it. */
  public final @Nullable String database() {
    return database;
  }

  @Nullable ParameterRecorder parameters() {
    return parameters;
  }

  /**
   * Starts an execution of {@code sql}, classified as {@code kind}, whose query timeout expires at
   * {@code deadlineNanos} ({@link System#nanoTime()}; 0: none). A {@code query} may carry its replica
   * wait in its own round trip ({@link #pipelinedWait}).
   */
  @SuppressWarnings("ReferenceEquality") // the same String object: nothing to store (see the class comment)
  public final Execution of(StatementKind kind, String sql, long deadlineNanos, boolean query) {
    if (this.kind != kind) {
      this.kind = kind;
    }
    if (this.sql != sql) {
      this.sql = sql;
    }
    this.deadlineNanos = deadlineNanos;
    this.query = query;
    this.ranAsWrite = false;
    this.begun = false;
    if (pipelinedWait != null) {
      pipelinedWait = null;
    }
    this.replicaRoute = false;
    this.retries = 0;
    return this;
  }

  /** What the statement runs as: its classification, or {@link StatementKind#WRITE} once {@link #ranAsWrite}. */
  public final StatementKind kind() {
    return ranAsWrite ? StatementKind.WRITE : kind;
  }

  public final String sql() {
    return sql;
  }

  /** When the query timeout expires ({@link System#nanoTime()}), 0 when there is none. */
  public final long deadlineNanos() {
    return deadlineNanos;
  }

  boolean query() {
    return query;
  }

  /** A replica refused it as a write and it ran again on the primary: it is a write (a stored function...). */
  public final boolean ranAsWrite() {
    return ranAsWrite;
  }

  void ranAsWrite(boolean write) {
    ranAsWrite = write;
  }

  /** The physical connection this attempt runs on. */
  public final PhysicalConnection on() {
    return Objects.requireNonNull(onOrNull(), "the execution has not begun");
  }

  /** The physical connection this attempt runs on, or null before {@link Session#begin} placed it. */
  @Nullable PhysicalConnection onOrNull() {
    return begun ? on : null;
  }

  /** Runs (again) on {@code target}; a retry sends no pipelined wait. */
  PhysicalConnection runOn(PhysicalConnection target, boolean retry) {
    if (on != target) {
      on = target;
    }
    begun = true;
    if (retry) {
      pipelinedWait = null;
    }
    return target;
  }

  /**
   * Whether the query must be sent with its replica wait before it in the same packet
   * ({@link PipelinedWait#PREFIX}, bound by {@link PipelinedWait#bind}).
   */
  public final boolean pipelined() {
    return pipelinedWait != null;
  }

  /** The wait sent with the query: set by the session when the replica must wait ({@code plan}'s set, budget). */
  @SuppressWarnings("ReferenceEquality") // the same object: nothing to store (see the class comment)
  void pipeline(@Nullable ReadPlan plan) {
    if (pipelinedWait != plan) {
      pipelinedWait = plan;
    }
  }

  @Override
  public final Position waitFor() {
    return Objects.requireNonNull(pipelinedWait, "no pipelined wait").watermark();
  }

  @Override
  public final BigDecimal waitSeconds() {
    return Objects.requireNonNull(pipelinedWait, "no pipelined wait").waitSeconds();
  }
}
