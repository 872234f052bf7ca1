package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reads whose answer belongs to the session (or to the server) rather than to replicated data:
 * session-bound functions and system variables in every spelling the server accepts, user
 * variables set by a write, {@code SHOW} of session status and variables, and
 * {@code performance_schema}. Each must answer exactly what plain Connector/J on the primary would:
 * the test checks the value against the primary session's own, and the server that ran the read
 * ({@code @@port} in the same row, or the servers' statement digests).
 */
class SessionBoundReadsIT {

  @BeforeAll
  static void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_session_bound", "id INT AUTO_INCREMENT PRIMARY KEY, v INT");
  }

  /** {first column as string, @@port} of a one-row query whose last column is {@code @@port}. */
  private static String[] ask(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      int columns = rs.getMetaData().getColumnCount();
      return new String[] {rs.getString(1), rs.getString(columns)};
    }
  }

  private static String single(Connection c, String sql) throws SQLException {
    return Topology.queryString(c, sql);
  }

  @Test
  void sessionBoundFunctionsAndVariablesInAnySpellingAnswerForThePrimarySession() throws SQLException {
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      assertThat(ask(c, "SELECT 1, @@port")[1]).as("a replica connection is open").isIn(ports(REPLICA_PORTS));
      s.executeUpdate("INSERT INTO it_session_bound (v) VALUES (1)");
      String id = single(c, "SELECT LAST_INSERT_ID()");
      String connectionId = single(c, "SELECT CONNECTION_ID()");
      assertThat(id).isNotEqualTo("0");
      s.execute("SELECT v INTO @w FROM it_session_bound WHERE id = " + id);
      s.execute("SET @@session.sql_mode = 'ANSI_QUOTES'");

      String primary = String.valueOf(PRIMARY_PORT);
      Map<String, String> expected = new LinkedHashMap<>();
      expected.put("SELECT `LAST_INSERT_ID`(), @@port", id);
      expected.put("SELECT last_insert_id (), @@port", id);
      expected.put("SELECT LAST_INSERT_ID/* the id */(), @@port", id);
      expected.put("SELECT @@session . identity, @@port", id);
      expected.put("SELECT @@SESSION/**/./**/`identity`, @@port", id);
      expected.put("SELECT @@local.last_insert_id, @@port", id);
      expected.put("SELECT @@pseudo_thread_id, @@port", connectionId);
      expected.put("SELECT `CONNECTION_ID` (), @@port", connectionId);
      expected.put("SELECT PS_CURRENT_THREAD_ID() = PS_THREAD_ID(CONNECTION_ID()), @@port", "1");
      expected.put("SELECT ps_current_thread_id () IS NOT NULL, @@port", "1");
      expected.put("SELECT CURRENT_ROLE(), @@port", "NONE");
      expected.put("SELECT ROLES_GRAPHML() LIKE '<?xml%', @@port", "1");
      expected.put("SELECT @w, @@port", "1");
      expected.put("SELECT @`w`, @@port", "1");
      expected.put("SELECT @@sql_mode, @@port", "ANSI_QUOTES");
      expected.put("SELECT @@global.gtid_executed = (SELECT @@global.gtid_executed), @@port", "1");
      expected.put("SELECT VARIABLE_VALUE, @@port FROM performance_schema.session_variables"
          + " WHERE VARIABLE_NAME = 'pseudo_thread_id'", connectionId);
      SoftAssertions each = new SoftAssertions();
      for (Map.Entry<String, String> e : expected.entrySet()) {
        each.assertThat(ask(c, e.getKey())).as(e.getKey()).containsExactly(e.getValue(), primary);
      }
      each.assertAll();
      // The server's identity is the one exception: it says where a read ran.
      assertThat(ask(c, "SELECT 'identity', @@port")[1]).isIn(ports(REPLICA_PORTS));
    }
  }

  @Test
  void showOfSessionStatusAndVariablesRunsOnThePrimary() throws SQLException {
    ServerCounts showStatus = ServerCounts.of("SHOW STATUS LIKE");
    ServerCounts showSessionStatus = ServerCounts.of("SHOW SESSION STATUS LIKE");
    ServerCounts showSessionVariables = ServerCounts.of("SHOW SESSION VARIABLES LIKE");
    ServerCounts showTables = ServerCounts.of("SHOW TABLES LIKE");
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO it_session_bound (v) VALUES (2)");
      String connectionId = single(c, "SELECT CONNECTION_ID()");
      try (ResultSet rs = s.executeQuery("SHOW SESSION VARIABLES LIKE 'pseudo_thread_id'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(2)).as("the primary session's id").isEqualTo(connectionId);
      }
      for (String sql : new String[] {"SHOW STATUS LIKE 'Com_insert'", "SHOW SESSION STATUS LIKE 'Com_insert'"}) {
        try (ResultSet rs = s.executeQuery(sql)) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(2)).as("%s counts this session's insert", sql).isEqualTo(1);
        }
      }
      try (ResultSet rs = s.executeQuery("SHOW TABLES LIKE 'it_session_bound'")) {
        assertThat(rs.next()).as("schema SHOWs still read a replica").isTrue();
      }
    }
    assertThat(showStatus.delta()).extracting(ServerCounts::primary, ServerCounts::replicas).containsExactly(1L, 0L);
    assertThat(showSessionStatus.delta()).extracting(ServerCounts::primary, ServerCounts::replicas)
        .containsExactly(1L, 0L);
    assertThat(showSessionVariables.delta()).extracting(ServerCounts::primary, ServerCounts::replicas)
        .containsExactly(1L, 0L);
    assertThat(showTables.delta()).extracting(ServerCounts::primary, ServerCounts::replicas)
        .containsExactly(0L, 1L);
  }

  private static java.util.List<String> ports(java.util.List<Integer> ports) {
    return ports.stream().map(String::valueOf).toList();
  }
}
