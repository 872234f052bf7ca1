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
}
