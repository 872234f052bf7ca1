package dev.ryow.jdbc.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * Run in a separate JVM by {@link ConnectorJVersionIT} with another Connector/J on the class path:
 * connects through {@code jdbc:ryow:} and prints {@code CONNECTED <port of a read>} or
 * {@code REFUSED <SQLState> <message>} on the last line. Argument: the URL.
 */
public final class ConnectorJProbeMain {
  private ConnectorJProbeMain() {}

  /** Entry point. */
  public static void main(String[] args) {
    try (Connection c = DriverManager.getConnection(args[0])) {
      System.out.println("CONNECTED " + Topology.queryString(c, "SELECT @@port"));
    } catch (SQLException e) {
      System.out.println("REFUSED " + e.getSQLState() + " " + e.getMessage());
      System.exit(3);
    }
  }
}
