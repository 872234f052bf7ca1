package dev.ryow.jdbc.proxy;

import dev.ryow.jdbc.server.PhysicalConnection;
import java.sql.SQLException;

/**
 * The one exception hook of the JDBC face: every wrapper hands each {@link SQLException} of a physical
 * object (result set, metadata, callable statement) here, with the physical connection it came from.
 * An exception that means the link is broken takes a replica out of rotation at once and makes the
 * primary connection be replaced before the next statement; any other exception changes nothing.
 */
interface LinkFailures {
  /** {@code e} came from a physical object of {@code on}. */
  void linkFailed(PhysicalConnection on, SQLException e);

  /**
   * A row of an updatable result set is about to be written: the call begins ({@code Session.beginCall}), so
   * that the GTIDs of the write join the consistency scope bound to the calling thread now.
   */
  default void rowWriting() {}

  /**
   * A row of an updatable result set of {@code on} was written ({@code updateRow}, {@code insertRow},
   * {@code deleteRow}): a write, for the logical connection's bookkeeping. Metadata result sets never write.
   */
  default void rowWritten(PhysicalConnection on) throws SQLException {}
}
