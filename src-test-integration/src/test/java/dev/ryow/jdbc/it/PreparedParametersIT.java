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
