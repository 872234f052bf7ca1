package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.Health;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.proxy.LogicalConnection;
import dev.ryow.jdbc.server.ConnectorJ;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The poller's round, on stub servers: one server's answer it cannot read costs that server, not the others. */
class PollRoundTest {
  private static final String P = "stub-p:3306";
  private static final String R1 = "stub-r1:3307";
  private static final String R2 = "stub-r2:3308";

  @Test
  void aReplicaWhoseAnswerCannotBeReadLeavesRotationAndTheRoundGoesOn() throws Exception {
    StubServers servers = new StubServers(P, R1, R2);
    servers.server(R1).owned = "not a GTID set#";
    RyowConfig config = RyowConfig.from("jdbc:ryow:mysql://" + P + "," + R1 + "," + R2
        + "/app?ryow.gtidCapture=query&ryow.pollInterval=600000", new Properties());
    ConnectorJ connector = new ConnectorJ(servers);
    Cluster cluster = new Cluster(config, connector);
    try (Connection c = LogicalConnection.open(cluster, config, connector)) {
      ReplicaEndpoint r1 = cluster.servers().get(1);
      ReplicaEndpoint r2 = cluster.servers().get(2);
      // Every condition is awaited, then asserted: the round sets the replicas' health before it writes the
      // replica states' text, so reading the text as soon as r1 is UNREACHABLE raced with the round (a fresh
      // clone's JDK 25 run, 2026-12-06).
      long giveUp = System.nanoTime() + 30_000_000_000L;
      while (!(r2.lastPoll() != null && r1.health() == Health.UNREACHABLE && r2.health() == Health.UP
          && cluster.metrics().snapshot().replicaStates().contains("could not be read"))
          && System.nanoTime() - giveUp < 0) {
        Thread.sleep(2);
      }
      assertThat(r2.lastPoll()).as("the first round reached the replica after the unreadable one").isNotNull();
      assertThat(r1.health()).isEqualTo(Health.UNREACHABLE);
      assertThat(r2.health()).isEqualTo(Health.UP);
      assertThat(cluster.metrics().snapshot().replicaStates()).as("the round ended").contains("could not be read");
      assertThat(c.isClosed()).isFalse();
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }
}
