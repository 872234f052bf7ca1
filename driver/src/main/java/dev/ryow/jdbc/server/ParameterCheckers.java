package dev.ryow.jdbc.server;

import com.mysql.cj.jdbc.JdbcPreparedStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The statements of one primary connection that check prepared reads' parameters as Connector/J does, one
 * per SQL text, shared by every logical prepared statement of that text on the connection, and never
 * executed.
 *
 * <p>A logical prepared statement that reads runs on a replica, but each setter must refuse what
 * Connector/J refuses, when it is called (its index against the placeholders, values it rejects): a
 * client-side prepared statement of the same text on the primary connection does that without a round
 * trip. Preparing one for every logical prepare cost as much as the replica's own (pools and ORMs prepare
 * the text again for every use); kept here, a text is prepared for checking once per connection. What a
 * setter leaves on a checker is never sent anywhere: the values that run are replayed from the logical
 * statement's recorder. {@link #release} drops them when the logical statement closes, so that a checker
 * keeps no application value (a stream, a large blob) alive.
 *
 * <p>At most {@link #SIZE} texts, the least recently used closed first. A lock guards the map (a
 * JDBC connection may be handed between threads); nothing under it blocks (client-side prepares send
 * nothing).
 */
final class ParameterCheckers {
  /** Texts per connection: an ORM's reads for a handful of entities, with room to spare. */
  static final int SIZE = 64;

  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, PreparedStatement> bySql = new LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
      if (size() <= SIZE) {
        return false;
      }
      closeQuietly(eldest.getValue());
      return true;
    }
  };

  /** The checker of {@code sql} on {@code connection}, prepared on first use. */
  PreparedStatement of(Connection connection, String sql) throws SQLException {
    lock.lock();
    try {
      PreparedStatement ps = bySql.get(sql);
      if (ps == null || ps.isClosed()) {
        ps = connection.prepareStatement(sql);
        bySql.put(sql, ps);
      }
      return ps;
    } finally {
      lock.unlock();
    }
  }

  /**
   * How many placeholders Connector/J found in {@code sql} (its checker's bindings), or 0 when its statement does not
   * say (then every setter goes to the checker).
   */
  int placeholders(Connection connection, String sql) throws SQLException {
    PreparedStatement ps = of(connection, sql);
    return ps instanceof JdbcPreparedStatement checked ? checked.getQueryBindings().getBindValues().length : 0;
  }

  /** Drops the values set on the checker of {@code sql}, if there is one. */
  void release(String sql) {
    lock.lock();
    try {
      @Nullable PreparedStatement ps = bySql.get(sql);
      if (ps != null && !ps.isClosed()) {
        ps.clearParameters();
      }
    } catch (SQLException e) {
      // A closed connection: its checkers are gone with it.
    } finally {
      lock.unlock();
    }
  }

  private static void closeQuietly(PreparedStatement ps) {
    try {
      ps.close();
    } catch (SQLException e) {
      // Closing a client-side statement of a broken connection: nothing to release.
    }
  }
}
