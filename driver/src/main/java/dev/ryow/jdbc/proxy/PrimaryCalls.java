package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.server.PhysicalConnection;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * What a {@link PrimaryCallableStatement} needs from its logical connection: the current primary
 * connection, the routing of each execution to it and the bookkeeping after it. The logical connection
 * implements it; the delegation test stubs it.
 */
interface PrimaryCalls extends Connection, LinkFailures {
  /** The logical connection's primary physical connection now. */
  PhysicalConnection primary();

  /** Before an execution of {@code kind}: the primary connection it runs on (replaced first if broken). */
  PhysicalConnection acquire(StatementKind kind) throws SQLException;

  /** After an execution that ran as {@code ranAs} on {@code on}. */
  void completed(StatementKind ranAs, PhysicalConnection on) throws SQLException;

  @Override
  boolean isClosed();
}
