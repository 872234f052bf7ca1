package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mysql.cj.jdbc.JdbcConnection;
import dev.ryow.jdbc.RyowConnection;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.Statement;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** What the JDBC face hands out: metadata result sets, calls after a reconnect, a replica that dies mid-result. */
class JdbcFaceIT {

  private static int[] ask(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return new int[] {rs.getInt(1), rs.getInt(2)};
    }
  }

  /** Every DatabaseMetaData method that returns a result set, called with wildcards and defaults. */
  @Test
  void metadataResultSetsNeverLeadBackToAPhysicalConnection() throws Exception {
    try (Connection c = Topology.ryow()) {
      java.sql.DatabaseMetaData md = c.getMetaData();
      assertThat(md.getConnection()).isSameAs(c);
      java.util.List<String> leaking = new java.util.ArrayList<>();
      int checked = 0;
      for (java.lang.reflect.Method m : java.sql.DatabaseMetaData.class.getMethods()) {
        if (m.getReturnType() != ResultSet.class) {
          continue;
        }
        Object[] args = new Object[m.getParameterCount()];
        Class<?>[] types = m.getParameterTypes();
        for (int i = 0; i < args.length; i++) {
          args[i] = types[i] == String.class ? (i == 0 ? null : "%") : types[i] == int.class ? 0
              : types[i] == boolean.class ? Boolean.FALSE : null;
        }
        if (m.getName().equals("getPrimaryKeys") || m.getName().equals("getImportedKeys")
            || m.getName().equals("getExportedKeys") || m.getName().equals("getIndexInfo")
            || m.getName().equals("getBestRowIdentifier") || m.getName().equals("getVersionColumns")) {
          args[2] = "it_face_t"; // these need a table name
        }
        ResultSet rs;
        try {
          rs = (ResultSet) m.invoke(md, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
          continue; // not supported by Connector/J with these arguments
        }
        try (rs) {
          checked++;
          Statement s = rs.getStatement();
          Connection back = s == null ? null : s.getConnection();
          if (back != null && back != c) {
            leaking.add(m.getName() + " -> " + back.getClass().getName());
          }
        }
      }
      System.out.printf("metadata result sets checked: %d; leading to a physical connection: %s%n", checked, leaking);
      assertThat(checked).isGreaterThan(10);
      assertThat(leaking).as("metadata result sets whose getStatement().getConnection() is a physical connection").isEmpty();
    }
  }

  @Test
  void closedWrappersRefuseTheirMethodsAlike() throws SQLException {
    Connection c = Topology.ryow();
    CallableStatement call = c.prepareCall("{call it_face_missing(?)}");
    call.close();
    for (ThrowingCallable m : java.util.List.<ThrowingCallable>of(
        () -> call.setInt(1, 1), call::getConnection, call::getFetchSize, () -> call.unwrap(java.sql.Driver.class))) {
      assertThatThrownBy(m).as("a closed CallableStatement").isInstanceOf(SQLException.class)
          .hasMessage("No operations allowed after statement closed.");
    }
    java.sql.DatabaseMetaData md = c.getMetaData();
    c.close();
    for (ThrowingCallable m : java.util.List.<ThrowingCallable>of(
        md::getURL, md::getConnection, () -> md.getTables(null, null, "%", null))) {
      assertThatThrownBy(m).as("metadata of a closed connection").isInstanceOf(SQLException.class)
          .hasMessage("Connection is closed");
    }
  }

  @Test
  void aCallPreparedBeforeThePrimaryConnectionWasReplacedIsRefusedClearly() throws SQLException {
    Topology.exec(PRIMARY_PORT, "DROP PROCEDURE IF EXISTS it_face_next");
    Topology.exec(PRIMARY_PORT, "CREATE PROCEDURE it_face_next(IN x INT) SELECT x + 1, @@port");
    try (Connection c = Topology.ryow();
        CallableStatement call = c.prepareCall("{call it_face_next(?)}")) {
      call.setInt(1, 1);
      try (ResultSet rs = call.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(2);
        assertThat(rs.getInt(2)).isEqualTo(PRIMARY_PORT);
        assertThat(rs.getStatement()).isSameAs(call);
      }
      long session = c.unwrap(JdbcConnection.class).getId();
      Topology.exec(PRIMARY_PORT, "KILL " + session);
      int[] read = ask(c, "SELECT /* ryow:primary */ @@port, CONNECTION_ID()");
      assertThat((long) read[1]).as("the logical connection replaced its primary connection").isNotEqualTo(session);
      assertThatThrownBy(() -> {
        call.setInt(1, 5);
        call.executeQuery();
      }).as("a call of the old primary connection").isInstanceOf(SQLRecoverableException.class)
          .hasMessageContaining("prepare the call again");
      try (CallableStatement again = c.prepareCall("{call it_face_next(?)}")) {
        again.setInt(1, 5);
        try (ResultSet rs = again.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(6);
        }
      }
    }
  }

  /**
   * A replica killed while a streaming result set of it is open: the read fails (its rows are gone), and
   * the failure takes the replica out of rotation at once (the poller is set to 10 minutes, so it cannot
   * be what noticed); the next reads go to the other replica.
   */
  @Test
  void aReplicaThatDiesMidResultSetLeavesRotationAtOnce() throws Exception {
    try (Connection c = Topology.ryowPolledOnce("ryow.pollInterval=600000")) {
      RyowConnection r = c.unwrap(RyowConnection.class);
      long failuresBefore = r.clusterMetrics().replicaFailures();
      String digits = "(SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4"
          + " UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)";
      Statement s = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
      s.setFetchSize(Integer.MIN_VALUE); // streaming: rows arrive while the application reads them
      ResultSet rs = s.executeQuery("SELECT @@port, a.n FROM " + digits + " a, " + digits + " b, " + digits + " c, "
          + digits + " d, " + digits + " e, " + digits + " f, " + digits + " g");
      assertThat(rs.next()).isTrue();
      int killedPort = rs.getInt(1);
      assertThat(killedPort).as("the streaming read runs on a replica").isIn(REPLICA_PORTS);
      String node = killedPort == REPLICA_PORTS.get(0) ? "replica1" : "replica2";
      Sandbox.run("kill", node);
      try {
        SQLException lost = null;
        try {
          while (rs.next()) {
            // drain until the dead server's rows run out
          }
        } catch (SQLException e) {
          lost = e;
        }
        assertThat((Object) lost).as("rows from a killed replica").isNotNull();
        System.out.printf("the result set failed with %s (SQLState %s): %s%n", lost.getClass().getName(),
            lost.getSQLState(), lost.getMessage());
        long failures = r.clusterMetrics().replicaFailures() - failuresBefore;
        System.out.printf("replica %s killed mid-ResultSet: replica failures noted at once %d, states %s%n",
            node, failures, r.clusterMetrics().replicaStates());
        assertThat(failures).as("the replica left rotation when its result set failed, before any poll").isEqualTo(1);
        s.close();
        for (int i = 0; i < 10; i++) {
          assertThat(ask(c, "SELECT @@port, 0")[0]).as("read %d after the failure", i).isNotEqualTo(killedPort);
        }
        try (Connection other = Topology.ryow("ryow.pollInterval=600000")) {
          assertThat(ask(other, "SELECT @@port, 0")[0]).as("a new connection's read").isNotEqualTo(killedPort);
        }
        assertThat(r.clusterMetrics().replicaFailures() - failuresBefore).as("no read had to find out again").isEqualTo(1);
      } finally {
        Sandbox.run("restart", node);
      }
    }
  }
}
