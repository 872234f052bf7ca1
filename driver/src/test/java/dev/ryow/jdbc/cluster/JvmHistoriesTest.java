package dev.ryow.jdbc.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.server.ConnectorJ;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** One JVM history per set of servers (by the primary's server_uuid), whatever the URL's text. */
class JvmHistoriesTest {
  private static final String P = "00000000-0000-0000-0000-000000000001";
  private static final String NEW_P = "00000000-0000-0000-0000-000000000002";
  private static final GtidSet EARLIER = GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-3");
  private static final GtidSet WRITE = GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:4-5");

  private static Cluster cluster(String url, JvmHistories histories, GtidSet retired) throws Exception {
    return new Cluster(RyowConfig.from(url, new Properties()), new ConnectorJ(), retired, histories);
  }

  @Test
  void clustersWhoseUrlsDifferButWhosePrimaryIsOneServerShareTheJvmsWritesAndReads() throws Exception {
    JvmHistories histories = new JvmHistories();
    Cluster a = cluster("jdbc:ryow:mysql://p:3306,r1:3307,r2:3308/db", histories, EARLIER);
    Cluster b = cluster("jdbc:ryow:mysql://p:3306,r2:3308,r1:3307/other?ryow.waitTimeout=150", histories, GtidSet.EMPTY);
    a.jvm().primaryIdentified(P);
    b.jvm().primaryIdentified(P);
    a.jvm().wrote(WRITE);
    assertThat(b.jvm().writes().contains(WRITE)).as("a write through one is waited for by the other").isTrue();
    assertThat(b.jvm().writes().contains(EARLIER)).as("what the first held before it joined").isTrue();
    assertThat(b.jvm().reads()).as("what the JVM's reads saw").isSameAs(a.jvm().reads());
    assertThat(histories.size()).isEqualTo(1);
  }

  @Test
  void clustersOfDifferentPrimariesKeepTheirOwn() throws Exception {
    JvmHistories histories = new JvmHistories();
    Cluster a = cluster("jdbc:ryow:mysql://p:3306,r1:3307/db", histories, GtidSet.EMPTY);
    Cluster b = cluster("jdbc:ryow:mysql://q:3306,s1:3307/db", histories, GtidSet.EMPTY);
    a.jvm().primaryIdentified(P);
    b.jvm().primaryIdentified(NEW_P);
    a.jvm().wrote(WRITE);
    assertThat(b.jvm().writes().isEmpty()).isTrue();
  }

  @Test
  void afterAFailoverClustersThatFindTheNewPrimaryFirstJoinTheSameHistory() throws Exception {
    JvmHistories histories = new JvmHistories();
    Cluster a = cluster("jdbc:ryow:mysql://p:3306,r1:3307/db", histories, GtidSet.EMPTY);
    a.jvm().primaryIdentified(P);
    a.jvm().wrote(WRITE);
    a.jvm().primaryIdentified(NEW_P); // a login after the failover, to the new primary
    Cluster later = cluster("jdbc:ryow:mysql://r1:3307,p:3306/db", histories, GtidSet.EMPTY);
    later.jvm().primaryIdentified(NEW_P);
    assertThat(later.jvm().writes().contains(WRITE)).isTrue();
  }

  @Test
  void withoutHistoriesAClusterKeepsItsOwn() throws Exception {
    Cluster a = new Cluster(RyowConfig.from("jdbc:ryow:mysql://p:3306,r1:3307/db", new Properties()), new ConnectorJ());
    a.jvm().primaryIdentified(P);
    a.jvm().wrote(WRITE);
    assertThat(a.jvm().writes().contains(WRITE)).isTrue();
  }
}
