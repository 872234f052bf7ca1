package dev.ryow.jdbc.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.jdbc.ReadReport;
import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.config.RyowProperties;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The driver against a real single-primary Group Replication group ({@code sandbox/ryow-sandbox --group}):
 * the URL names member1..member3 with default settings. Where each statement ran is asked of the
 * server ({@code @@port}); acknowledged writes are looked up on the primary afterwards. Each test
 * leaves the group with member1..member3 ONLINE (whichever is primary).
 */
class GroupReplicationIT {
  private static final long READ_PAUSE_MILLIS = 50;
  private static final String HOST = "127.0.0.1";
  private static final int PORT_BASE =
      Integer.parseInt(System.getenv().getOrDefault("RYOW_SANDBOX_PORT_BASE", "23306"));
  /** member1..member4: SQL ports base+10..base+13 (see sandbox/README.md, group mode). */
  private static final List<Integer> MEMBER_PORTS =
      List.of(PORT_BASE + 10, PORT_BASE + 11, PORT_BASE + 12, PORT_BASE + 13);
  private static final String URL = "jdbc:ryow:mysql://" + HOST + ":" + MEMBER_PORTS.get(0) + "," + HOST + ":"
      + MEMBER_PORTS.get(1) + "," + HOST + ":" + MEMBER_PORTS.get(2) + "/ryow?user=ryow&password=ryow";
  private static final int THREADS = 8;
  private static final int POOL = 4;

  @BeforeEach
  void group() throws SQLException {
    group("start");
    // member4 is not in the URL; only the test about members outside the URL starts it.
    group("stop", "member4");
    try (Connection c = plain(primaryPort()); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS it_group");
      s.execute("CREATE TABLE it_group (id INT PRIMARY KEY, v INT NOT NULL, port INT NOT NULL)");
    }
  }

  @AfterEach
  void restore() {
    group("start");
  }

