package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mysql.cj.conf.PropertyKey;
import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.jdbc.JdbcConnection;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.RyowDriver;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Secrets and {@code Properties} at connect, against the real servers: a user whose password
 * contains {@code &}, written into the URL unencoded, gets an error that names the parameter's
 * position and quotes no part of the password; encoded, it logs in. {@code getPropertyInfo} never
 * reports a password. A {@code Properties} value that is not a {@code String} is honoured (or
 * refused), never silently dropped.
 */
class ConnectionPropertiesIT {
  private static final String USER = "ryow_amp";
  private static final String PASSWORD = "pa&ss-word-tail";

  @BeforeAll
  static void userWithAnAmpersandInItsPassword() throws SQLException {
    Topology.resumeAppliers();
    Topology.exec(PRIMARY_PORT, "DROP USER IF EXISTS '" + USER + "'@'%'");
    Topology.exec(PRIMARY_PORT, "CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
    Topology.exec(PRIMARY_PORT, "GRANT ALL ON " + Topology.DATABASE + ".* TO '" + USER + "'@'%'");
    Topology.exec(PRIMARY_PORT, "GRANT SELECT ON performance_schema.* TO '" + USER + "'@'%'");
    Topology.awaitReplicasCaughtUp();
  }

  /** The topology's URL without its parameters. */
  private static String hosts() {
    String url = Topology.ryowUrl();
    return url.substring(0, url.indexOf('?'));
  }

  private static void assertQuotesNoPartOf(String message, String secret) {
    for (int i = 0; i + 4 <= secret.length(); i++) {
      assertThat(message).as("the message quotes '%s' of the password", secret.substring(i, i + 4))
          .doesNotContain(secret.substring(i, i + 4));
    }
  }

  @Test
  void aPasswordWithAnUnencodedAmpersandIsNeverEchoedAndEncodedItLogsIn() throws SQLException {
    String unencoded = hosts() + "?user=" + USER + "&password=" + PASSWORD;
    assertThatThrownBy(() -> DriverManager.getConnection(unencoded))
        .isInstanceOf(SQLException.class)
        .satisfies(e -> {
          System.out.printf("unencoded '&' in the password: %s%n", e.getMessage());
          assertQuotesNoPartOf(e.getMessage(), PASSWORD);
          assertThat(e.getMessage()).contains("parameter 3", "%26");
        });

    String encoded = hosts() + "?user=" + USER + "&password=" + PASSWORD.replace("&", "%26");
    try (Connection c = DriverManager.getConnection(encoded)) {
      assertThat(Topology.queryString(c, "SELECT CURRENT_USER()")).isEqualTo(USER + "@%");
      assertThat(Integer.parseInt(Topology.queryString(c, "SELECT @@port"))).isIn(REPLICA_PORTS);
      assertThat(c.toString()).doesNotContain(PASSWORD);
    }
    Properties info = new Properties();
    info.setProperty("user", USER);
    info.setProperty("password", PASSWORD);
    try (Connection c = DriverManager.getConnection(hosts(), info)) {
      assertThat(Topology.queryString(c, "SELECT CURRENT_USER()")).isEqualTo(USER + "@%");
    }
  }

  @Test
  void getPropertyInfoNeverReportsThePassword() throws SQLException {
    RyowDriver driver = new RyowDriver();
    Properties info = new Properties();
    info.setProperty("password", PASSWORD);
    info.setProperty("ryow.tokenKey", "0123456789abcdef-" + PASSWORD);
    for (String url : new String[] {hosts(), hosts() + "?user=" + USER + "&password=" + PASSWORD.replace("&", "%26")}) {
      DriverPropertyInfo[] all = driver.getPropertyInfo(url, info);
      assertThat(all).extracting(p -> p.name).contains("password", "ryow.tokenKey", "user");
      for (DriverPropertyInfo p : all) {
        String shown = p.value + " " + p.description + " " + Arrays.toString(p.choices);
        assertThat(shown).as(p.name).doesNotContain(PASSWORD).doesNotContain("ss-word");
        if (p.name.equals("password") || p.name.equals("ryow.tokenKey")) {
          assertThat(p.value).as(p.name).isNull();
        }
      }
    }
  }

  @Test
  void integerPropertyValuesAreHonouredNotIgnored() throws SQLException {
    Properties zero = new Properties();
    zero.setProperty("user", USER);
    zero.setProperty("password", PASSWORD);
    zero.put("ryow.waitTimeout", 0);
    assertThatThrownBy(() -> DriverManager.getConnection(hosts(), zero))
        .as("an Integer 0 for ryow.waitTimeout is read (and out of range), not dropped")
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("Invalid value for ryow.waitTimeout");

    Properties small = new Properties();
    small.setProperty("user", USER);
    small.setProperty("password", PASSWORD);
    small.put("ryow.tokenMaxLength", 64);
    String token = "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5,4e11fa47-71ca-11e1-9e33-c80aa9429562:1-5";
    try (Connection c = DriverManager.getConnection(hosts(), small)) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      assertThatThrownBy(() -> ryow.mergeConsistencyToken(token))
          .as("the Integer ryow.tokenMaxLength=64 is in force: a %d-character token is refused", token.length())
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("ryow.tokenMaxLength=64");
    }
    try (Connection c = DriverManager.getConnection(hosts(), withoutLimit())) {
      c.unwrap(RyowConnection.class).mergeConsistencyToken(token); // the default bound accepts it
    }
  }

  /**
   * Connector/J's parse cache ({@code cachePrepStmts}) is on for the driver's connections unless the
   * application decided about it: a read prepared through the driver is prepared twice (the primary's
   * statement checks the parameters, a replica's runs it), and without the cache each is parsed again.
   */
  @Test
  void theParseCacheIsOnUnlessTheApplicationDecided() throws SQLException {
    try (Connection c = DriverManager.getConnection(hosts(), withoutLimit())) {
      PropertySet physical = c.unwrap(JdbcConnection.class).getPropertySet();
      assertThat(physical.getBooleanProperty(PropertyKey.cachePrepStmts).getValue()).isTrue();
      assertThat(physical.getIntegerProperty(PropertyKey.prepStmtCacheSqlLimit).getValue()).isEqualTo(4096);
      for (long id = 1; id <= 3; id++) { // the same text, prepared again, bound to other values
        try (PreparedStatement ps = c.prepareStatement("SELECT ? + 1, @@port")) {
          ps.setLong(1, id);
          try (ResultSet rs = ps.executeQuery()) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(id + 1);
            assertThat(rs.getInt(2)).isIn(REPLICA_PORTS);
          }
        }
      }
    }
    Properties off = withoutLimit();
    off.setProperty("cachePrepStmts", "false");
    try (Connection c = DriverManager.getConnection(hosts(), off)) {
      PropertySet physical = c.unwrap(JdbcConnection.class).getPropertySet();
      assertThat(physical.getBooleanProperty(PropertyKey.cachePrepStmts).getValue()).isFalse();
    }
  }

  private static Properties withoutLimit() {
    Properties p = new Properties();
    p.setProperty("user", USER);
    p.setProperty("password", PASSWORD);
    return p;
  }
}
