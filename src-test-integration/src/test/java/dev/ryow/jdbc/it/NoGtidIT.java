package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.NoGtidTopology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.NoGtidTopology.REPLICA_PORTS;
import static dev.ryow.jdbc.it.Topology.sleep;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.jdbc.RyowConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The promise on MySQL servers without GTIDs ({@code gtid_mode=OFF}), on the driver's defaults: the driver reads
 * the primary's binary-log position after a write ({@code SHOW BINARY LOG STATUS}, before the next replica read)
 * and waits for it on the replica with {@code SOURCE_POS_WAIT}, pipelined with the read. Connections held by the
 * threads (no pool) and HikariCP's, under stopped ({@link LagPulse}) and blocked ({@link LagBlock}) appliers, a
 * plain replica connection showing that the lag was real; where a read ran is the answer of the server that ran it
 * ({@code @@port}, {@code @@server_id}), and the waits are counted by the replicas ({@code performance_schema}).
 */
class NoGtidIT {
  private static final String TABLE = "it_nogtid";
  private static final int THREADS = 4;

  @BeforeEach
  void table() throws SQLException {
    NoGtidTopology.start();
    NoGtidTopology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL, port INT NOT NULL");
  }

  @AfterEach
  void resume() throws SQLException {
    NoGtidTopology.startAppliers();
  }

  private static long positionWaits() throws SQLException {
    long n = 0;
    for (int port : REPLICA_PORTS) {
      n += NoGtidTopology.statementsLike(port, "SOURCE_POS_WAIT");
    }
    return n;
  }

  private static long readsOnReplicas(ReadBackLoad load) {
    long n = 0;
    for (int port : REPLICA_PORTS) {
      n += load.reads(ReadBackLoad.BEFORE, port);
    }
    return n;
  }

  /** Runs the read-back load on {@code source} until {@code reads} reads are done (at most 60 s). */
  private static ReadBackLoad runUntil(ReadBackLoad.Source source, int reads) throws Exception {
    ReadBackLoad load = new ReadBackLoad(TABLE, source, THREADS, NoGtidTopology.SERVER_IDS);
    try (load) {
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (readsOnReplicas(load) + load.reads(ReadBackLoad.BEFORE, PRIMARY_PORT) + load.stale.get() < reads
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
    }
    return load;
  }

  /** Writes on the primary and reads at once from a replica, plainly, {@code tries} times: how often it missed. */
  private static int plainStaleReads(int tries) throws SQLException {
    int stale = 0;
    try (Connection primary = NoGtidTopology.plain(PRIMARY_PORT);
        Connection replica = NoGtidTopology.plain(REPLICA_PORTS.get(0));
        PreparedStatement write = primary.prepareStatement("INSERT INTO " + TABLE + " VALUES (?, 1, @@port)");
        PreparedStatement read = replica.prepareStatement("SELECT COUNT(*) FROM " + TABLE + " WHERE id = ?")) {
      for (int i = 0; i < tries; i++) {
        int id = -1_000_000 - i - (int) (System.nanoTime() & 0xffff) * 100;
        write.setInt(1, id);
        write.executeUpdate();
        read.setInt(1, id);
        try (ResultSet rs = read.executeQuery()) {
          rs.next();
          stale += rs.getInt(1) == 0 ? 1 : 0;
        }
        sleep(20);
      }
    }
    return stale;
  }

  @Test
  void heldConnectionsReadTheirWritesFromTheReplicasWithPositionWaits() throws Exception {
    long waitsBefore = positionWaits();
    ReadBackLoad load = runUntil(ReadBackLoad.held(THREADS, NoGtidTopology::ryow), 800);
    System.out.printf("no GTIDs, no lag, held connections: %s%n", load);
    assertThat(load.stale.get()).as("stale reads").isZero();
    assertThat(load.wrongServer.get()).as("@@port and @@server_id name one server").isZero();
    assertThat(load.failedWrites.get() + load.failedReads.get()).as("failures " + load.failures).isZero();
    assertThat(readsOnReplicas(load)).as("reads the replicas answered, of " + load.acknowledged.size())
        .isGreaterThanOrEqualTo(load.acknowledged.size() / 2);
    assertThat(positionWaits() - waitsBefore).as("SOURCE_POS_WAIT statements the replicas ran").isPositive();
  }

  @Test
  void stoppedAppliersNeverServeAStaleReadOnHeldConnections() throws Exception {
    ReadBackLoad load;
    int plainStale;
    LagPulse pulse = LagPulse.start(NoGtidTopology.REPLICAS, 300, 500);
    try (pulse) {
      load = runUntil(ReadBackLoad.held(THREADS, NoGtidTopology::ryow), 600);
      plainStale = plainStaleReads(20);
    }
    System.out.printf("no GTIDs, stopped appliers (pulsed), held connections: %s; plain stale %d of 20%n", load,
        plainStale);
    assertThat(load.stale.get()).as("stale reads").isZero();
    assertThat(load.wrongServer.get()).isZero();
    assertThat(load.failedWrites.get() + load.failedReads.get()).as("failures " + load.failures).isZero();
    assertThat(plainStale).as("the lag was real: a plain replica connection missed writes").isPositive();
  }

  @Test
  void blockedAppliersNeverServeAStaleReadThroughHikari() throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(NoGtidTopology.ryowUrl());
    config.setMaximumPoolSize(THREADS);
    ReadBackLoad load;
    int plainStale;
    LagBlock block = LagBlock.start(NoGtidTopology.REPLICAS, 300, 500);
    try (block; HikariDataSource pool = new HikariDataSource(config)) {
      load = runUntil(ReadBackLoad.pooled(pool), 600);
      plainStale = plainStaleReads(20);
    }
    System.out.printf("no GTIDs, blocked appliers, HikariCP: %s; plain stale %d of 20%n", load, plainStale);
    assertThat(load.stale.get()).as("stale reads").isZero();
    assertThat(load.wrongServer.get()).isZero();
    assertThat(load.failedWrites.get() + load.failedReads.get()).as("failures " + load.failures).isZero();
    assertThat(plainStale).as("the lag was real: a plain replica connection missed writes").isPositive();
  }