  @Test
  void writesRunOnThePrimaryAndReadsOnBothOnlineSecondaries() throws Exception {
    int primary = primaryPort();
    Set<Integer> secondaries = new HashSet<>(MEMBER_PORTS.subList(0, 3));
    secondaries.remove(primary);
    Map<Integer, Integer> readsByPort = new HashMap<>();
    List<String> primaryReadsNotFallbacks = new ArrayList<>();
    int fallbacks = 0;
    // Several connections, reads paced over several poll rounds (see readPorts).
    for (int conn = 0; conn < 6; conn++) {
      try (Connection c = DriverManager.getConnection(URL);
          PreparedStatement w = c.prepareStatement("INSERT INTO it_group (id, v, port) VALUES (?, ?, @@port)");
          PreparedStatement r = c.prepareStatement("SELECT v, @@port FROM it_group WHERE id = ?")) {
        awaitInRotation(c, 2);
        for (int i = 1; i <= 10; i++) {
          int id = conn * 10 + i;
          w.setInt(1, id);
          w.setInt(2, id * 7);
          w.executeUpdate();
          r.setInt(1, id);
          try (ResultSet rs = r.executeQuery()) {
            assertThat(rs.next()).as("row %d read back", id).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(id * 7);
            int port = rs.getInt(2);
            ReadReport report = c.unwrap(RyowConnection.class).lastRead();
            if (port == primary) {
              // A read right after its write goes to the primary when no secondary applied the write within
              // ryow.waitTimeout, as the driver documents: on a loaded machine a secondary may apply later.
              if (report != null && report.fellBack()) {
                fallbacks++;
              } else {
                primaryReadsNotFallbacks.add("row " + id + ": " + report);
              }
            } else {
              readsByPort.merge(port, 1, Integer::sum);
            }
          }
          Thread.sleep(READ_PAUSE_MILLIS); // reads spread from one poll round to the next (see readPorts)
        }
      }
    }
    assertThat(primaryReadsNotFallbacks).as("reads the primary ran other than fallbacks (of %d fallbacks)", fallbacks)
        .isEmpty();
    assertThat(readsByPort.keySet()).as("secondaries that answered the reads (%d reads fell back to the primary)",
        fallbacks).isEqualTo(secondaries);
    try (Connection p = plain(primary); Statement s = p.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*), MIN(port), MAX(port) FROM it_group")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(60);
      assertThat(rs.getInt(2)).as("port that ran every write").isEqualTo(primary);
      assertThat(rs.getInt(3)).isEqualTo(primary);
    }
  }

  @Test
  void aMemberThatLeavesIsTakenOutOfRotationAndComesBackWhenItRejoins() throws Exception {
    int primary = primaryPort();
    int leaving = MEMBER_PORTS.subList(0, 3).stream().filter(p -> p != primary).findFirst().orElseThrow();
    String member = "member" + (MEMBER_PORTS.indexOf(leaving) + 1);
    try (Connection c = DriverManager.getConnection(URL)) {
      awaitInRotation(c, 2);
      group("leave", member);
      awaitInRotation(c, 1);
      assertThat(c.unwrap(RyowConnection.class).clusterMetrics().replicaStates())
          .contains("group member state OFFLINE");
      assertThat(readPorts(c, 40)).as("ports that answered reads while %s was OFFLINE", member)
          .doesNotContain(leaving).doesNotContain(primary).hasSize(1);
      group("join", member);
      awaitInRotation(c, 2);
      assertThat(readPorts(c, 60)).as("ports that answered reads after %s rejoined", member).contains(leaving);
    }
  }

  @Test
  void aMemberTheUrlDoesNotNameIsFoundByThePollerAndServesReads() throws Exception {
    int member4 = MEMBER_PORTS.get(3);
    try (Connection c = DriverManager.getConnection(URL)) {
      awaitInRotation(c, 2);
      group("join", "member4");
      awaitInRotation(c, 3);
      assertThat(c.unwrap(RyowConnection.class).clusterMetrics().replicaStates()).contains(HOST + ":" + member4 + "=UP");
      Set<Integer> ports = new HashSet<>();
      // Reads paced over several poll rounds (see readPorts), on new connections.
      for (int i = 0; i < 9 && !ports.contains(member4); i++) {
        try (Connection next = DriverManager.getConnection(URL)) {
          ports.addAll(readPorts(next, 5));
        }
      }
      assertThat(ports).as("ports that answered reads once member4 (not in the URL) joined").contains(member4)
          .doesNotContain(primaryPort());
    } finally {
      group("stop", "member4");
    }
  }

  @Test
  void plannedSwitchWritesMoveToTheNewPrimaryWithNoStaleReadAndNoLostWrite() throws Exception {
    int old = primaryPort();
    int target = MEMBER_PORTS.subList(0, 3).stream().filter(p -> p != old).findFirst().orElseThrow();
    Workload w = runThrough(() -> group("switchover", "member" + (MEMBER_PORTS.indexOf(target) + 1)));
    w.report("planned switch " + old + " -> " + target);
    assertThat(primaryPort()).isEqualTo(target);
    w.assertSafe(target);
    assertThat(w.writesAfterEventOn.keySet()).as("ports of writes acknowledged after the switch").containsOnly(target);
  }

  @Test
  void primaryKilledWritesResumeOnTheElectedPrimaryWithNoStaleReadAndNoLostWrite() throws Exception {
    // As users list a group: the primary first in the URL.
    if (primaryPort() != MEMBER_PORTS.get(0)) {
      group("switchover", "member1");
    }
    int old = primaryPort();
    String[] killed = new String[1];
    Workload w;
    int elected;
    // A connection outside the pool, idle through the kill: its next statements run on the elected primary.
    try (Connection held = DriverManager.getConnection(URL); Statement s = held.createStatement()) {
      s.executeUpdate("INSERT INTO it_group (id, v, port) VALUES (-1, 1, @@port)");
      w = runThrough(() -> killed[0] = group("kill-primary").strip().lines().reduce((a, b) -> b).orElseThrow());
      elected = primaryPort();
      s.executeUpdate("INSERT INTO it_group (id, v, port) VALUES (-2, 2, @@port)");
      try (ResultSet rs = s.executeQuery("SELECT v FROM it_group WHERE id = -2")) {
        assertThat(rs.next()).as("the held connection reads its own write after the kill").isTrue();
      }
    }
    try (Connection p = plain(elected); Statement s = p.createStatement();
        ResultSet rs = s.executeQuery("SELECT port FROM it_group WHERE id = -2")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).as("port that ran the held connection's write after the kill").isEqualTo(elected);
    }
    w.report("kill -9 of the primary " + old + " (" + killed[0] + "), elected " + elected);
    assertThat(elected).isNotEqualTo(old);
    w.assertSafe(elected);
    assertThat(w.writesAfterEventOn.keySet()).as("ports of writes acknowledged after the kill").containsOnly(elected);
  }

  /**
   * The primary killed under a pooled half-read, half-write load on defaults (HikariCP pool 4, 6 readers and 6
   * writers, {@link OutageWorkload}): the election is measured from the kill until a member reports an ONLINE
   * primary other than the killed one. Reads go on on the secondaries during the election at no less than
   * 80 % of the rate before the kill (both rates over windows this test measures); each write that begins
   * during the election ends within 3 s, acknowledged or failed with the retryable HYT01 (the write running
   * on the primary at the kill may fail with 08S01); no read is stale, no acknowledged write is lost, and
   * afterwards every pooled connection writes on the elected primary.
   */
  @Test
  void aPoolReadsThroughAnElectionAndItsWritesFailFastOrRunOnTheElectedPrimary() throws Exception {
    if (primaryPort() != MEMBER_PORTS.get(0)) {
      group("switchover", "member1");
    }
    int old = primaryPort();
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(URL);
    config.setMaximumPoolSize(POOL);
    config.setPoolName("group-election");
    try (HikariDataSource pool = new HikariDataSource(config)) {
      try (Connection c = pool.getConnection()) {
        awaitInRotation(c, 2);
      }
      OutageWorkload.Source source = OutageWorkload.Source.pooled(pool);
      OutageWorkload load = new OutageWorkload("it_group", source, 6, 6);
      long beforeNanos;
      long electionNanos;
      int elected;
      try (load) {
        long started = System.nanoTime();
        Thread.sleep(5_000);
        beforeNanos = System.nanoTime() - started;
        group("kill-primary");
        // The election is measured from the moment the primary is dead (the sandbox's kill returned).
        load.phase.set(OutageWorkload.DURING);
        long killedAt = System.nanoTime();
        long deadline = killedAt + TimeUnit.SECONDS.toNanos(60);
        int seen = primaryPortOrZero();
        while (seen == 0 || seen == old) {
          assertThat(System.nanoTime()).as("a new primary elected within 60 s of the kill").isLessThan(deadline);
          Thread.sleep(50);
          seen = primaryPortOrZero();
        }
        elected = seen;
        electionNanos = System.nanoTime() - killedAt;
        load.phase.set(OutageWorkload.AFTER);
        long afterDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (load.writes.get(OutageWorkload.AFTER) < 50) {
          assertThat(System.nanoTime()).as("writes after the election: %s", load.failures).isLessThan(afterDeadline);
          Thread.sleep(50);
        }
      }
      double before = load.reads.get(OutageWorkload.BEFORE) * 1e9 / beforeNanos;
      double during = load.reads.get(OutageWorkload.DURING) * 1e9 / electionNanos;
      long slowest = 0;
      long slowestFailed = 0;
      Map<String, Integer> outcomes = new java.util.TreeMap<>();
      for (OutageWorkload.WriteAttempt a : load.downWrites) {
        slowest = Math.max(slowest, a.millis());
        slowestFailed = "ok".equals(a.outcome()) ? slowestFailed : Math.max(slowestFailed, a.millis());
        outcomes.merge(a.outcome(), 1, Integer::sum);
      }
      System.out.printf("GROUP pooled election (HikariCP pool 4, 6 readers + 6 writers, kill -9 of the primary %d,"
              + " elected %d after %d ms): reads/s before %.1f, during the election %.1f (%.0f %%), by port %s;"
              + " writes begun during the election %d %s, slowest %d ms, slowest failed %d ms; writes ok"
              + " before/during/after %d/%d/%d, failed %d/%d/%d; failed reads %d/%d/%d; stale %d%n",
          old, elected, electionNanos / 1_000_000, before, during, 100 * during / before, load.downReadsByPort,
          load.downWrites.size(), outcomes, slowest, slowestFailed, load.writes.get(0), load.writes.get(1), load.writes.get(3),
          load.failedWrites.get(0), load.failedWrites.get(1), load.failedWrites.get(3), load.failedReads.get(0),
          load.failedReads.get(1), load.failedReads.get(3), load.stale.get());
      assertThat(elected).isNotEqualTo(old);
      assertThat(load.stale.get()).as("stale reads: %s", load.failures).isZero();
      assertThat(load.failedReads.get(OutageWorkload.DURING)).as("failed reads during the election: %s",
          load.failures).isZero();
      assertThat(during).as("reads/s during the election against %.1f before", before)
          .isGreaterThanOrEqualTo(0.8 * before);
      assertThat(load.downReadsByPort.keySet()).as("servers that ran reads during the election")
          .doesNotContain(old);
      long inFlightAtTheKill = 0;
      for (OutageWorkload.WriteAttempt a : load.downWrites) {
        if (!"ok".equals(a.outcome())) {
          String state = a.outcome().substring(0, 5);
          assertThat(state).as("SQLState of a write that failed during the election: %s", a).isIn("HYT01", "08S01");
          inFlightAtTheKill += "08S01".equals(state) ? 1 : 0;
          // Failed fast: the death bound (PrimaryWaitRule.DEATH_BOUND_MILLIS) plus a pool checkout and a discovery
          // round, however busy the machine; never the ryow.failoverTimeout a switchover may wait.
          assertThat(a.millis()).as("time to the failure of a write begun during the election: %s", a)
              .isLessThan(RyowProperties.FAILOVER_TIMEOUT_MILLIS.defaultValue() / 2);
        }
      }
      assertThat(inFlightAtTheKill).as("writes lost under the kill (08S01): one running per writer at most")
          .isLessThanOrEqualTo(6);
      Set<Integer> found = new HashSet<>();
      try (Connection c = plain(elected); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT id, port FROM it_group")) {
        while (rs.next()) {
          found.add(rs.getInt(1));
        }
      }
      Set<Integer> lost = new HashSet<>(load.acknowledged);
      lost.removeAll(found);
      assertThat(lost).as("acknowledged writes missing on the elected primary").isEmpty();
      // Afterwards every pooled connection writes: all four held at once, one write on each.
      List<Connection> all = new ArrayList<>();
      try {
        for (int i = 0; i < POOL; i++) {
          all.add(pool.getConnection());
        }
        for (int i = 0; i < all.size(); i++) {
          try (Statement s = all.get(i).createStatement()) {
            s.executeUpdate("INSERT INTO it_group (id, v, port) VALUES (" + (900_000 + i) + ", 0, @@port)");
          }
        }
      } finally {
        for (Connection c : all) {
          c.close();
        }
      }
      try (Connection c = plain(elected); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM it_group WHERE id >= 900000 AND port = " + elected)) {
        rs.next();
        assertThat(rs.getInt(1)).as("writes on the elected primary, one per pooled connection").isEqualTo(POOL);
      }
    }
  }

  /**
   * Logical connections the application holds, with no pool to evict them, busy through a {@code kill -9}
   * of the primary ({@link HeldConnections}: 8 threads on 4 held connections writing and reading back,
   * 2 readers on connections of their own). The same logical connections go on writing on the elected
   * primary, with no acknowledged write lost, no stale read, at most one failed statement per writer
   * thread, and the readers' reads served by the secondaries all through the election.
   */
  @Test
  void heldBusyConnectionsGoOnWritingOnTheElectedPrimaryAfterAKillOfThePrimary() throws Exception {
    if (primaryPort() != MEMBER_PORTS.get(0)) {
      group("switchover", "member1");
    }
    int old = primaryPort();
    try (Connection c = plain(old); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS it_group_held");
      s.execute("CREATE TABLE it_group_held (id INT PRIMARY KEY, v INT NOT NULL, port INT NOT NULL, conn INT NOT NULL)");
    }
    try (Connection c = DriverManager.getConnection(URL)) {
      awaitInRotation(c, 2);
    }
    HeldConnections w = new HeldConnections(URL, "it_group_held", 4, THREADS, 2);
    String killed;
    long electionMillis;
    try (w) {
      Thread.sleep(2_000);
      long t0 = System.nanoTime();
      killed = group("kill-primary").strip().lines().reduce((a, b) -> b).orElseThrow();
      w.phase.set(HeldConnections.DURING);
      w.awaitFirstWrite(HeldConnections.DURING, 90);
      electionMillis = (System.nanoTime() - t0) / 1_000_000;
      w.phase.set(HeldConnections.AFTER);
      w.awaitWritesAfter(20, 90);
    }
    int elected = primaryPort();
    System.out.printf("GROUP held connections, kill -9 of the primary %d (%s), elected %d: first write %d ms after the"
            + " kill; acknowledged %d, per connection before/during/after %s; reader reads before/during/after"
            + " %d/%d/%d; stale %d; failed statements %d %s %s; reader failures %d %s%n",
        old, killed, elected, electionMillis, w.acknowledged.size(), w.perConnection(),
        w.readerReads(HeldConnections.BEFORE), w.readerReads(HeldConnections.DURING),
        w.readerReads(HeldConnections.AFTER), w.stale.get(), w.failedStatements.get(), w.failuresByState, w.failures,
        w.failedReaderStatements.get(), w.readerFailures);
    assertThat(elected).isNotEqualTo(old);
    try (Connection p = plain(elected)) {
      w.assertSurvived(p, 20);
    }
    assertThat(w.failedReaderStatements.get()).as("failed reads of the readers (%s)", w.readerFailures).isZero();
    assertThat(w.readerReads(HeldConnections.DURING)).as("reader reads during the election").isPositive();
  }

  /**
   * The group elects a member the URL does not name, and the cluster never polled it: a URL that names
   * member1 (the primary) and member2, whose weight keeps it from winning, so the election after a
   * {@code kill -9} of member1 goes to member3. A connection opened after the election writes on member3
   * at once: the discovery round reads the group from member2, the member that answers.
   */
  @Test
  void anElectionToAMemberTheUrlDoesNotNameIsFollowedAtOnce() throws Exception {
    if (primaryPort() != MEMBER_PORTS.get(0)) {
      group("switchover", "member1");
    }
    int old = primaryPort();
    int loser = MEMBER_PORTS.get(1);
    int winner = MEMBER_PORTS.get(2);
    String twoMembers = "jdbc:ryow:mysql://" + HOST + ":" + old + "," + HOST + ":" + loser
        + "/ryow?user=ryow&password=ryow";
    try (Connection c = plain(loser); Statement s = c.createStatement()) {
      s.execute("SET GLOBAL group_replication_member_weight = 0");
    }
    try {
      group("kill-primary");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (primaryPortOrZero() != winner) {
        assertThat(System.nanoTime()).as("member3 elected within 60 s").isLessThan(deadline);
        Thread.sleep(100);
      }
      long t0 = System.nanoTime();
      try (Connection c = DriverManager.getConnection(twoMembers); Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO it_group (id, v, port) VALUES (-3, 3, @@port)");
        long writeMillis = (System.nanoTime() - t0) / 1_000_000;
        try (ResultSet rs = s.executeQuery("SELECT v FROM it_group WHERE id = -3")) {
          assertThat(rs.next()).as("the connection reads its own write back").isTrue();
        }
        System.out.printf("GROUP election to a member the URL does not name (%d): first write %d ms after login%n",
            winner, writeMillis);
        assertThat(c.unwrap(RyowConnection.class).clusterMetrics().primaryFailovers()).as("primary moves").isEqualTo(1);
      }
      try (Connection p = plain(winner); Statement s = p.createStatement();
          ResultSet rs = s.executeQuery("SELECT port FROM it_group WHERE id = -3")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).as("port that ran the write").isEqualTo(winner);
      }
    } finally {
      try (Connection c = plain(loser); Statement s = c.createStatement()) {
        s.execute("SET GLOBAL group_replication_member_weight = DEFAULT");
      }
    }
  }

  /**
   * As {@link #anElectionToAMemberTheUrlDoesNotNameIsFollowedAtOnce}, under a HikariCP pool that is busy
   * through the {@code kill -9}: the URL names member1 (the primary) and member2 (weight 0), the group elects
   * member3. The pool's writes resume on member3, with no acknowledged write lost and no stale read.
   */
  @Test
  void aPoolFollowsAnElectionToAMemberTheUrlDoesNotName() throws Exception {
    if (primaryPort() != MEMBER_PORTS.get(0)) {
      group("switchover", "member1");
    }
    int loser = MEMBER_PORTS.get(1);
    int winner = MEMBER_PORTS.get(2);
    String twoMembers = "jdbc:ryow:mysql://" + HOST + ":" + MEMBER_PORTS.get(0) + "," + HOST + ":" + loser
        + "/ryow?user=ryow&password=ryow";
    try (Connection c = plain(loser); Statement s = c.createStatement()) {
      s.execute("SET GLOBAL group_replication_member_weight = 0");
    }
    try {
      Workload w = runThrough(twoMembers, () -> group("kill-primary"));
      w.report("pooled election to a member the URL does not name (" + winner + ")");
      assertThat(primaryPort()).as("the member elected").isEqualTo(winner);
      w.assertSafe(winner);
      assertThat(w.writesAfterEventOn.keySet()).as("ports of writes acknowledged after the election")
          .containsOnly(winner);
    } finally {
      try (Connection c = plain(loser); Statement s = c.createStatement()) {
        s.execute("SET GLOBAL group_replication_member_weight = DEFAULT");
      }
    }
  }

  /**
   * As {@link #heldBusyConnectionsGoOnWritingOnTheElectedPrimaryAfterAKillOfThePrimary}, through a planned
   * switch ({@code group_replication_set_as_primary}): the same logical connections write on the new
   * primary, no acknowledged write lost, no stale read, at most one failed statement per writer thread
   * (a write the old primary refused as read-only did not run and runs again on the new one).
   */
  @Test
  void heldBusyConnectionsFollowAPlannedSwitch() throws Exception {
    int old = primaryPort();
    int target = MEMBER_PORTS.subList(0, 3).stream().filter(p -> p != old).findFirst().orElseThrow();
    try (Connection c = plain(old); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS it_group_held");
      s.execute("CREATE TABLE it_group_held (id INT PRIMARY KEY, v INT NOT NULL, port INT NOT NULL, conn INT NOT NULL)");
    }
    try (Connection c = DriverManager.getConnection(URL)) {
      awaitInRotation(c, 2);
    }
    HeldConnections w = new HeldConnections(URL, "it_group_held", 4, THREADS, 2);
    long switchMillis;
    try (w) {
      Thread.sleep(2_000);
      long t0 = System.nanoTime();
      w.phase.set(HeldConnections.DURING);
      group("switchover", "member" + (MEMBER_PORTS.indexOf(target) + 1));
      switchMillis = (System.nanoTime() - t0) / 1_000_000;
      w.phase.set(HeldConnections.AFTER);
      w.awaitWritesAfter(20, 90);
    }
    System.out.printf("GROUP held connections, planned switch %d -> %d in %d ms: acknowledged %d, per connection"
            + " before/during/after %s; reader reads before/during/after %d/%d/%d; stale %d; failed statements %d %s %s;"
            + " reader failures %d %s%n",
        old, target, switchMillis, w.acknowledged.size(), w.perConnection(), w.readerReads(HeldConnections.BEFORE),
        w.readerReads(HeldConnections.DURING), w.readerReads(HeldConnections.AFTER), w.stale.get(),
        w.failedStatements.get(), w.failuresByState, w.failures, w.failedReaderStatements.get(), w.readerFailures);
    assertThat(primaryPort()).isEqualTo(target);
    try (Connection p = plain(target)) {
      w.assertSurvived(p, 20);
    }
    assertThat(w.failedReaderStatements.get()).as("failed reads of the readers (%s)", w.readerFailures).isZero();
  }

  /** {@link #primaryPort()}, or 0 while no member reports an ONLINE primary (an election under way). */
  private static int primaryPortOrZero() throws SQLException {
    try {
      return primaryPort();
    } catch (AssertionError e) {
      return 0;
    }
  }

  // -------------------------------------------------------------------------------------------

  /** A pooled read-after-write workload (HikariCP, default settings) through one event. */
  private static final class Workload {
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicBoolean eventDone = new AtomicBoolean();
    final AtomicInteger ids = new AtomicInteger();
    final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    /** Writes that began after the event and were acknowledged. */
    final Set<Integer> acknowledgedAfter = ConcurrentHashMap.newKeySet();
    /** Where those ran, as the rows say ({@code @@port} of the server that executed the INSERT). */
    final Map<Integer, Integer> writesAfterEventOn = new HashMap<>();
    final AtomicLong reads = new AtomicLong();
    final AtomicLong stale = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final ConcurrentLinkedQueue<String> writeErrors = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<String> readErrors = new ConcurrentLinkedQueue<>();
    volatile long eventStartNanos;
    volatile long firstWriteAfterNanos;
    /** When each write was acknowledged ({@link System#nanoTime()}): the longest gap is how long writes stopped. */
    final ConcurrentLinkedQueue<Long> ackNanos = new ConcurrentLinkedQueue<>();

    long longestWriteGapMillis() {
      long[] t = ackNanos.stream().mapToLong(Long::longValue).sorted().toArray();
      long gap = 0;
      for (int i = 1; i < t.length; i++) {
        gap = Math.max(gap, t[i] - t[i - 1]);
      }
      return TimeUnit.NANOSECONDS.toMillis(gap);
    }

    void report(String what) {
      long resume = firstWriteAfterNanos == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(firstWriteAfterNanos - eventStartNanos);
      System.out.printf("GROUP %s: writes stopped for %d ms at most (longest gap between acknowledged writes);"
          + " first write acknowledged %d ms after the event began; acknowledged writes %d, reads %d,"
          + " stale %d, reads refused %d, write errors %d (%s), read errors %d (%s)%n", what, longestWriteGapMillis(), resume,
          acknowledged.size(), reads.get(), stale.get(), refused.get(), writeErrors.size(),
          writeErrors.stream().map(GroupReplicationIT::firstLine).distinct().limit(3).toList(), readErrors.size(),
          readErrors.stream().map(GroupReplicationIT::firstLine).distinct().limit(3).toList());
    }

    void assertSafe(int primary) throws SQLException {
      assertThat(stale.get()).as("stale reads").isZero();
      assertThat(acknowledgedAfter).as("writes acknowledged after the event").isNotEmpty();
      Set<Integer> found = new HashSet<>();
      try (Connection c = plain(primary); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT id, port FROM it_group")) {
        while (rs.next()) {
          found.add(rs.getInt(1));
          if (acknowledgedAfter.contains(rs.getInt(1))) {
            writesAfterEventOn.merge(rs.getInt(2), 1, Integer::sum);
          }
        }
      }
      Set<Integer> lost = new HashSet<>(acknowledged);
      lost.removeAll(found);
      assertThat(lost).as("acknowledged writes missing on the new primary").isEmpty();
    }
  }

  interface Event {
    void run() throws Exception;
  }

  private static Workload runThrough(Event event) throws Exception {
    return runThrough(URL, event);
  }

  /** A pooled workload ({@value #THREADS} threads, a pool of {@value #POOL}) on {@code url}, through {@code event}. */
  private static Workload runThrough(String url, Event event) throws Exception {
    Workload w = new Workload();
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(POOL);
    config.setMinimumIdle(POOL);
    config.setConnectionTimeout(30_000);
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      try (Connection c = pool.getConnection()) {
        awaitInRotation(c, 2);
      }
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        futures.add(threads.submit(() -> work(pool, w)));
      }
      Thread.sleep(3_000);
      w.eventStartNanos = System.nanoTime();
      event.run();
      w.eventDone.set(true);
      // Until writes resumed and ran for 3 s more (bounded: 60 s without a write fails the test).
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (w.firstWriteAfterNanos == 0 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      Thread.sleep(3_000);
      w.stop.set(true);
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
    return w;
  }

  private static Void work(HikariDataSource pool, Workload w) throws InterruptedException {
    while (!w.stop.get()) {
      int id = w.ids.incrementAndGet();
      boolean after = w.eventDone.get();
      try (Connection c = pool.getConnection()) {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO it_group (id, v, port) VALUES (?, ?, @@port)")) {
          p.setInt(1, id);
          p.setInt(2, id * 3);
          p.executeUpdate();
        } catch (SQLException e) {
          w.writeErrors.add(e.getSQLState() + " " + e.getMessage());
          Thread.sleep(20);
          continue;
        }
        w.acknowledged.add(id);
        w.ackNanos.add(System.nanoTime());
        if (after) {
          if (w.firstWriteAfterNanos == 0) {
            w.firstWriteAfterNanos = System.nanoTime();
          }
          w.acknowledgedAfter.add(id);
        }
      } catch (SQLException e) {
        w.writeErrors.add(e.getSQLState() + " " + e.getMessage());
        Thread.sleep(20);
        continue;
      }
      // The read on another pooled connection: the JVM-wide default must still show the write.
      try (Connection c = pool.getConnection();
          PreparedStatement r = c.prepareStatement("SELECT v FROM it_group WHERE id = ?")) {
        r.setInt(1, id);
        try (ResultSet rs = r.executeQuery()) {
          w.reads.incrementAndGet();
          if (!rs.next() || rs.getInt(1) != id * 3) {
            w.stale.incrementAndGet();
          }
        }
      } catch (SQLTransientException e) {
        w.refused.incrementAndGet();
      } catch (SQLException e) {
        w.readErrors.add(e.getSQLState() + " " + e.getMessage());
      }
      Thread.sleep(5);
    }
    return null;
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    String line = nl < 0 ? s : s.substring(0, nl);
    return line.length() > 160 ? line.substring(0, 160) : line;
  }

  /**
   * The ports that answered {@code reads} reads, one every {@value #READ_PAUSE_MILLIS} ms. With the default
   * monotonic reads, a JVM's reads stay on the secondary they last ran on until a poll (every 200 ms by
   * default) has read its position; only then may the next read go elsewhere. So reads spread over the
   * secondaries from one poll round to the next, and a burst faster than one round stays on one member.
   */
  private static Set<Integer> readPorts(Connection c, int reads) throws SQLException, InterruptedException {
    Set<Integer> ports = new HashSet<>();
    try (Statement s = c.createStatement()) {
      for (int i = 0; i < reads; i++) {
        if (i > 0) {
          Thread.sleep(READ_PAUSE_MILLIS);
        }
        try (ResultSet rs = s.executeQuery("SELECT @@port FROM it_group LIMIT 1")) {
          ports.add(rs.next() ? rs.getInt(1) : readPortWithoutRows(s));
        }
      }
    }
    return ports;
  }

  private static int readPortWithoutRows(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT @@port")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** Blocks (up to 30 s) until the cluster of {@code c} has exactly {@code n} replicas in rotation. */
  private static void awaitInRotation(Connection c, int n) throws SQLException, InterruptedException {
    RyowConnection r = c.unwrap(RyowConnection.class);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (r.clusterMetrics().replicasInRotation() != n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("replicas in rotation after 30 s: " + r.clusterMetrics().replicasInRotation()
            + ", expected " + n + " (" + r.clusterMetrics().replicaStates() + ")");
      }
      Thread.sleep(50);
    }
  }

  /** The port of the member that is PRIMARY and ONLINE now, asked of the first member that answers. */
  private static int primaryPort() throws SQLException {
    SQLException last = null;
    for (int port : MEMBER_PORTS) {
      try (Connection c = plain(port); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT MEMBER_PORT FROM performance_schema.replication_group_members"
              + " WHERE MEMBER_ROLE = 'PRIMARY' AND MEMBER_STATE = 'ONLINE'")) {
        if (rs.next()) {
          return rs.getInt(1);
        }
      } catch (SQLException e) {
        last = e;
      }
    }
    throw new AssertionError("no member reports an ONLINE primary", last);
  }

  private static Connection plain(int port) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:mysql://" + HOST + ":" + port + "/ryow?allowPublicKeyRetrieval=true", "ryow", "ryow");
  }

  private static String group(String... args) {
    String[] full = new String[args.length + 1];
    full[0] = "--group";
    System.arraycopy(args, 0, full, 1, args.length);
    return Sandbox.run(full);
  }
}
