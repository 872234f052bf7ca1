package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Connector/J behaviour that an operator or application relies on, the same through {@code jdbc:ryow:}
 * (issue 42): each case runs on plain Connector/J on the primary ({@code plain}) and on the driver over
 * the sandbox's servers ({@code ryow}), with the Connector/J property in the URL and without it (the
 * negative control that shows the property is what changes the answer).
 */
class ConnectorJOptionsIT {
  private static Connection open(String driver, String parameters) throws SQLException {
    if (driver.equals("plain")) {
      return DriverManager.getConnection("jdbc:mysql://" + Topology.HOST + ":" + PRIMARY_PORT + "/" + Topology.DATABASE
          + "?allowPublicKeyRetrieval=true" + (parameters.isEmpty() ? "" : "&" + parameters), Topology.USER,
          Topology.PASSWORD);
    }
    return parameters.isEmpty() ? Topology.ryow() : Topology.ryow(parameters);
  }

  /** Item 6: {@code cancel()} after the connection (or the statement) was closed does nothing. */
  @ParameterizedTest
  @ValueSource(strings = {"plain", "ryow"})
  void cancelAfterCloseIsANoOp(String driver) throws SQLException {
    Connection c = open(driver, "");
    Statement s = c.createStatement();
    PreparedStatement ps = c.prepareStatement("SELECT 1");
    Statement closedFirst = c.createStatement();
    closedFirst.close();
    closedFirst.cancel();
    c.close();
    assertThat(s.isClosed()).as("the statement closed with its connection").isTrue();
    s.cancel();
    ps.cancel();
    assertThatThrownBy(s::getMaxRows).as("another method of the closed statement still fails")
        .isInstanceOf(SQLException.class);
  }

  /**
   * Item 4: with {@code dontTrackOpenResources=true}, closing the connection leaves its statements open
   * ({@code isClosed()} false, settings readable); without it, they close with it.
   */
  @ParameterizedTest
  @ValueSource(strings = {"plain", "ryow"})
  void dontTrackOpenResourcesLeavesStatementsOpen(String driver) throws SQLException {
    for (boolean untracked : new boolean[] {true, false}) {
      Connection c = open(driver, untracked ? "dontTrackOpenResources=true" : "");
      Statement s = c.createStatement();
      s.setMaxRows(3);
      PreparedStatement ps = c.prepareStatement("SELECT ? + 1");
      c.close();
      assertThat(s.isClosed()).as("statement after the connection closed, dontTrackOpenResources=" + untracked)
          .isEqualTo(!untracked);
      assertThat(ps.isClosed()).as("prepared statement, dontTrackOpenResources=" + untracked).isEqualTo(!untracked);
      if (untracked) {
        assertThat(s.getMaxRows()).isEqualTo(3);
        s.close();
        ps.close();
        assertThat(s.isClosed()).isTrue();
      }
    }
  }