  @Test
  void readsAreMonotonicWhileOneReplicaLags() throws Exception {
    NoGtidTopology.exec(PRIMARY_PORT, "INSERT INTO " + TABLE + " VALUES (1, 0, @@port)");
    NoGtidTopology.awaitReplicasCaughtUp();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong written = new AtomicLong();
    Thread writer = new Thread(() -> {
      try (Connection c = NoGtidTopology.plain(PRIMARY_PORT);
          PreparedStatement s = c.prepareStatement("UPDATE " + TABLE + " SET v = ? WHERE id = 1")) {
        for (int v = 1; !stop.get(); v++) {
          s.setInt(1, v);
          s.executeUpdate();
          written.set(v);
          Thread.sleep(3);
        }
      } catch (SQLException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    writer.start();
    int backwards = 0;
    int onReplicas = 0;
    int reads = 0;
    Replicas replica1Only = new Replicas(REPLICA_PORTS.subList(0, 1), NoGtidTopology::plain, "STOP REPLICA SQL_THREAD",
        "START REPLICA SQL_THREAD", NoGtidTopology::resumeAppliers, NoGtidTopology::awaitReplicasCaughtUp);
    LagPulse pulse = LagPulse.start(replica1Only, 200, 400);
    try (pulse; Connection c = NoGtidTopology.ryow();
        Statement s = c.createStatement()) {
      Topology.awaitInRotation(c, REPLICA_PORTS.size());
      int last = -1;
      for (; reads < 600; reads++) {
        try (ResultSet rs = s.executeQuery("SELECT v, @@port FROM " + TABLE + " WHERE id = 1")) {
          rs.next();
          int v = rs.getInt(1);
          backwards += v < last ? 1 : 0;
          last = Math.max(last, v);
          onReplicas += REPLICA_PORTS.contains(rs.getInt(2)) ? 1 : 0;
        }
        sleep(2);
      }
      assertThat(c.unwrap(RyowConnection.class).consistencyToken()).as("the token").isNotEmpty();
    } finally {
      stop.set(true);
      writer.join(10_000);
    }
    System.out.printf("no GTIDs, monotonic reads with replica1's applier pulsed: %d reads, %d on replicas, %d backwards,"
        + " %d updates%n", reads, onReplicas, backwards, written.get());
    assertThat(backwards).as("reads that showed an older value than an earlier read").isZero();
    assertThat(onReplicas).as("reads the replicas answered").isPositive();
  }

  @Test
  void aMultithreadedApplierWithMySqlsDefaultCheckpointIsNeverWaitedOn() throws Exception {
    int slow = REPLICA_PORTS.get(1);
    // MySQL's default (300 ms) for replica_checkpoint_period; the sandbox runs 10 ms so that waits succeed.
    NoGtidTopology.exec(slow, "SET GLOBAL replica_checkpoint_period = 300");
    try {
      ReadBackLoad load;
      long waitsBefore;
      try (Connection c = NoGtidTopology.ryow()) {
        RyowConnection r = c.unwrap(RyowConnection.class);
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!r.clusterMetrics().replicaStates().contains(":" + slow + "=CHECKPOINTED")) {
          assertThat(System.nanoTime()).as("the poller saw the checkpoint period: " + r.clusterMetrics().replicaStates())
              .isLessThan(deadline);
          sleep(50);
        }
        waitsBefore = NoGtidTopology.statementsLike(slow, "SOURCE_POS_WAIT");
        load = runUntil(ReadBackLoad.held(THREADS, NoGtidTopology::ryow), 400);
      }
      System.out.printf("no GTIDs, replica2 with a 300 ms checkpoint: %s%n", load);
      assertThat(load.stale.get()).as("stale reads").isZero();
      assertThat(load.failedWrites.get() + load.failedReads.get()).as("failures " + load.failures).isZero();
      assertThat(NoGtidTopology.statementsLike(slow, "SOURCE_POS_WAIT") - waitsBefore)
          .as("position waits sent to the replica with the 300 ms checkpoint").isZero();
      assertThat(load.reads(ReadBackLoad.BEFORE, REPLICA_PORTS.get(0))).as("reads on the other replica").isPositive();
    } finally {
      NoGtidTopology.exec(slow, "SET GLOBAL replica_checkpoint_period = 10");
    }
  }

  @Test
  void aTokenFromAWriterInAnotherJvmIsWaitedFor() throws Exception {
    NoGtidTopology.recreateTable("it_scope", "id INT PRIMARY KEY, v INT NOT NULL");
    String primaryUuid = NoGtidTopology.queryString(PRIMARY_PORT, "SELECT @@server_uuid");
    int rounds = 4;
    int stale = 0;
    int plainStale = 0;
    LagBlock block = LagBlock.holdAll(NoGtidTopology.REPLICAS, REPLICA_PORTS);
    try (block) {
      for (int round = 1; round <= rounds; round++) {
        String token = TokenWriterMain.run(NoGtidTopology.ryowUrl(), round, 10 * round);
        assertThat(token).as("a position token names its kind and the primary").startsWith("b1:" + primaryUuid + ":");
        try (Connection plain = NoGtidTopology.plain(REPLICA_PORTS.get(round % 2));
            Statement s = plain.createStatement();
            ResultSet rs = s.executeQuery("SELECT v FROM it_scope WHERE id = " + round)) {
          plainStale += rs.next() ? 0 : 1;
        }
        try (Connection c = NoGtidTopology.ryow()) {
          c.unwrap(RyowConnection.class).mergeConsistencyToken(token);
          try (PreparedStatement ps = c.prepareStatement("SELECT v FROM it_scope WHERE id = ?")) {
            ps.setInt(1, round);
            try (ResultSet rs = ps.executeQuery()) {
              stale += rs.next() && rs.getInt(1) == 10 * round ? 0 : 1;
            }
          }
        }
      }
    }
    System.out.printf("no GTIDs, token across JVMs, replicas blocked: %d rounds, stale %d, plain stale %d%n", rounds,
        stale, plainStale);
    assertThat(stale).as("reads after merging the writer's token that missed its row").isZero();
    assertThat(plainStale).as("the blocked replicas lack each row").isEqualTo(rounds);
  }
}
