package dev.ryow.jdbc.it;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.DriverManager;
import java.sql.SQLNonTransientConnectionException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A URL that mixes MySQL servers with and without GTIDs is refused at connect with a message naming both (a mixed
 * fleet is refused, not half served: a server without GTIDs cannot wait for a GTID set, nor one with GTIDs for a
 * binary-log position), both ways; and a server in a transitional {@code gtid_mode} is refused. Needs the GTID
 * sandbox beside the one without: it starts it when it is not running and stops it again afterwards.
 */
class NoGtidMixedUrlIT {
  private static final int PORT_BASE =
      Integer.parseInt(System.getenv().getOrDefault("RYOW_SANDBOX_PORT_BASE", "23306"));
  private static final int GTID_PRIMARY = PORT_BASE;
  private static final int GTID_REPLICA = PORT_BASE + 1;

  @RegisterExtension
  static final SandboxBeside GTID_SANDBOX = SandboxBeside.mysqlWithGtids();

  @BeforeAll
  static void sandbox() {
    NoGtidTopology.start();
  }

  private static String url(int primary, int replica) {
    return SandboxBeside.url(primary, replica);
  }

  @Test
  void aPrimaryWithoutGtidsWithAGtidReplicaIsRefused() {
    assertThatThrownBy(() -> DriverManager.getConnection(url(NoGtidTopology.PRIMARY_PORT, GTID_REPLICA)).close())
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageContaining("The URL mixes MySQL without GTIDs and MySQL servers: 127.0.0.1:"
            + NoGtidTopology.PRIMARY_PORT + " is MySQL without GTIDs, 127.0.0.1:" + GTID_REPLICA + " is MySQL.");
  }

  @Test
  void aGtidPrimaryWithAReplicaWithoutGtidsIsRefused() {
    assertThatThrownBy(() -> DriverManager.getConnection(url(GTID_PRIMARY, NoGtidTopology.REPLICA_PORTS.get(0))).close())
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessageContaining("The URL mixes MySQL and MySQL without GTIDs servers");
  }

  @Test
  void aServerInATransitionalGtidModeIsRefused() throws Exception {
    int replica = NoGtidTopology.REPLICA_PORTS.get(1);
    NoGtidTopology.exec(replica, "SET GLOBAL gtid_mode = OFF_PERMISSIVE");
    try {
      assertThatThrownBy(() -> DriverManager.getConnection(url(replica, NoGtidTopology.REPLICA_PORTS.get(0))).close())
          .isInstanceOf(SQLNonTransientConnectionException.class)
          .hasMessageContaining("runs with gtid_mode=OFF_PERMISSIVE: ryow needs every server with GTIDs");
    } finally {
      NoGtidTopology.exec(replica, "SET GLOBAL gtid_mode = OFF");
    }
  }
}
