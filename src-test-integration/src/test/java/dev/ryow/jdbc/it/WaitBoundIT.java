package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.cluster.ClusterMBeans;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, "bound the wait by what the primary would cost", on the driver's defaults: once the cluster
 * knows how long a wait on its replicas normally takes and what a read on the primary costs, a read whose
 * replicas are all blocked waits that long at most ({@code cluster.wait.WaitBound}), not {@code ryow.waitTimeout}
 * (100 ms), and the primary serves it current. Asked of the servers: the wait each replica ran carried the
 * bound as its timeout, and the primary ran the read.
 *
 * <p>Teeth: with the wait sent with {@code ryow.waitTimeout} whatever the bound, the timeouts the replicas
 * ran are 0.100 s and the last assertion fails; for a plain {@code Statement}'s read, whose wait is sent on
 * its own, the same.
 */
class WaitBoundIT {
  private static final String TABLE = "it_wait_bound";
  /** Only names the cluster, so that its JMX MBean is this test's (not a setting that changes routing). */
  private static final String CLUSTER = "wait-bound-it";
  private static final BigDecimal DEFAULT_TIMEOUT_SECONDS = new BigDecimal("0.100");
  private static final Pattern WAIT_TIMEOUT = Pattern.compile("WAIT_FOR_EXECUTED_GTID_SET\\('[^']*', *([0-9.]+)\\)");

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void appliers() throws SQLException {
    Topology.resumeAppliers();
  }

  @Test
  void aReadOnBlockedReplicasWaitsTheLearnedBoundThenTheCurrentPrimaryServesIt() throws Exception {
    blockedReadWaitsTheLearnedBound(false);
  }

  /**
   * Issue 41: a read through a plain {@code Statement} waits on its own ({@code SELECT
   * WAIT_FOR_EXECUTED_GTID_SET}, not in the query's packet), and that wait carries the same learned bound.
   * Teeth: with the separate wait given {@code ryow.waitTimeout}, its timeouts are 0.100 s.
   */
  @Test
  void aPlainStatementReadOnBlockedReplicasWaitsTheLearnedBoundToo() throws Exception {
    blockedReadWaitsTheLearnedBound(true);
  }

  @SuppressWarnings("try") // the hold blocks the appliers while the block runs
  private void blockedReadWaitsTheLearnedBound(boolean plain) throws Exception {
    try (Connection c = Topology.ryow("ryow.clusterName=" + CLUSTER);
        PreparedStatement write = c.prepareStatement("INSERT INTO " + TABLE + " (id, v) VALUES (?, ?)");
        PreparedStatement warm = c.prepareStatement("SELECT v, @@port FROM " + TABLE + " /* bound-warm */ WHERE id = ?");
        PreparedStatement read = c.prepareStatement("SELECT v, @@port FROM " + TABLE + " /* bound-blocked */ WHERE id = ?")) {
      Topology.awaitInRotation(c);
      // Writes read back at once: the replicas wait for them, and the cluster learns how long that takes.
      int id = 0;
      long bound = Long.MAX_VALUE;
      List<BigDecimal> timeouts = List.of();
      for (int attempt = 1; timeouts.isEmpty() && attempt <= 10; attempt++) {
        for (int i = 0; i < 2_000 && bound >= 100; i++) {
          id++;
          insert(write, id, id);
          assertThat(valueAndPort(warm, id)[0]).isEqualTo(id);
          bound = longestBoundMillis();
        }
        System.out.printf("wait bound after %d writes read back: %d ms (ryow.waitTimeout 100 ms)%n", id, bound);
        assertThat(bound).as("the longest wait bound the cluster learned").isLessThan(100);
        // A read that finds a replica already predicted stalled skips it without a wait: such a try shows
        // no wait, and the next one starts once the replicas caught up (the block's close waits for it).
        int blockedId = ++id;
        Map<String, BigDecimal> before = waitsOnReplicas(plain);
        int[] got;
        try (LagBlock blocked = LagBlock.holdAll(REPLICA_PORTS)) {
          insert(write, blockedId, -blockedId);
          got = plain ? valueAndPort(c, blockedId) : valueAndPort(read, blockedId);
        }
        assertThat(got[0]).as("the read after the write, replicas blocked").isEqualTo(-blockedId);
        assertThat(got[1]).as("the server that ran it").isEqualTo(PRIMARY_PORT);
        Map<String, BigDecimal> failed = waitsOnReplicas(plain);
        failed.keySet().removeAll(before.keySet());
        timeouts = List.copyOf(failed.values());
        System.out.printf("try %d: bound before %d ms; timeouts of the waits the replicas ran for it (s): %s%n",
            attempt, bound, timeouts);
      }
      assertThat(timeouts).as("waits the replicas ran for a blocked read, in 10 tries").isNotEmpty();
      // The bound moves only with the primary's poll round trips while the replicas are blocked: 1 ms of slack.
      BigDecimal learned = BigDecimal.valueOf(bound + 1, 3);
      assertThat(timeouts).allSatisfy(t -> assertThat(t).isLessThan(DEFAULT_TIMEOUT_SECONDS).isLessThanOrEqualTo(learned));
    }
  }