  /**
   * Item 2: with {@code queryTimeoutKillsConnection=true}, a statement's query timeout closes the
   * connection: {@code isClosed()} is true and a later call fails as on a closed connection.
   * Without it the connection stays open and runs the next statement.
   */
  @ParameterizedTest
  @ValueSource(strings = {"plain", "ryow"})
  void queryTimeoutKillsConnection(String driver) throws SQLException {
    for (boolean kills : new boolean[] {true, false}) {
      try (Connection c = open(driver, kills ? "queryTimeoutKillsConnection=true" : "")) {
        try (Statement s = c.createStatement()) {
          s.setQueryTimeout(1);
          assertThatThrownBy(() -> s.executeQuery("SELECT SLEEP(20)")).isInstanceOf(SQLTimeoutException.class);
        }
        if (kills) {
          // Connector/J closes its connection from its timer thread, just after the statement failed: waited for
          long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
          while (!c.isClosed() && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
          }
        }
        assertThat(c.isClosed()).as("after the timeout, queryTimeoutKillsConnection=" + kills).isEqualTo(kills);
        if (kills) {
          // (Connector/J's message and state differ from the driver's own closed-connection error: connector-j.md)
          assertThatThrownBy(c::createStatement).isInstanceOf(SQLException.class);
        } else {
          try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("SELECT 1")) {
            assertThat(rs.next()).isTrue();
          }
        }
      }
    }
  }

  /**
   * Item 3: a user whose password expired logs in with {@code disconnectOnExpiredPasswords=false} (the
   * server's sandbox mode), changes it with {@code ALTER USER USER() IDENTIFIED BY …}, and the connection
   * then runs a query; the new password logs in. Without the property the login is refused (the negative
   * control). The user is created on the primary and replicated.
   */
  @ParameterizedTest
  @ValueSource(strings = {"plain", "ryow"})
  void anExpiredPasswordCanBeChangedWithDisconnectOnExpiredPasswordsFalse(String driver) throws SQLException {
    String user = "it_expired_" + driver;
    Topology.exec(PRIMARY_PORT, "DROP USER IF EXISTS '" + user + "'@'%'");
    Topology.exec(PRIMARY_PORT, "CREATE USER '" + user + "'@'%' IDENTIFIED BY 'old-pw' PASSWORD EXPIRE");
    Topology.exec(PRIMARY_PORT, "GRANT SELECT ON " + Topology.DATABASE + ".* TO '" + user + "'@'%'");
    Topology.awaitReplicasCaughtUp();
    String credentials = "user=" + user + "&password=old-pw";
    assertThatThrownBy(() -> openAs(driver, credentials).close()).as("login without the property")
        .isInstanceOf(SQLException.class);
    try (Connection c = openAs(driver, credentials + "&disconnectOnExpiredPasswords=false");
        Statement s = c.createStatement()) {
      s.executeUpdate("ALTER USER USER() IDENTIFIED BY 'new-pw'"); // (execute() would ask isReadOnly() first: 1820)
      try (java.sql.ResultSet rs = s.executeQuery("SELECT @@port")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).as("the query after the password changed ran on the primary").isEqualTo(PRIMARY_PORT);
      }
    }
    Topology.awaitReplicasCaughtUp();
    try (Connection c = openAs(driver, "user=" + user + "&password=new-pw"); Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT 1")) {
      assertThat(rs.next()).as("a login with the new password").isTrue();
    } finally {
      Topology.exec(PRIMARY_PORT, "DROP USER IF EXISTS '" + user + "'@'%'");
    }
  }

  /** A connection as another user ({@code credentials}: user=…&password=…, and more parameters). */
  private static Connection openAs(String driver, String credentials) throws SQLException {
    if (driver.equals("plain")) {
      return DriverManager.getConnection("jdbc:mysql://" + Topology.HOST + ":" + PRIMARY_PORT + "/" + Topology.DATABASE
          + "?allowPublicKeyRetrieval=true&" + credentials);
    }
    return DriverManager.getConnection(Topology.ryowUrl().replaceFirst("user=[^&]*&password=[^&]*", credentials)
        + "&allowPublicKeyRetrieval=true");
  }

  /**
   * Item 7: a prepared statement's {@code toString()} is Connector/J's text, the SQL with the bound values
   * (applications log it): the same through the driver as through Connector/J, after the setters and after
   * an execution.
   */
  @org.junit.jupiter.api.Test
  void aPreparedStatementPrintsItsSqlWithTheBoundValues() throws SQLException {
    java.util.List<String> seen = new java.util.ArrayList<>();
    for (String driver : java.util.List.of("plain", "ryow")) {
      try (Connection c = open(driver, ""); PreparedStatement ps = c.prepareStatement("SELECT ? + 1, ?")) {
        ps.setInt(1, 41);
        ps.setString(2, "forty-one");
        seen.add(ps.toString());
        try (java.sql.ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
        }
        ps.setInt(1, 7);
        seen.add(ps.toString());
      }
    }
    assertThat(seen.get(0)).endsWith("SELECT 41 + 1, 'forty-one'");
    assertThat(seen.subList(2, 4)).as("jdbc:ryow: against Connector/J").isEqualTo(seen.subList(0, 2));
  }

  /**
   * Item 5: with {@code useServerPrepStmts=true&useCursorFetch=true}, the sequence of Connector/J's
   * {@code testBug104753} (a table with a row; one prepared statement executed with fetch sizes 0, 1, 0, 0, 1,
   * reading the first row each time, the result set left open), on a new connection each time, 200 times, with
   * one statement and, with {@code cachePrepStmts=true}, with the text prepared again for each execution:
   * no execution fails, through the driver as on plain Connector/J. Connector/J and the server fail every
   * execution without a cursor of a server-side prepared statement whose first execution opened one
   * (Bug#104753's {@code ArrayIndexOutOfBoundsException}); the driver created such physical statements when a
   * read moved to another server after fetch size 1 was set (2-6 % of executions), and now prepares again
   * before such an execution (docs/connector-j.md).
   */
  @ParameterizedTest
  @ValueSource(strings = {"plain", "ryow"})
  void cursorFetchThenFetchSizeZeroNeverFails(String driver) throws SQLException {
    Topology.exec(PRIMARY_PORT, "DROP TABLE IF EXISTS it_cursor_fetch");
    Topology.exec(PRIMARY_PORT, "CREATE TABLE it_cursor_fetch (id BIGINT NOT NULL PRIMARY KEY)");
    Topology.exec(PRIMARY_PORT, "INSERT INTO it_cursor_fetch VALUES (1)");
    // Written through a plain connection, which no jdbc:ryow: watermark knows: a replica read may come before the
    // replica applied it (a loaded CI run read the new, still empty table: no row).
    Topology.awaitReplicasCaughtUp();
    for (boolean cached : new boolean[] {false, true}) {
      int executions = 0;
      java.util.List<String> failures = new java.util.ArrayList<>();
      for (int i = 0; i < 200; i++) {
        try (Connection c = open(driver, "useServerPrepStmts=true&useCursorFetch=true&cachePrepStmts=" + cached)) {
          PreparedStatement ps = null;
          int step = 0;
          for (int fetchSize : new int[] {0, 1, 0, 0, 1}) {
            if (ps == null || cached) { // cached: prepared again for each execution, as testBug104753 does
              if (ps != null) {
                ps.close();
              }
              ps = c.prepareStatement("SELECT id FROM it_cursor_fetch");
            }
            executions++;
            try {
              ps.setFetchSize(fetchSize);
              ps.execute();
              java.sql.ResultSet rs = ps.getResultSet();
              assertThat(rs.next()).isTrue();
              assertThat(rs.getLong(1)).isEqualTo(1L);
            } catch (SQLException e) {
              failures.add("run " + i + ", execution " + step + " (fetch size " + fetchSize + "): " + e);
            }
            step++;
          }
          ps.close();
        }
      }
      assertThat(executions).isEqualTo(1000);
      assertThat(failures).as("failed executions of 1000 (" + driver + ", cachePrepStmts=" + cached + ")").isEmpty();
    }
  }
}
