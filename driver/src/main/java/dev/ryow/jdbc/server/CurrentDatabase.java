package dev.ryow.jdbc.server;

import com.mysql.cj.jdbc.JdbcConnection;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.jspecify.annotations.Nullable;

/**
 * The current database of a Connector/J connection, whatever its {@code databaseTerm}: with
 * {@code CATALOG} (its default) JDBC calls it the catalog and {@code setSchema} does nothing, with
 * {@code SCHEMA} the reverse. Mirroring the database itself, not the JDBC call, keeps every
 * physical connection of a logical connection in the database its primary connection is in.
 */
public final class CurrentDatabase {
  private CurrentDatabase() {}

  /** The database Connector/J believes {@code c} is in (no round trip; a {@code USE} sent as SQL does not change it). */
  public static @Nullable String of(Connection c) throws SQLException {
    return c.unwrap(JdbcConnection.class).getDatabase();
  }

  /** Moves {@code c} to {@code database} ({@code USE}), as {@code setCatalog} or {@code setSchema} would. */
  public static void set(Connection c, String database) throws SQLException {
    c.unwrap(JdbcConnection.class).setDatabase(database);
  }

  /** The database the server says {@code c} is in ({@code SELECT DATABASE()}, one round trip). */
  public static @Nullable String onServer(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT DATABASE()")) {
      return rs.next() ? rs.getString(1) : null;
    }
  }
}
