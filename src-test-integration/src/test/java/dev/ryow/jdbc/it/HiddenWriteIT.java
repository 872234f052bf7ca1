package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/**
 * A {@code SELECT} that calls a stored function which inserts looks like a read to any classifier; a
 * replica refuses it (super_read_only, error 1290) before it changes anything. The driver runs it on the
 * primary instead, remembers its shape so that the next ones go there at once, counts and logs it once.
 * Where each call ran is read from the servers: the {@code @@port} it returned, the rows the function
 * inserted (on the primary) and the statements each server executed (performance_schema digests).
 */
class HiddenWriteIT {

  @BeforeAll
  static void functionsThatWrite() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_hidden_log", "id INT AUTO_INCREMENT PRIMARY KEY, fn VARCHAR(16), v INT");
    for (String fn : new String[] {"it_hidden_plain", "it_hidden_prep", "it_hidden_ro"}) {
      Topology.exec(PRIMARY_PORT, "DROP FUNCTION IF EXISTS " + fn);
      Topology.exec(PRIMARY_PORT, "CREATE FUNCTION " + fn + "(x INT) RETURNS INT DETERMINISTIC MODIFIES SQL DATA"
          + " BEGIN INSERT INTO it_hidden_log (fn, v) VALUES ('" + fn + "', x); RETURN x; END");
    }
    Topology.awaitReplicasCaughtUp();
  }

  /** Rows the function {@code fn} inserted with value {@code v}, counted on the primary. */
  private static long inserted(String fn, int v) throws SQLException {
    return Topology.queryLong(PRIMARY_PORT, "SELECT COUNT(*) FROM it_hidden_log WHERE fn = '" + fn + "' AND v = " + v);
  }

  /** HiddenWrites summed over every cluster MBean of this JVM. */
  private static long jmxHiddenWrites() throws SQLException {
    try {
      javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
      long sum = 0;
      for (javax.management.ObjectName name
          : server.queryNames(new javax.management.ObjectName("dev.ryow.jdbc:type=Cluster,*"), null)) {
        sum += ((Number) server.getAttribute(name, "HiddenWrites")).longValue();
      }
      return sum;
    } catch (javax.management.JMException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aSelectOfAFunctionThatInsertsRunsOnThePrimaryOnceRefusedAndAtOnceAfterwards() throws SQLException {
    ServerCounts calls = ServerCounts.of("`it_hidden_plain`");
    int mark = CapturedLog.mark();
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      long before = ryow.clusterMetrics().hiddenWrites();
      long jmxBefore = jmxHiddenWrites();
      io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
          new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
      dev.ryow.jdbc.micrometer.RyowMeterBinder.of(c).bindTo(registry);
      double meterBefore = registry.get("ryow.hidden.writes").functionCounter().count();
      assertThat(Topology.queryString(c, "SELECT @@port")).as("plain reads go to a replica")
          .isIn(REPLICA_PORTS.stream().map(String::valueOf).toList());
      for (int v = 1; v <= 3; v++) {
        try (ResultSet rs = s.executeQuery("SELECT it_hidden_plain(" + v + "), @@port")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(v);
          assertThat(rs.getInt(2)).as("call %d ran on the primary", v).isEqualTo(PRIMARY_PORT);
        }
        assertThat(inserted("it_hidden_plain", v)).as("call %d inserted exactly once", v).isEqualTo(1);
        // Read-your-writes covers the hidden write: the next read (on a replica, after waiting) sees it.
        try (ResultSet rs = s.executeQuery(
            "SELECT COUNT(*), @@port FROM it_hidden_log WHERE fn = 'it_hidden_plain' AND v = " + v)) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).as("the read after call %d sees its row", v).isEqualTo(1);
        }
      }
      assertThat(ryow.clusterMetrics().hiddenWrites() - before).as("counted once: the first call").isEqualTo(1);
      assertThat(jmxHiddenWrites() - jmxBefore).as("JMX HiddenWrites").isEqualTo(1);
      assertThat(registry.get("ryow.hidden.writes").functionCounter().count() - meterBefore).as("Micrometer")
          .isEqualTo(1.0);
    }
    ServerCounts ran = calls.delta();
    System.out.printf("hidden write calls: %s%n", ran);
    assertThat(ran.replicas()).as("only the first call was tried (and refused) on a replica").isEqualTo(1);
    assertThat(Topology.settled(() -> calls.delta().primary(), 3)).as("every call ran on the primary").isEqualTo(3);
    List<CapturedLog.Entry> logged = CapturedLog.since(mark).stream()
        .filter(e -> e.text().contains("classified as a read writes"))
        .toList();
    assertThat(logged).as("logged once, at WARN, literals masked").hasSize(1);
    assertThat(logged.get(0).level()).isEqualTo(Level.WARN);
    assertThat(logged.get(0).text()).contains("SELECT it_hidden_plain ( ? ) , @@port").doesNotContain("(1)");
  }

  @Test
  void aPreparedCallIsRoutedLikewiseAndKeepsItsParameters() throws SQLException {
    ServerCounts calls = ServerCounts.of("`it_hidden_prep`");
    try (Connection c = Topology.ryow();
        PreparedStatement ps = c.prepareStatement("SELECT it_hidden_prep(?), @@port")) {
      for (int v = 10; v < 13; v++) {
        ps.setInt(1, v);
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(v);
          assertThat(rs.getInt(2)).isEqualTo(PRIMARY_PORT);
        }
        assertThat(inserted("it_hidden_prep", v)).isEqualTo(1);
      }
      // A new statement of the same text is classified as a write at once.
      try (PreparedStatement again = c.prepareStatement("SELECT it_hidden_prep(?), @@port")) {
        again.setInt(1, 20);
        try (ResultSet rs = again.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(2)).isEqualTo(PRIMARY_PORT);
        }
      }
    }
    ServerCounts ran = calls.delta();
    System.out.printf("hidden write prepared calls: %s%n", ran);
    assertThat(ran.replicas()).as("only the first execution was tried on a replica").isEqualTo(1);
  }

  @Test
  void insideAReadOnlyTransactionOnAReplicaTheRefusalReachesTheApplication() throws SQLException {
    // The transaction has started on the replica: running the statement on the primary would split it.
    // As with Connector/J on a read-only transaction, the write fails; nothing is inserted anywhere.
    try (Connection c = Topology.ryow()) {
      c.setReadOnly(true);
      c.setAutoCommit(false);
      assertThat(Integer.parseInt(Topology.queryString(c, "SELECT @@port"))).isIn(REPLICA_PORTS);
      try (Statement s = c.createStatement()) {
        assertThatThrownBy(() -> s.executeQuery("SELECT it_hidden_ro(7), @@port"))
            .isInstanceOf(SQLException.class)
            .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isIn(1290, 1792, 1836));
      }
      c.rollback();
    }
    assertThat(inserted("it_hidden_ro", 7)).isZero();
  }
}
