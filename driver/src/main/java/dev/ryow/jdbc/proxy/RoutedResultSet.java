package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.session.RowChecksum;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.jspecify.annotations.Nullable;

/**
 * A result set of a routed statement or of metadata: everything delegates to the physical result set
 * ({@link DelegatingResultSet}, generated), except {@link #getStatement()}, which returns the
 * application's statement wrapper (null for metadata result sets, as JDBC allows), never Connector/J's,
 * whose connection is a physical one; and the row writes of an updatable one ({@code updateRow},
 * {@code insertRow}, {@code deleteRow}), which the logical connection is told of before (the call
 * begins: the write's GTIDs join the consistency scope of the calling thread) and after they ran. An
 * exception that means the physical connection broke (the server died while rows were streaming) is
 * reported to the logical connection at once. Inside a transaction that {@code ryow.transactionReplay}
 * records, each row {@code next()} reaches is added to the statement's {@link RowChecksum}; otherwise
 * there is none, and {@code next()} only delegates.
 */
final class RoutedResultSet extends DelegatingResultSet {
  private final ResultSet physical;
  private final @Nullable Statement owner;
  private final LinkFailures failures;
  private final PhysicalConnection on;
  /** What the application reads, for a transaction replay to compare; null when nothing records it. */
  private final @Nullable RowChecksum read;

  private RoutedResultSet(ResultSet physical, @Nullable Statement owner, LinkFailures failures, PhysicalConnection on,
      @Nullable RowChecksum read) {
    this.physical = physical;
    this.owner = owner;
    this.failures = failures;
    this.on = on;
    this.read = read;
  }

  /**
   * Wraps {@code physical}, a result set of a physical statement on {@code on}, so that it reports
   * {@code owner} as its statement and its connection failures to {@code failures}.
   */
  static ResultSet wrap(ResultSet physical, @Nullable Statement owner, LinkFailures failures, PhysicalConnection on) {
    return new RoutedResultSet(physical, owner, failures, on, null);
  }

  /** {@link #wrap}, adding each row the application reaches to {@code read} (null: none). */
  static ResultSet wrap(ResultSet physical, @Nullable Statement owner, LinkFailures failures, PhysicalConnection on,
      @Nullable RowChecksum read) {
    return new RoutedResultSet(physical, owner, failures, on, read);
  }

  /**
   * The view of {@code physical}, a result set of {@code owner}'s physical statement on {@code on}:
   * {@code last}, the view the statement handed out last, when it is of the same physical result set (so
   * {@code executeQuery} and a later {@code getResultSet} agree), else a new one, which adds each row the
   * application reaches to {@code read} (null: none). The statement keeps what this returns.
   */
  static RoutedResultSet viewOf(@Nullable RoutedResultSet last, ResultSet physical, Statement owner,
      LinkFailures failures, PhysicalConnection on, @Nullable RowChecksum read) {
    return last != null && last.physical == physical ? last
        : new RoutedResultSet(physical, owner, failures, on, read);
  }

  @Override
  ResultSet delegate() {
    return physical;
  }

  @Override
  ResultSet physical() {
    return physical;
  }

  @Override
  SQLException failed(SQLException e) {
    failures.linkFailed(on, e);
    return e;
  }

  @Override
  public boolean next() throws SQLException {
    boolean row = super.next();
    RowChecksum r = read;
    if (r != null) {
      r.next(physical, row);
    }
    return row;
  }

  @Override
  public @Nullable Statement getStatement() throws SQLException {
    try {
      physical.getStatement(); // Connector/J's closed check; its statement is not the application's
    } catch (SQLException e) {
      throw failed(e);
    }
    return owner;
  }

  @Override
  public void updateRow() throws SQLException {
    failures.rowWriting();
    try {
      physical.updateRow();
    } catch (SQLException e) {
      throw failed(e);
    }
    failures.rowWritten(on);
  }

  @Override
  public void insertRow() throws SQLException {
    failures.rowWriting();
    try {
      physical.insertRow();
    } catch (SQLException e) {
      throw failed(e);
    }
    failures.rowWritten(on);
  }

  @Override
  public void deleteRow() throws SQLException {
    failures.rowWriting();
    try {
      physical.deleteRow();
    } catch (SQLException e) {
      throw failed(e);
    }
    failures.rowWritten(on);
  }

  @Override
  public String toString() {
    return "RoutedResultSet[" + physical + "]";
  }
}
