package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.server.ServerFlavor;
import dev.ryow.jdbc.server.ServerIdentity;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Two hosts of the URL that are one server, as the poller learns their {@code server_uuid}s. */
class DistinctServersTest {
  private final ReplicaEndpoint primary = new ReplicaEndpoint(new HostSpec("127.0.0.1", 3306), 0, 4);
  private final ReplicaEndpoint replica = new ReplicaEndpoint(new HostSpec("db-replica", 3306), 1, 4);
  private final ReplicaEndpoint alias = new ReplicaEndpoint(new HostSpec("localhost", 3306), 2, 4);
  private final DistinctServers distinct = new DistinctServers("c", List.of(primary, replica, alias));

  @Test
  void aHostThatAnswersLateWithAKnownUuidIsAConflictNamingBothHosts() {
    distinct.learned(primary, "uuid-p");
    distinct.learned(replica, "uuid-r");
    assertThat(distinct.conflict()).isNull();
    distinct.learned(alias, "uuid-p");
    assertThat(distinct.conflict())
        .startsWith("Hosts 127.0.0.1:3306 and localhost:3306 of the URL are the same server (server_uuid uuid-p)");
  }

  @Test
  void theConflictEndsWhenTheServerBehindANameChanges() {
    distinct.learned(primary, "uuid-p");
    distinct.learned(alias, "uuid-p");
    assertThat(distinct.conflict()).isNotNull();
    distinct.learned(alias, "uuid-other");
    assertThat(distinct.conflict()).isNull();
  }

  @Test
  void unknownUuidsAreNoConflict() {
    distinct.learned(primary, null);
    distinct.learned(alias, null);
    assertThat(distinct.conflict()).isNull();
  }

  /**
   * "Are all servers of the URL of one kind of replication?" M = MySQL, D = MariaDB, B = MySQL without GTIDs,
   * - = not asked yet.
   */
  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(delimiter = '|', value = {
      "MMM | ''",
      "DDD | ''",
      "BBB | ''",
      "M-- | ''",
      "--- | ''",
      "-D- | ''",
      "MD- | The URL mixes MySQL and MariaDB servers: 127.0.0.1:3306 is MySQL, db-replica:3306 is MariaDB.",
      "D-M | The URL mixes MariaDB and MySQL servers: 127.0.0.1:3306 is MariaDB, localhost:3306 is MySQL.",
      "-MD | The URL mixes MySQL and MariaDB servers: db-replica:3306 is MySQL, localhost:3306 is MariaDB.",
      "MB- | The URL mixes MySQL and MySQL without GTIDs servers: 127.0.0.1:3306 is MySQL, db-replica:3306 is MySQL w",
      "B-M | The URL mixes MySQL without GTIDs and MySQL servers: 127.0.0.1:3306 is MySQL without GTIDs, localhost:3306",
  })
  void aUrlMixingKindsOfReplicationIsRefused(String kinds, String message) {
    AtomicReferenceArray<String> known = new AtomicReferenceArray<>(3);
    for (int i = 0; i < 3; i++) {
      char f = kinds.charAt(i);
      known.set(i, f == '-' ? null : new ServerIdentity("u", 3306, false,
          f == 'D' ? ServerFlavor.MARIADB : ServerFlavor.MYSQL, f != 'B').replicationLabel());
    }
    String mixed = DistinctServers.FlavorRule.mixed(List.of(primary, replica, alias), known);
    if (message.isEmpty()) {
      assertThat(mixed).isNull();
    } else {
      assertThat(mixed).startsWith(message).contains("list the servers of one replication topology only");
    }
  }
}
