package dev.ryow.jdbc.it;

import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;

/**
 * Run in a separate JVM by {@link ConsistencyScopesIT}: writes one row through {@code jdbc:ryow:} and
 * prints the connection's consistency token on the last line of standard output.
 * Arguments: URL, id, value.
 */
public final class TokenWriterMain {
  private TokenWriterMain() {}

  /** Entry point. */
  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection(args[0]);
        PreparedStatement ps = c.prepareStatement("INSERT INTO it_scope (id, v) VALUES (?, ?)")) {
      ps.setInt(1, Integer.parseInt(args[1]));
      ps.setInt(2, Integer.parseInt(args[2]));
      ps.executeUpdate();
      System.out.println(c.unwrap(RyowConnection.class).consistencyToken());
    }
  }
}
