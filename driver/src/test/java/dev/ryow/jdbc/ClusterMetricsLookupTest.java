package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** {@link RyowDriver#clusterMetrics}: a lookup that never connects (a found cluster: the starter's TwoInstancesIT). */
class ClusterMetricsLookupTest {
  @Test
  void noClusterBeforeAConnectionCreatedIt() throws SQLException {
    assertThat(RyowDriver.clusterMetrics("jdbc:ryow:mysql://never-connected:1,never-connected:2/db", new Properties()))
        .isEmpty();
  }

  @Test
  void badInputIsAnErrorThatNamesIt() {
    assertThatThrownBy(() -> RyowDriver.clusterMetrics("jdbc:mysql://h/db", new Properties()))
        .isInstanceOf(SQLException.class).hasMessageContaining("Not a jdbc:ryow: URL");
    Properties bad = new Properties();
    bad.setProperty("ryow.waitTimeout", "0");
    assertThatThrownBy(() -> RyowDriver.clusterMetrics("jdbc:ryow:mysql://h:1,h:2/db", bad))
        .isInstanceOf(SQLException.class).hasMessageContaining("Invalid value for ryow.waitTimeout");
  }
}
