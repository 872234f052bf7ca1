package dev.ryow.jdbc.it;

import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.DriverManager;

/**
 * Run in a separate JVM by {@link MonotonicReadsIT}: reads the test row through {@code jdbc:ryow:} on
 * one connection, then prints {@code reads backward highestValue} and, on the last line, the
 * connection's consistency token. Arguments: URL, number of reads.
 */
public final class MonotonicReaderMain {
  private MonotonicReaderMain() {}

  /** Entry point. */
  public static void main(String[] args) throws Exception {
    MonotonicReadsIT.Run run = new MonotonicReadsIT.Run("first process");
    try (Connection c = DriverManager.getConnection(args[0])) {
      for (int i = Integer.parseInt(args[1]); i > 0; i--) {
        MonotonicReadsIT.read(c, run);
      }
      System.out.println(run.reads + " " + run.backward + " " + run.valueSeen);
      System.out.println(c.unwrap(RyowConnection.class).consistencyToken());
    }
  }
}
