package dev.ryow.jdbc.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A URL that mixes MySQL and MariaDB servers is refused at connect with a message naming both, while a URL
 * of MariaDB servers only connects. Needs the MySQL sandbox beside the MariaDB one: it starts it when it is
 * not running and stops it again afterwards.
 */
class MariaDbMixedUrlIT {
  private static final int PORT_BASE =
      Integer.parseInt(System.getenv().getOrDefault("RYOW_SANDBOX_PORT_BASE", "23306"));
  private static final int MYSQL_PRIMARY = PORT_BASE;
  private static final int MYSQL_REPLICA = PORT_BASE + 1;

  @RegisterExtension
  static final SandboxBeside GTID_SANDBOX = SandboxBeside.mysqlWithGtids();

  @BeforeAll
  static void sandbox() {
    MariaDbTopology.start();
  }

  private static String url(int primary, int replica) {
    return SandboxBeside.url(primary, replica);
  }

  @Test
  void aMariaDbPrimaryWithAMySqlReplicaIsRefused() {
    assertThatThrownBy(() -> DriverManager.getConnection(url(MariaDbTopology.PRIMARY_PORT, MYSQL_REPLICA)).close())
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageContaining("The URL mixes MariaDB and MySQL servers: 127.0.0.1:" + MariaDbTopology.PRIMARY_PORT
            + " is MariaDB, 127.0.0.1:" + MYSQL_REPLICA + " is MySQL.");
  }

  @Test
  void aMySqlPrimaryWithAMariaDbReplicaIsRefused() {
    assertThatThrownBy(() -> DriverManager.getConnection(url(MYSQL_PRIMARY, MariaDbTopology.REPLICA_PORTS.get(0))).close())
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageContaining("The URL mixes MySQL and MariaDB servers");
  }

  @Test
  void mariaDbServersOnlyConnectAndTheFirstHostIsThePrimary() throws Exception {
    try (Connection c = DriverManager.getConnection(url(MariaDbTopology.PRIMARY_PORT, MariaDbTopology.REPLICA_PORTS.get(0)));
        Statement s = c.createStatement()) {
      c.setAutoCommit(false); // a transaction that is not read-only runs on the primary
      try (ResultSet rs = s.executeQuery("SELECT @@port, @@version")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(MariaDbTopology.PRIMARY_PORT);
        assertThat(rs.getString(2)).containsIgnoringCase("mariadb");
      }
      c.commit();
    }
  }
}
