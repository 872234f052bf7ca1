package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/**
 * GTIDs the primary has not executed *yet* are not lost. A primary acknowledges a commit (and sends it to
 * its replicas) a moment before its own {@code gtid_executed} shows it; a check in that moment must not
 * forget the GTID. Reproduced deterministically on the sandbox, defaults: the connection's watermark gets
 * the primary's *next* GTID (as a token naming it), a read checks it while the primary lacks it, and the
 * primary then executes it (the commit externalised): nothing is forgotten, no WARN, and a replica read
 * still waits for it. The control: a GTID of the primary that never comes (a real loss) is still forgotten
 * after it stayed missing, logged at WARN and counted, and reads return to the replicas.
 */
class InFlightGtidIT {
  private static final String TABLE = "it_inflight_gtid";

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL");
  }

  private static String primaryUuid() throws SQLException {
    try (Connection c = Topology.plain(PRIMARY_PORT)) {
      return Topology.queryString(c, "SELECT @@server_uuid");
    }
  }

  /** The last transaction number of {@code uuid} the primary has executed. */
  private static long lastOf(String uuid) throws SQLException {
    try (Connection c = Topology.plain(PRIMARY_PORT)) {
      GtidSet executed = GtidSet.parse(Topology.queryString(c, "SELECT @@gtid_executed"));
      long last = 0;
      for (long n = 1; executed.contains(GtidSet.parse(uuid + ":" + n)); n++) {
        last = n;
      }
      return last;
    }
  }

  private static int read(Connection c, int id) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*), @@port FROM " + TABLE + " WHERE id = " + id)) {
      rs.next();
      assertThat(rs.getInt(1)).as("rows with id %d seen on port %d", id, rs.getInt(2)).isEqualTo(id == 0 ? 0 : 1);
      return rs.getInt(2);
    }
  }

  private static List<CapturedLog.Entry> forgetWarnings(int mark) {
    return CapturedLog.since(mark).stream()
        .filter(e -> e.level() == Level.WARN && e.text().contains("has not executed")).toList();
  }

  @Test
  void aGtidThePrimaryHasNotExternalisedYetIsNotForgottenARealLossIs() throws Exception {
    String uuid = primaryUuid();
    try (Connection c = Topology.ryow(); Connection writer = Topology.plain(PRIMARY_PORT)) {
      RyowConnection ryow = c.unwrap(RyowConnection.class);
      read(c, 0);
      MetricsSnapshot before = ryow.clusterMetrics();
      int mark = CapturedLog.mark();

      // In flight: the primary's next GTID, named before the primary shows it.
      long next = lastOf(uuid) + 1;
      ryow.mergeConsistencyToken(uuid + ":" + next);
      read(c, 0); // checks the watermark while the primary lacks it
      try (Statement s = writer.createStatement()) {
        s.executeUpdate("INSERT INTO " + TABLE + " (id, v) VALUES (1, 1)"); // the commit externalises
      }
      assertThat(lastOf(uuid)).as("the GTID the watermark named is the insert's").isEqualTo(next);
      for (int i = 0; i < 5; i++) {
        read(c, 1); // sees the row: it waits for the GTID, never forgets it
        Thread.sleep(300);
      }
      MetricsSnapshot afterInFlight = ryow.clusterMetrics();
      assertThat(TokenCodec.DEFAULT.read(ryow.consistencyToken()).writes().contains(GtidSet.parse(uuid + ":" + next)))
          .as("the token still names the GTID that was in flight").isTrue();
      assertThat(afterInFlight.lostGtidsForgotten() - before.lostGtidsForgotten()).as("GTIDs forgotten").isZero();
      assertThat(forgetWarnings(mark)).as("'has not executed' warnings").isEmpty();

      // A real loss: a GTID of the primary that never comes.
      long never = lastOf(uuid) + 1_000_000;
      ryow.mergeConsistencyToken(uuid + ":" + never);
      int port = PRIMARY_PORT;
      long deadline = System.nanoTime() + 20_000_000_000L;
      while (!REPLICA_PORTS.contains(port) && System.nanoTime() - deadline < 0) {
        port = read(c, 1);
        Thread.sleep(100);
      }
      MetricsSnapshot afterLoss = ryow.clusterMetrics();
      System.out.printf("IN-FLIGHT GTID: in flight forgotten %d, warnings %d; real loss forgotten %d, warnings %s,"
              + " reads back on port %d%n", afterInFlight.lostGtidsForgotten() - before.lostGtidsForgotten(), 0,
          afterLoss.lostGtidsForgotten() - afterInFlight.lostGtidsForgotten(), forgetWarnings(mark), port);
      assertThat(port).as("reads are back on the replicas after the loss was forgotten").isIn(REPLICA_PORTS);
      assertThat(afterLoss.lostGtidsForgotten() - afterInFlight.lostGtidsForgotten()).as("lost GTIDs forgotten")
          .isEqualTo(1);
      assertThat(forgetWarnings(mark)).as("'has not executed' warnings").hasSize(1)
          .allSatisfy(e -> assertThat(e.text()).contains(":" + never));
      assertThat(TokenCodec.DEFAULT.read(ryow.consistencyToken()).writes().contains(GtidSet.parse(uuid + ":" + never)))
          .as("the token names the lost GTID").isFalse();
    }
  }
}
