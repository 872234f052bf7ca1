package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.config.HostSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

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
}
