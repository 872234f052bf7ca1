package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Plain JDBC session state on a {@code jdbc:ryow:} connection: state that cannot be copied to a
 * replica (temporary tables, user locks) keeps its work where the state lives, and session variables
 * set with {@code SET} reach the replica that answers the next read. Each row returns the
 * {@code @@port} of the server that produced it; each check has a plain-connection counterpart that
 * shows what a wrong route would have returned. Reads of system variables run on the primary; the
 * checks of the replica session's mirrored variables ask for the replica with a {@code ryow:replica} hint.
 */
class SessionStateIT {

  @BeforeAll
  static void replicasUp() throws SQLException {
    Topology.resumeAppliers();
  }

  /** {first column as string, second column as int} of a one-row query. */
  private static Object[] row(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      return new Object[] {rs.getString(1), rs.getInt(2)};
    }
  }

  private static int port(Connection c) throws SQLException {
    return (Integer) row(c, "SELECT 'port', @@port")[1];
  }

  // ------------------------------------------------------------------------------- temporary tables

  @Test
  void aTemporaryTableCreatedThenReadOnTheSameConnectionWorks() throws SQLException {
    ServerCounts reads = ServerCounts.of("FROM `it_tmp_session`");
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      assertThat(port(c)).as("a replica connection is open and used before").isIn(REPLICA_PORTS);
      s.execute("CREATE TEMPORARY TABLE it_tmp_session (id INT PRIMARY KEY, v VARCHAR(16))");
      s.executeUpdate("INSERT INTO it_tmp_session VALUES (1, 'one'), (2, 'two'), (3, 'three')");
      Object[] count = row(c, "SELECT COUNT(*), @@port FROM it_tmp_session");
      assertThat(count[0]).isEqualTo("3");
      assertThat(count[1]).isEqualTo(PRIMARY_PORT);
      try (PreparedStatement ps = c.prepareStatement("SELECT v, @@port FROM it_tmp_session WHERE id = ?")) {
        for (int id = 1; id <= 3; id++) {
          ps.setInt(1, id);
          try (ResultSet rs = ps.executeQuery()) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isNotEmpty();
            assertThat(rs.getInt(2)).isEqualTo(PRIMARY_PORT);
          }
        }
      }
      // Read-only JDBC transaction and a CTE over the temporary table: still where the table lives.
      c.setReadOnly(true);
      c.setAutoCommit(false);
      Object[] cte = row(c, "WITH t AS (SELECT v FROM it_tmp_session WHERE id = 2) SELECT v, @@port FROM t");
      c.commit();
      c.setAutoCommit(true);
      c.setReadOnly(false);
      assertThat(cte).containsExactly("two", PRIMARY_PORT);
    }
    try (Connection plainReplica = Topology.plain(REPLICA_PORTS.get(0));
        Statement s = plainReplica.createStatement()) {
      assertThatThrownBy(() -> s.executeQuery("SELECT COUNT(*) FROM it_tmp_session"))
          .as("on a replica the temporary table does not exist: a wrong route fails")
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("doesn't exist");
    }
    ServerCounts ran = reads.delta();
    System.out.printf("temporary table reads: %s%n", ran);
    assertThat(ran.primary()).isEqualTo(5);
    assertThat(ran.replicas()).as("the plain replica's failed read is the only one there").isEqualTo(1);
  }

  // ------------------------------------------------------------------------------------ user locks

  @Test
  void getLockThenReleaseLockRunOnOneServer() throws SQLException {
    String lock = "ryow_it_session_lock";
    try (Connection c = Topology.ryow();
        Connection observer = Topology.plain(PRIMARY_PORT)) {
      assertThat(port(c)).isIn(REPLICA_PORTS);
      Object[] got = row(c, "SELECT GET_LOCK('" + lock + "', 5), @@port");
      assertThat(got[0]).as("GET_LOCK").isEqualTo("1");
      int lockPort = (Integer) got[1];
      assertThat(lockPort).isEqualTo(PRIMARY_PORT);
      assertThat(Topology.queryString(observer, "SELECT IS_USED_LOCK('" + lock + "') IS NOT NULL"))
          .as("the primary sees the lock held").isEqualTo("1");
      // Other reads in between, wherever they go, do not lose the lock.
      assertThat(Topology.queryString(c, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'ryow'"))
          .isNotNull();
      assertThat(row(c, "SELECT IS_USED_LOCK('" + lock + "') = CONNECTION_ID(), @@port"))
          .containsExactly("1", lockPort);
      Object[] released = row(c, "SELECT RELEASE_LOCK('" + lock + "'), @@port");
      assertThat(released[0]).as("RELEASE_LOCK").isEqualTo("1");
      assertThat(released[1]).as("RELEASE_LOCK ran where GET_LOCK ran").isEqualTo(lockPort);
      assertThat(Topology.queryString(observer, "SELECT IS_USED_LOCK('" + lock + "') IS NULL")).isEqualTo("1");
    }
  }

  @Test
  void preparedAndDoLockStatementsPairUpToo() throws SQLException {
    String lock = "ryow_it_prepared_lock";
    try (Connection c = Topology.ryow()) {
      try (PreparedStatement get = c.prepareStatement("select get_lock(?, ?), @@port")) {
        get.setString(1, lock);
        get.setInt(2, 5);
        try (ResultSet rs = get.executeQuery()) {
          rs.next();
          assertThat(rs.getInt(1)).isEqualTo(1);
          assertThat(rs.getInt(2)).isEqualTo(PRIMARY_PORT);
        }
      }
      try (PreparedStatement release = c.prepareStatement("/* app */ SELECT RELEASE_LOCK(?), @@port")) {
        release.setString(1, lock);
        try (ResultSet rs = release.executeQuery()) {
          rs.next();
          assertThat(rs.getInt(1)).as("RELEASE_LOCK of a prepared GET_LOCK").isEqualTo(1);
          assertThat(rs.getInt(2)).isEqualTo(PRIMARY_PORT);
        }
      }
      try (Statement s = c.createStatement()) {
        s.execute("DO GET_LOCK('" + lock + "', 5)");
      }
      assertThat(row(c, "SELECT RELEASE_LOCK('" + lock + "'), @@port")).containsExactly("1", PRIMARY_PORT);
    }
    try (Connection plainReplica = Topology.plain(REPLICA_PORTS.get(0))) {
      assertThat(Topology.queryString(plainReplica, "SELECT RELEASE_LOCK('" + lock + "')"))
          .as("RELEASE_LOCK on another server finds no lock: a wrong route fails").isNull();
    }
  }

  // ----------------------------------------------------------------------------- session variables

  private static String defaultReplicaSqlMode() throws SQLException {
    try (Connection plainReplica = Topology.plain(REPLICA_PORTS.get(0))) {
      return Topology.queryString(plainReplica, "SELECT @@session.sql_mode");
    }
  }

  @Test
  void sqlModeSetOnTheSessionReachesTheReplicaThatAnswers() throws SQLException {
    assertThat(defaultReplicaSqlMode()).as("the replicas' default differs, so a missed replay shows")
        .doesNotContain("ANSI_QUOTES");
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      // The replica connection exists before the SET: the SET must be replayed on it.
      assertThat(port(c)).isIn(REPLICA_PORTS);
      s.execute("SET @@session.sql_mode = 'ANSI_QUOTES,PIPES_AS_CONCAT,STRICT_TRANS_TABLES'");
      Object[] mode = row(c, "/* ryow:replica */ SELECT @@session.sql_mode, @@port");
      assertThat((String) mode[0]).contains("ANSI_QUOTES", "PIPES_AS_CONCAT", "STRICT_TRANS_TABLES")
          .doesNotContain("ONLY_FULL_GROUP_BY");
      assertThat(mode[1]).as("answered by a replica").isIn(REPLICA_PORTS);
      // The mode changes how the replica parses: || concatenates, "x" is an identifier. Whichever replica
      // answers (a poll round between two reads may move the JVM's reads to the other one), it has the mode.
      Object[] concat = row(c, "SELECT 'a' || 'b', @@port");
      assertThat(concat[0]).as("'a' || 'b' on port %s", concat[1]).isEqualTo("ab");
      assertThat(concat[1]).as("answered by a replica").isIn(REPLICA_PORTS);
      Object[] quoted = row(c, "SELECT \"TABLE_NAME\", @@port FROM information_schema.tables"
          + " WHERE table_schema = 'mysql' AND table_name = 'user'");
      assertThat(quoted[0]).as("\"TABLE_NAME\" on port %s", quoted[1]).isEqualTo("user");
      assertThat(quoted[1]).as("answered by a replica").isIn(REPLICA_PORTS);

      s.execute("SET SESSION sql_mode = 'TRADITIONAL', time_zone = '+02:00'");
      Object[] traditional = row(c, "/* ryow:replica */ SELECT CONCAT(@@session.sql_mode, ' ', @@session.time_zone), @@port");
      assertThat((String) traditional[0]).contains("STRICT_ALL_TABLES", "NO_ZERO_DATE", "+02:00")
          .doesNotContain("ANSI_QUOTES");
      assertThat(traditional[1]).isIn(REPLICA_PORTS);
      assertThat(row(c, "SELECT FROM_UNIXTIME(0), @@port")[0]).isEqualTo("1970-01-01 02:00:00");
    }
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      // The SET before the first replica read: the new replica connection must get it.
      s.execute("set sql_mode = 'ANSI_QUOTES'");
      Object[] mode = row(c, "/* ryow:replica */ SELECT @@session.sql_mode, @@port");
      assertThat(mode[0]).isEqualTo("ANSI_QUOTES");
      assertThat(mode[1]).isIn(REPLICA_PORTS);
    }
  }

  @Test
  void timeZoneSetThroughAPreparedStatementReachesTheReplica() throws SQLException {
    try (Connection c = Topology.ryow()) {
      assertThat(port(c)).isIn(REPLICA_PORTS);
      try (PreparedStatement set = c.prepareStatement("SET SESSION time_zone = '+04:00'")) {
        set.execute();
      }
      Object[] zone = row(c, "/* ryow:replica */ SELECT @@session.time_zone, @@port");
      assertThat(zone[0]).as("time_zone set by a PreparedStatement without parameters, seen by port %s", zone[1])
          .isEqualTo("+04:00");
      assertThat(zone[1]).isIn(REPLICA_PORTS);
    }
  }

  @Test
  void sqlModeSetThroughAPreparedStatementWithAParameterReachesTheReplica() throws SQLException {
    try (Connection c = Topology.ryow()) {
      assertThat(port(c)).isIn(REPLICA_PORTS);
      try (PreparedStatement set = c.prepareStatement("SET SESSION sql_mode = ?")) {
        set.setString(1, "ANSI_QUOTES,PIPES_AS_CONCAT");
        set.execute();
      }
      Object[] mode = row(c, "/* ryow:replica */ SELECT @@session.sql_mode, @@port");
      assertThat(mode[0]).as("sql_mode seen by the server that answered (port %s)", mode[1])
          .isEqualTo("PIPES_AS_CONCAT,ANSI_QUOTES");
      assertThat(mode[1]).isIn(REPLICA_PORTS);
    }
  }
}
