package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The application user's password is rotated while the application runs. The cluster (and its poller) is
 * shared by every connection to the same servers, whatever their credentials: it must keep polling with
 * credentials that work, and a poll refused for its credentials must not take a replica out of rotation.
 * The poller's sessions are killed on the replicas after the rotation, so that it has to log in again,
 * as after a network blip or a server's {@code wait_timeout}.
 */
class CredentialRotationIT {
  private static final String USER = "it_rotated";
  private static final String OLD = "old-Pass-1";
  private static final String NEW = "new-Pass-2";
  /** A cluster of its own, so that its first connection, and so its poller, uses this user. */
  private static final String CLUSTER = "rotation-" + System.nanoTime();

  @BeforeAll
  static void user() throws SQLException {
    Topology.resumeAppliers();
    Topology.exec(PRIMARY_PORT, "DROP USER IF EXISTS " + USER);
    Topology.exec(PRIMARY_PORT, "CREATE USER " + USER + " IDENTIFIED BY '" + OLD + "'");
    Topology.exec(PRIMARY_PORT, "GRANT SELECT, INSERT, UPDATE, DELETE ON " + Topology.DATABASE + ".* TO " + USER);
    Topology.exec(PRIMARY_PORT, "GRANT SELECT ON performance_schema.* TO " + USER);
    Topology.awaitReplicasCaughtUp();
  }

  @AfterAll
  static void dropUser() throws SQLException {
    Topology.exec(PRIMARY_PORT, "DROP USER IF EXISTS " + USER);
  }

  private static Connection connect(String password) throws SQLException {
    String url = Topology.ryowUrl("ryow.clusterName=" + CLUSTER)
        .replace("user=" + Topology.USER + "&password=" + Topology.PASSWORD, "user=" + USER + "&password=" + password);
    return DriverManager.getConnection(url);
  }

  /** Kills the user's sessions on the replicas: the poller's, and any idle ones of the application. */
  private static int killPollerSessionsOnReplicas() throws SQLException {
    int killed = 0;
    for (int port : REPLICA_PORTS) {
      List<Long> ids = new ArrayList<>();
      try (Connection c = Topology.plain(port);
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = '" + USER + "'")) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
      for (long id : ids) {
        Topology.exec(port, "KILL " + id);
        killed++;
      }
    }
    return killed;
  }

  private static String states(Connection c) throws SQLException {
    return c.unwrap(RyowConnection.class).clusterMetrics().replicaStates();
  }

  @Test
  void afterARotationTheReplicasStayInRotationAndServeReads() throws Exception {
    try (Connection before = connect(OLD)) {
      Topology.awaitInRotation(before);
      Topology.exec(PRIMARY_PORT, "ALTER USER " + USER + " IDENTIFIED BY '" + NEW + "'");
      Topology.awaitReplicasCaughtUp();
      assertThat(killPollerSessionsOnReplicas()).as("the poller had sessions on the replicas").isPositive();
      // Several poll rounds (200 ms) with only the old password known to the cluster: the poll is refused.
      Thread.sleep(1500);
      System.out.printf("after the rotation, before a new login: %s%n", states(before));
      assertThat(states(before)).as("a poll refused for its credentials blames no replica").doesNotContain("UNREACHABLE");
      assertThat(before.unwrap(RyowConnection.class).clusterMetrics().replicasInRotation()).isEqualTo(2);

      try (Connection after = connect(NEW);
          Statement s = after.createStatement()) {
        for (int i = 0; i < 6; i++) {
          try (ResultSet rs = s.executeQuery("SELECT @@port")) {
            rs.next();
            assertThat(rs.getInt(1)).as("read %d with the new password", i).isIn(REPLICA_PORTS);
          }
        }
        // The poller now logs in with the credentials that work: kill its sessions again (and this
        // connection's idle replica sessions, which are not used again), and it polls on.
        long polls = after.unwrap(RyowConnection.class).clusterMetrics().positionPolls();
        killPollerSessionsOnReplicas();
        Thread.sleep(1500);
        long pollsNow = after.unwrap(RyowConnection.class).clusterMetrics().positionPolls();
        System.out.printf("after a login with the new password: %s; %d polls in 1.5 s%n", states(after),
            pollsNow - polls);
        assertThat(pollsNow - polls).as("polls answered after the poller logged in again").isGreaterThanOrEqualTo(4);
        assertThat(states(after)).doesNotContain("UNREACHABLE");
      }
    }
  }
}
