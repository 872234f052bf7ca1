package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.MariaDbTopology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.MariaDbTopology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Writes in two GTID domains through one logical connection, including MariaDB's trap: a commit in another
 * domain that repeats the sequence number of the session's previous GTID is not reported in the OK packet
 * ({@code last_gtid} is marked changed only when the sequence number differs). The driver must still wait
 * for it: each round writes domain 0 at seq n, lets the replicas apply it, blocks both replicas' appliers
 * ({@code FLUSH TABLES WITH READ LOCK} held on each), writes domain 7 at the same seq n and reads that row
 * back through the driver. A capture that trusted the listener alone would wait only for {@code 0-21-n},
 * which the replicas have, and read the row on a replica before it arrived. Defaults only; where the read
 * ran is the server's own {@code @@port}.
 */
class MariaDbMultiDomainIT {
  private static final int ROUNDS = 15;

  @BeforeEach
  void table() throws SQLException {
    MariaDbTopology.start();
    MariaDbTopology.recreateTable("it_mdb_domains", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @Test
  void aWriteRepeatingTheSeqNoInAnotherDomainIsWaitedFor() throws Exception {
    int stale = 0;
    int onPrimary = 0;
    int onReplicas = 0;
    try (Connection ryow = MariaDbTopology.ryow();
        Statement s = ryow.createStatement();
        PreparedStatement read = ryow.prepareStatement("SELECT v, @@port FROM it_mdb_domains WHERE id = ?")) {
      for (int round = 1; round <= ROUNDS; round++) {
        long seq = 1 + Math.max(seqOnPrimary(0), seqOnPrimary(7));
        s.execute("SET SESSION gtid_domain_id = 0");
        s.execute("SET SESSION gtid_seq_no = " + seq);
        s.executeUpdate("INSERT INTO it_mdb_domains VALUES (" + (2 * round) + ", " + round + ")");
        MariaDbTopology.awaitReplicasCaughtUp();
        List<Connection> holds = hold();
        try {
          s.execute("SET SESSION gtid_domain_id = 7");
          s.execute("SET SESSION gtid_seq_no = " + seq);
          s.executeUpdate("INSERT INTO it_mdb_domains VALUES (" + (2 * round + 1) + ", " + round + ")");
          assertThat(gtidBinlogPos()).contains("0-21-" + seq).contains("7-21-" + seq);
          read.setInt(1, 2 * round + 1);
          try (ResultSet rs = read.executeQuery()) {
            if (!rs.next() || rs.getInt(1) != round) {
              stale++;
            } else if (rs.getInt(2) == PRIMARY_PORT) {
              onPrimary++;
            } else if (REPLICA_PORTS.contains(rs.getInt(2))) {
              onReplicas++;
            }
          }
        } finally {
          release(holds);
        }
      }
      s.execute("SET SESSION gtid_domain_id = 0");
    }
    MariaDbTopology.awaitReplicasCaughtUp();
    System.out.printf("MariaDB two domains, repeated seq_no: %d rounds, stale %d, primary %d, replicas %d%n",
        ROUNDS, stale, onPrimary, onReplicas);
    assertThat(stale).isZero();
    assertThat(onPrimary + onReplicas).isEqualTo(ROUNDS);
  }

  /** One session per replica holding the global read lock: its applier runs but cannot commit. */
  private static List<Connection> hold() throws SQLException {
    List<Connection> holds = new ArrayList<>();
    for (int port : REPLICA_PORTS) {
      Connection c = MariaDbTopology.plain(port);
      holds.add(c);
      try (Statement s = c.createStatement()) {
        s.execute("SET SESSION lock_wait_timeout = 5");
        s.execute("FLUSH TABLES WITH READ LOCK");
      }
    }
    return holds;
  }

  private static void release(List<Connection> holds) throws SQLException {
    for (Connection c : holds) {
      try (c; Statement s = c.createStatement()) {
        s.execute("UNLOCK TABLES");
      }
    }
  }

  private static String gtidBinlogPos() throws SQLException {
    try (Connection c = MariaDbTopology.plain(PRIMARY_PORT); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@global.gtid_binlog_pos")) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static long seqOnPrimary(long domain) throws SQLException {
    for (String gtid : gtidBinlogPos().split(",")) {
      String[] parts = gtid.trim().split("-");
      if (parts.length == 3 && Long.parseLong(parts[0]) == domain) {
        return Long.parseLong(parts[2]);
      }
    }
    return 0;
  }
}
