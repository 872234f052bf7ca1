package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.server.ConnectorJ;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ClusterRegistryTest {
  private static final String URL =
      "jdbc:ryow:mysql://127.0.0.1:1,127.0.0.1:2/db?ryow.clusterIdleTimeout=0&ryow.clusterName=registry-test";

  @Test
  void aClusterIsKeptWhileReservedAndReleasedOnceIdleThenCreatedAgain() throws Exception {
    RyowConfig config = RyowConfig.from(URL, new Properties());
    ConnectorJ connector = new ConnectorJ();
    ClusterRegistry registry = new ClusterRegistry();
    Cluster first = registry.reserve(config.clusterKey(), w -> new Cluster(config, connector, w, null));
    assertThat(registry.reserve(config.clusterKey(), w -> new Cluster(config, connector, w, null))).isSameAs(first);
    first.cancelReservation();
    registry.sweep();
    assertThat(registry.find(config.clusterKey())).as("one reservation left").containsSame(first);
    GtidSet written = GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5");
    first.jvm().wrote(written);
    first.cancelReservation();
    registry.sweep();
    assertThat(registry.size()).as("released").isZero();
    assertThat(first.live()).as("no successor yet").isSameAs(first);

    Cluster second = registry.reserve(config.clusterKey(), w -> new Cluster(config, connector, w, null));
    assertThat(second).isNotSameAs(first);
    assertThat(first.live()).as("a released cluster reports its successor").isSameAs(second);
    assertThat(second.jvm().writes().contains(written)).as("the JVM's writes outlive the release").isTrue();
    second.cancelReservation();
    registry.sweep();
    assertThat(registry.size()).isZero();
  }

  @Test
  void whatTheJvmsReadsSawOutlivesARelease() throws Exception {
    RyowConfig config = RyowConfig.from(URL, new Properties());
    ConnectorJ connector = new ConnectorJ();
    ClusterRegistry registry = new ClusterRegistry();
    Cluster first = registry.reserve(config.clusterKey(), w -> new Cluster(config, connector, w, null));
    GtidSet seen = GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-9");
    first.jvm().reads().imported(seen, java.util.List.of(), System.nanoTime());
    first.cancelReservation();
    registry.sweep();
    assertThat(registry.size()).as("released").isZero();
    Cluster second = registry.reserve(config.clusterKey(), w -> new Cluster(config, connector, w, null));
    assertThat(second.jvm().writes().contains(seen)).as("later reads must not show less").isTrue();
    second.cancelReservation();
    registry.sweep();
  }
}
