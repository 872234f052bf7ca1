package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * XA transactions sent as SQL on an autocommit connection: from {@code XA START} to its
 * {@code XA COMMIT}/{@code XA ROLLBACK} every statement runs on the primary, inside the XA
 * transaction, as with plain Connector/J; afterwards reads leave the primary again and see what the
 * XA transaction committed. Each read returns the {@code @@port} of the server that ran it, and the
 * servers' statement digests count where the reads ran.
 */
class XaTransactionIT {
  private static final String TABLE = "it_xa";
  private final List<String> xids = new ArrayList<>();

  @BeforeAll
  static void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v VARCHAR(16)");
  }

  /** A prepared XA transaction left behind by a failed test would hold its locks: roll it back. */
  @AfterEach
  void rollBackLeftovers() throws SQLException {
    try (Connection p = Topology.plain(PRIMARY_PORT);
        Statement s = p.createStatement()) {
      List<String> prepared = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("XA RECOVER")) {
        while (rs.next()) {
          prepared.add(rs.getString("data"));
        }
      }
      for (String xid : xids) {
        if (prepared.contains(xid)) {
          s.execute("XA ROLLBACK '" + xid + "'");
        }
      }
    }
  }

  private String xid(String name) {
    String xid = "ryow-it-" + name + "-" + System.nanoTime();
    xids.add(xid);
    return xid;
  }

  /** {v or null, @@port} of the row with {@code id}, read through {@code c}. */
  private static Object[] read(Connection c, int id) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT (SELECT v FROM it_xa WHERE id = " + id + "), @@port")) {
      rs.next();
      return new Object[] {rs.getString(1), rs.getInt(2)};
    }
  }

  @Test
  void readsBetweenXaStartAndXaCommitRunOnThePrimaryInsideTheTransaction() throws SQLException {
    String xid = xid("commit");
    ServerCounts reads = ServerCounts.of("FROM `it_xa`");
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      assertThat(read(c, 0)[1]).as("before XA START reads go to a replica").isIn(REPLICA_PORTS);
      s.execute("XA START '" + xid + "'");
      s.executeUpdate("INSERT INTO it_xa VALUES (1, 'one')");
      assertThat(read(c, 1))
          .as("a read inside the XA transaction sees its own uncommitted insert, on the primary")
          .containsExactly("one", PRIMARY_PORT);
      s.execute("XA END '" + xid + "'");
      s.execute("XA PREPARE '" + xid + "'");
      assertThat(read(c, 0)[1]).as("after XA PREPARE, until XA COMMIT, still the primary").isEqualTo(PRIMARY_PORT);
      s.execute("XA COMMIT '" + xid + "'");
      Topology.awaitWriteOnReplicas();
      Object[] after = read(c, 1);
      assertThat(after[0]).as("after XA COMMIT the read sees the committed row").isEqualTo("one");
      assertThat(after[1]).as("after XA COMMIT reads go to a replica again").isIn(REPLICA_PORTS);
    }
    ServerCounts ran = reads.delta();
    System.out.printf("XA START..XA COMMIT reads: %s%n", ran);
    assertThat(ran.primary()).as("the two reads between XA START and XA COMMIT").isEqualTo(2);
    assertThat(ran.replicas()).as("one read before, one after").isEqualTo(2);
  }

  @Test
  void xaBeginWithOnePhaseCommitKeepsItsReadsOnThePrimary() throws SQLException {
    String xid = xid("one-phase");
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      s.execute("XA BEGIN '" + xid + "'");
      s.executeUpdate("INSERT INTO it_xa VALUES (2, 'two')");
      assertThat(read(c, 2)).containsExactly("two", PRIMARY_PORT);
      // Between XA END and the commit the server accepts only XA statements (the transaction is IDLE).
      s.execute("xa end '" + xid + "'");
      s.execute("XA COMMIT '" + xid + "' ONE PHASE");
      Topology.awaitWriteOnReplicas();
      Object[] after = read(c, 2);
      assertThat(after[0]).as("read-your-writes after the one-phase commit").isEqualTo("two");
      assertThat(after[1]).isIn(REPLICA_PORTS);
    }
  }

  @Test
  void xaRollbackEndsTheTransactionAndItsRowsAreGone() throws SQLException {
    String xid = xid("rollback");
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      s.execute("/* app */ XA START '" + xid + "'");
      s.executeUpdate("INSERT INTO it_xa VALUES (3, 'three')");
      assertThat(read(c, 3)).containsExactly("three", PRIMARY_PORT);
      s.execute("XA END '" + xid + "'");
      s.execute("XA PREPARE '" + xid + "'");
      s.execute("XA ROLLBACK '" + xid + "'");
      Object[] after = read(c, 3);
      assertThat(after[0]).as("rolled back").isNull();
      assertThat(after[1]).as("after XA ROLLBACK reads go to a replica again").isIn(REPLICA_PORTS);
    }
  }

  @Test
  void xaRecoverRunsOnThePrimary() throws SQLException {
    String xid = xid("recover");
    ServerCounts recovers = ServerCounts.of("XA RECOVER");
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement()) {
      s.execute("XA START '" + xid + "'");
      s.executeUpdate("INSERT INTO it_xa VALUES (4, 'four')");
      s.execute("XA END '" + xid + "'");
      s.execute("XA PREPARE '" + xid + "'");
      List<String> listed = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("XA RECOVER")) {
        while (rs.next()) {
          listed.add(rs.getString("data"));
        }
      }
      assertThat(listed).contains(xid);
      s.execute("XA ROLLBACK '" + xid + "'");
    }
    ServerCounts ran = recovers.delta();
    assertThat(ran.primary()).as("XA RECOVER on the primary").isEqualTo(1);
    assertThat(ran.replicas()).isZero();
  }
}
