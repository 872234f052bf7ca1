package dev.ryow.jdbc.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import org.junit.jupiter.api.Test;

class SqlTest {

  @Test
  void aRefusedLoginIsNotAnUnreachableServer() {
    SQLException denied = new SQLException("Access denied for user 'u'@'h' (using password: YES)", "28000", 1045);
    assertThat(Sql.isAuthenticationFailure(denied)).isTrue();
    assertThat(Sql.isAuthenticationFailure(new SQLException("locked", "HY000", 3118))).isTrue();
    assertThat(Sql.isAuthenticationFailure(new SQLException("expired", "HY000", 1862))).isTrue();
    assertThat(Sql.isAuthenticationFailure(new SQLNonTransientConnectionException("link failure", "08S01"))).isFalse();
    assertThat(Sql.isUnreachable(denied)).isFalse();
  }

  @Test
  void aSocketTimeoutIsFoundAmongTheCauses() {
    SQLException wrapped = new SQLNonTransientConnectionException("Communications link failure", "08S01",
        new RuntimeException("wrapped", new SocketTimeoutException("Read timed out")));
    assertThat(Sql.isSocketTimeout(wrapped)).isTrue();
    assertThat(Sql.isConnectionFailure(wrapped)).isTrue();
    assertThat(Sql.isSocketTimeout(new SQLNonTransientConnectionException("Communications link failure", "08S01")))
        .isFalse();
  }

  @Test
  void aServerThatDiedUnderAStreamingResultSetIsABrokenLink() {
    // What Connector/J 26.10 threw from ResultSet.next() when the replica was killed mid-stream (JdbcFaceIT).
    SQLException streaming = new SQLException("Error retrieving record: Unexpected Exception: java.io.EOFException"
        + " message given: Can not read response from server.", "S1000",
        new RuntimeException("wrapped", new java.io.EOFException("Can not read response from server.")));
    assertThat(Sql.isConnectionFailure(streaming)).isFalse();
    assertThat(Sql.isBrokenLink(streaming)).isTrue();
    assertThat(Sql.isBrokenLink(new SQLNonTransientConnectionException("Communications link failure", "08S01"))).isTrue();
    assertThat(Sql.isBrokenLink(new SQLException("x", "S1000",
        new SQLNonTransientConnectionException("Communications link failure", "08S01")))).isTrue();
    assertThat(Sql.isBrokenLink(new SQLException("Duplicate entry '1' for key 'PRIMARY'", "23000", 1062))).isFalse();
    assertThat(Sql.isBrokenLink(new SQLException("Operation not allowed after ResultSet closed", "S1000"))).isFalse();
  }

  @Test
  void connectorJsCancelAndTimeoutExceptionsAreCancellations() {
    // Connector/J's cancel exception carries no SQLState and no error code: only its class tells.
    assertThat(StatementTimeouts.cancelled().getSQLState()).isNull();
    assertThat(Sql.isCancellation(StatementTimeouts.cancelled())).isTrue();
    assertThat(Sql.isCancellation(StatementTimeouts.timedOut())).isTrue();
    assertThat(Sql.isCancellation(new SQLException("Query execution was interrupted", "70100", 1317))).isTrue();
    assertThat(Sql.isCancellation(new SQLException("Unknown column 'x' in 'field list'", "42S22", 1054))).isFalse();
  }
}
