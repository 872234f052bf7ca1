package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.session.Execution;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * What a {@link PrimaryCallableStatement} needs from its logical connection: the current primary
 * connection, the placing of each execution and the bookkeeping after it. The logical connection
 * implements it; the delegation test stubs it. Public, as every interface of ours that a JDBC wrapper
 * implements: pools and transaction managers that proxy the wrapper (Atomikos) call its methods by reflection
 * through whichever interface declares them.
 */
public interface PrimaryCalls extends Connection, LinkFailures {
  /** The logical connection's primary physical connection now. */
  PhysicalConnection primary();

  /** Before an execution: the physical connection it runs on ({@code Session.begin}). */
  PhysicalConnection begin(Execution execution) throws SQLException;

  /** After the execution ran ({@code Session.done}). */
  void done(Execution execution) throws SQLException;

  @Override
  boolean isClosed();
}
