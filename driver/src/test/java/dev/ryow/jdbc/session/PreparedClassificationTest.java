package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.proxy.LogicalConnection;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.sql.StatementKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * {@code prepareStatement} classifies through the cluster's classification cache: ORMs prepare the
 * same SQL text for every execution, so only the first prepare of a text scans it.
 */
class PreparedClassificationTest {
  private static final String P = "stub-p:3306";
  private static final String R1 = "stub-r1:3307";

  @Test
  void prepareStatementFillsAndUsesTheClusterClassificationCache() throws SQLException {
    StubServers servers = new StubServers(P, R1);
    RyowConfig config = RyowConfig.from(
        "jdbc:ryow:mysql://" + P + "," + R1 + "/app?ryow.gtidCapture=query&ryow.pollInterval=600000", new Properties());
    ConnectorJ connector = new ConnectorJ(servers);
    Cluster cluster = new Cluster(config, connector);
    String sql = "select u1_0.id,u1_0.name from users u1_0 where u1_0.id=?";
    assertThat(cluster.classifications().cached(sql)).as("not classified yet").isNull();
    try (Connection c = LogicalConnection.open(cluster, config, connector)) {
      try (PreparedStatement ps = c.prepareStatement(new String(sql.toCharArray()))) {
        assertThat(portThatRan(ps)).as("the read ran on the replica").isEqualTo(3307);
      }
      assertThat(cluster.classifications().cached(sql)).as("the prepare's classification, cached").isEqualTo(StatementKind.READ);
      // A hidden write remembered for this shape clears the cache: the next prepare classifies again,
      // through the cache, and finds the remembered write.
      cluster.classifications().rememberWrite(sql);
      assertThat(cluster.classifications().cached(sql)).isNull();
      try (PreparedStatement ps = c.prepareStatement(new String(sql.toCharArray()))) {
        assertThat(portThatRan(ps)).as("the remembered write ran on the primary").isEqualTo(3306);
      }
      assertThat(cluster.classifications().cached(sql)).as("cached again, as the remembered write")
          .isEqualTo(StatementKind.WRITE);
    }
  }

  /** Runs the query; the stub answers it with the port of the server that ran it. */
  private static int portThatRan(PreparedStatement ps) throws SQLException {
    ps.setInt(1, 1);
    try (ResultSet rs = ps.executeQuery()) {
      assertThat(rs.next()).isTrue();
      return rs.getInt(1);
    }
  }
}
