package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Date;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every kind of parameter reaches whichever server runs the prepared statement. */
class PreparedParametersIT {
  /** Parameter 1 in column 1, the answering server's port in column 2, parameters 2..16 in columns 3..17. */
  private static final String ECHO = "SELECT ?, @@port" + ", ?".repeat(15);

  private static void bind(PreparedStatement ps) throws SQLException {
    ps.setInt(2, 42);
    ps.setLong(3, 9_000_000_000L);
    ps.setString(4, "héllo ' \" \\ world");
    ps.setBigDecimal(5, new BigDecimal("12345.6789"));
    ps.setDouble(6, 2.5);
    ps.setFloat(7, 1.25f);
    ps.setBoolean(8, true);
    ps.setNull(9, Types.VARCHAR);
    ps.setBytes(10, new byte[] {1, 2, 3});
    ps.setDate(11, Date.valueOf(LocalDate.of(2026, 11, 29)));
    ps.setTimestamp(12, Timestamp.valueOf(LocalDateTime.of(2026, 11, 29, 12, 34, 56)));
    ps.setObject(13, "obj");
    ps.setObject(14, 7, Types.INTEGER);
    ps.setObject(15, "typed", JDBCType.VARCHAR);
    ps.setCharacterStream(16, new StringReader("reader"));
    ps.setShort(1, (short) 3);
  }