  /** The longest wait bound of the replicas in rotation, from the cluster's JMX MBean. */
  private static long longestBoundMillis() throws Exception {
    ObjectName name = ClusterMBeans.objectName(CLUSTER);
    TabularData replicas = (TabularData) ManagementFactory.getPlatformMBeanServer().getAttribute(name, "Replicas");
    long longest = 0;
    for (Object row : replicas.values()) {
      longest = Math.max(longest, (Long) ((CompositeData) row).get("WaitBoundMillis"));
    }
    return longest;
  }

  /**
   * The waits the replicas ran, as {@code port/thread/event} mapped to the wait's timeout argument: with
   * {@code plain}, the waits sent on their own ({@code SELECT WAIT_FOR_EXECUTED_GTID_SET}); otherwise those
   * sent in the query's packet that did not reach their set (their packet's query did not run, so it cannot
   * be found by its text).
   */
  private static Map<String, BigDecimal> waitsOnReplicas(boolean plain) throws SQLException {
    Map<String, BigDecimal> waits = new java.util.TreeMap<>();
    for (int port : REPLICA_PORTS) {
      try (Connection c = Topology.plain(port);
          PreparedStatement ps = c.prepareStatement(
              "SELECT THREAD_ID, EVENT_ID, SQL_TEXT FROM performance_schema.events_statements_history"
                  + (plain ? " WHERE SQL_TEXT LIKE 'SELECT WAIT_FOR_EXECUTED_GTID_SET(%'"
                      : " WHERE MYSQL_ERRNO <> 0 AND SQL_TEXT LIKE 'DO CASE WHEN WAIT_FOR_EXECUTED_GTID_SET(%'"));
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Matcher m = WAIT_TIMEOUT.matcher(rs.getString(3));
          if (m.find()) {
            waits.put(port + "/" + rs.getLong(1) + "/" + rs.getLong(2), new BigDecimal(m.group(1)));
          }
        }
      }
    }
    return waits;
  }

  private static int[] valueAndPort(PreparedStatement read, int id) throws SQLException {
    read.setInt(1, id);
    try (ResultSet rs = read.executeQuery()) {
      assertThat(rs.next()).as("row %d (none: a stale read)", id).isTrue();
      return new int[] {rs.getInt(1), rs.getInt(2)};
    }
  }

  /** The read through a plain {@code Statement}: its wait is not sent with the query. */
  private static int[] valueAndPort(Connection c, int id) throws SQLException {
    try (java.sql.Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT v, @@port FROM " + TABLE + " /* bound-plain */ WHERE id = " + id)) {
      assertThat(rs.next()).as("row %d (none: a stale read)", id).isTrue();
      return new int[] {rs.getInt(1), rs.getInt(2)};
    }
  }

  private static void insert(PreparedStatement write, int id, int v) throws SQLException {
    write.setInt(1, id);
    write.setInt(2, v);
    write.executeUpdate();
  }
}