  @Test
  void everyParameterTypeReachesTheReplicaAndThePrimary() throws SQLException {
    try (Connection c = Topology.ryow();
        PreparedStatement ps = c.prepareStatement(ECHO)) {
      bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        check(rs, true);
      }
      c.setAutoCommit(false);
      ps.setCharacterStream(16, new StringReader("reader"));
      try (ResultSet rs = ps.executeQuery()) {
        check(rs, false);
      }
      c.commit();
    }
  }

  /**
   * A value set once serves every later execution, on whichever server runs it, and a value set again
   * replaces it everywhere: the primary's statement, which the setters hand each value to (Connector/J's
   * checks), is not given the recorded values again when it already holds them.
   */
  @Test
  void theLatestValueRunsOnEveryServerAcrossExecutions() throws SQLException {
    try (Connection c = Topology.ryow();
        PreparedStatement ps = c.prepareStatement("SELECT ?, @@port, ?")) {
      ps.setInt(1, 1);
      ps.setString(2, "a");
      expect(ps, 1, "a", true);
      expect(ps, 1, "a", true);
      c.setAutoCommit(false); // a read-write transaction: its reads run on the primary
      expect(ps, 1, "a", false);
      ps.setInt(1, 2);
      expect(ps, 2, "a", false);
      c.commit();
      c.setAutoCommit(true);
      expect(ps, 2, "a", true);
      ps.setString(2, "b");
      expect(ps, 2, "b", true);
      c.setAutoCommit(false);
      expect(ps, 2, "b", false);
      ps.clearParameters();
      ps.setInt(1, 3);
      ps.setString(2, "c");
      expect(ps, 3, "c", false);
      c.commit();
      c.setAutoCommit(true);
      expect(ps, 3, "c", true);
    }
  }

  /** A setter of a parameter index that Connector/J checks for nothing but the index. */
  @FunctionalInterface
  private interface IndexSetter {
    void set(PreparedStatement ps, int index) throws SQLException;
  }

  /**
   * The setters a read's values are only recorded by (Connector/J checks nothing but their index) refuse the indexes
   * Connector/J refuses, with its own SQLState and message, counted as Connector/J counts placeholders (not the
   * {@code ?} in a string or a comment); within them, every value reaches the replica that runs the read.
   */
  @Test
  void indexOnlySettersRefuseTheIndexesConnectorJRefuses() throws SQLException {
    String text = "SELECT ?, @@port, ? /* ? */, '?'";
    List<IndexSetter> setters = List.of((ps, i) -> ps.setInt(i, 1), (ps, i) -> ps.setLong(i, 1L),
        (ps, i) -> ps.setString(i, "s"), (ps, i) -> ps.setNull(i, Types.INTEGER), (ps, i) -> ps.setBoolean(i, true),
        (ps, i) -> ps.setShort(i, (short) 1), (ps, i) -> ps.setByte(i, (byte) 1));
    try (Connection plain = Topology.plain(PRIMARY_PORT); Connection c = Topology.ryow();
        PreparedStatement expected = plain.prepareStatement(text); PreparedStatement ps = c.prepareStatement(text)) {
      for (int k = 0; k < setters.size(); k++) {
        for (int index : new int[] {0, -1, 3, 4}) {
          SQLException want = refusal(setters.get(k), expected, index);
          SQLException got = refusal(setters.get(k), ps, index);
          assertThat((Object) want).as("Connector/J refuses index %d (setter %d)", index, k).isNotNull();
          assertThat((Object) got).as("jdbc:ryow: refuses index %d (setter %d)", index, k).isNotNull();
          assertThat(got.getSQLState()).as("setter %d, index %d", k, index).isEqualTo(want.getSQLState());
          assertThat(got.getMessage()).as("setter %d, index %d", k, index).isEqualTo(want.getMessage());
        }
        setters.get(k).set(ps, 1);
      }
      ps.setLong(1, 7L);
      ps.setString(2, "b");
      expect(ps, 7, "b", true);
    }
  }

  private static SQLException refusal(IndexSetter setter, PreparedStatement ps,
      int index) {
    try {
      setter.set(ps, index);
      return null;
    } catch (SQLException e) {
      return e;
    }
  }

  private static void expect(PreparedStatement ps, int first, String second, boolean onReplica) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(first);
      assertThat(rs.getInt(2)).isIn(onReplica ? REPLICA_PORTS : List.of(PRIMARY_PORT));
      assertThat(rs.getString(3)).isEqualTo(second);
    }
  }

  private static void check(ResultSet rs, boolean onReplica) throws SQLException {
    assertThat(rs.next()).isTrue();
    assertThat(rs.getShort(1)).isEqualTo((short) 3);
    int port = rs.getInt(2);
    if (onReplica) {
      assertThat(port).isIn(REPLICA_PORTS);
    } else {
      assertThat(port).isEqualTo(PRIMARY_PORT);
    }
    assertThat(rs.getInt(3)).isEqualTo(42);
    assertThat(rs.getLong(4)).isEqualTo(9_000_000_000L);
    assertThat(rs.getString(5)).isEqualTo("héllo ' \" \\ world");
    assertThat(rs.getBigDecimal(6)).isEqualByComparingTo("12345.6789");
    assertThat(rs.getDouble(7)).isEqualTo(2.5);
    assertThat(rs.getFloat(8)).isEqualTo(1.25f);
    assertThat(rs.getInt(9)).isEqualTo(1);
    assertThat(rs.getString(10)).isNull();
    assertThat(rs.getBytes(11)).containsExactly(1, 2, 3);
    assertThat(rs.getString(12)).isEqualTo("2026-11-29");
    assertThat(rs.getString(13)).startsWith("2026-11-29 12:34:56");
    assertThat(rs.getString(14)).isEqualTo("obj");
    assertThat(rs.getInt(15)).isEqualTo(7);
    assertThat(rs.getString(16)).isEqualTo("typed");
    assertThat(rs.getString(17)).isEqualTo("reader");
  }

  @Test
  void clearParametersForgetsValues() throws SQLException {
    try (Connection c = Topology.ryow();
        PreparedStatement ps = c.prepareStatement("SELECT ? IS NULL, @@port")) {
      ps.setBinaryStream(1, new ByteArrayInputStream("x".getBytes(StandardCharsets.UTF_8)));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        assertThat(rs.getBoolean(1)).isFalse();
      }
      ps.clearParameters();
      ps.setNull(1, Types.INTEGER);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        assertThat(rs.getBoolean(1)).isTrue();
        assertThat(rs.getInt(2)).isIn(REPLICA_PORTS);
      }
    }
  }
}
