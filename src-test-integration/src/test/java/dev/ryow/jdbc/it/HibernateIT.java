package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.ryow.jdbc.RyowConnection;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Root;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.annotations.Formula;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hibernate ORM 7, bootstrapped programmatically, with a HikariCP 7 pool of {@code jdbc:ryow:}
 * connections as its DataSource; no line of the mapping or of the Hibernate code knows about the
 * driver. Every entity load also selects {@code @@port} (a {@code @Formula}), so the server that
 * answered says who it is; the servers' own statement digests count where the reads ran.
 * Lag is real: the replicas' appliers are stopped or pulsed, and a plain Connector/J connection to
 * a replica reading the same rows shows that the lag was visible (so the checks can fail).
 */
class HibernateIT {
  private static final String TABLE = "it_hb_account";
  private static final String READS = "FROM `" + TABLE + "`";

  /** One bank account; {@code servedBy} is evaluated by whichever server ran the SELECT. */
  @Entity(name = "Account")
  @Table(name = TABLE)
  static class Account {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    Long id;

    @Column(nullable = false)
    String owner;

    long balance;

    @Version
    int version;

    @Formula("@@port")
    Integer servedBy;

    protected Account() {}

    Account(String owner, long balance) {
      this.owner = owner;
      this.balance = balance;
    }
  }

  private static HikariDataSource pool;
  private static SessionFactory sessions;

  @BeforeAll
  static void bootstrap() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE,
        "id BIGINT AUTO_INCREMENT PRIMARY KEY, owner VARCHAR(64) NOT NULL, balance BIGINT NOT NULL, version INT NOT NULL");
    HikariConfig config = new HikariConfig();
    config.setPoolName("it-hibernate");
    config.setJdbcUrl(Topology.ryowUrl());
    config.setMaximumPoolSize(4);
    pool = new HikariDataSource(config);
    StandardServiceRegistry registry = new StandardServiceRegistryBuilder()
        .applySetting("jakarta.persistence.nonJtaDataSource", pool)
        .applySetting("hibernate.hbm2ddl.auto", "none")
        .build();
    sessions = new MetadataSources(registry).addAnnotatedClass(Account.class).buildMetadata().buildSessionFactory();
  }

  @AfterAll
  static void shutdown() throws SQLException {
    if (sessions != null) {
      sessions.close();
    }
    if (pool != null) {
      pool.close();
    }
    Topology.resumeAppliers();
  }

  @BeforeEach
  @AfterEach
  void appliersRunning() throws SQLException {
    Topology.resumeAppliers();
  }

  // ------------------------------------------------------------------------------------ helpers

  private static long persist(String owner, long balance) {
    try (Session s = sessions.openSession()) {
      s.beginTransaction();
      Account a = new Account(owner, balance);
      s.persist(a);
      s.getTransaction().commit();
      return a.id;
    }
  }

  /** {balance, version, servedBy} of one account, by HQL (always a database round trip). */
  private static Object[] hqlRow(Session s, long id) {
    return s.createSelectionQuery(
            "select a.balance, a.version, a.servedBy from Account a where a.id = :id", Object[].class)
        .setParameter("id", id)
        .getSingleResult();
  }

  private static List<Account> criteriaByOwner(Session s, String owner) {
    CriteriaBuilder cb = s.getCriteriaBuilder();
    CriteriaQuery<Account> q = cb.createQuery(Account.class);
    Root<Account> root = q.from(Account.class);
    q.select(root).where(cb.equal(root.get("owner"), owner));
    return s.createSelectionQuery(q).getResultList();
  }

  private static int sessionPort(Session s) {
    return s.createNativeQuery("select @@port", Integer.class).getSingleResult();
  }

  private static RyowConnection ryowOf(Session s) {
    return s.doReturningWork(c -> c.unwrap(RyowConnection.class));
  }

  /** The balance a plain replica connection sees, or null when the row is not there (yet). */
  private static Long plainBalance(Connection plainReplica, long id) throws SQLException {
    // Schema-qualified, so that its digest does not count among the READS of the driver.
    try (PreparedStatement ps = plainReplica.prepareStatement(
        "SELECT balance FROM " + Topology.DATABASE + "." + TABLE + " WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : null;
      }
    }
  }

  /** How long a pulsed-lag loop may go on past its least number of iterations. */
  private static final long PULSED_LOOP_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(60);

  /**
   * Whether a loop under pulsed lag goes on after {@code done} iterations: at least {@code least}, then on until a
   * replica answered a read through Hibernate and the plain replica connection saw the lag, or until
   * {@code deadlineNanos}. How many reads find a replica holding their write in a pulse's running phase depends
   * on how fast the machine applies (CI's other lanes load it); a driver that never leaves the primary still
   * fails, after the deadline.
   */
  private static boolean goesOn(int done, int least, Tally tally, long deadlineNanos) {
    if (done < least) {
      return true;
    }
    return (tally.onReplica == 0 || tally.plainStale == 0) && System.nanoTime() - deadlineNanos < 0;
  }

  /** Reads done through Hibernate: how many, how many stale, how many a replica answered. */
  private static final class Tally {
    int reads;
    int stale;
    int onReplica;
    int plainReads;
    int plainStale;

    void read(long expected, long actual, Integer servedBy) {
      reads++;
      if (actual != expected) {
        stale++;
      }
      if (servedBy != null && REPLICA_PORTS.contains(servedBy)) {
        onReplica++;
      }
    }

    void missing() {
      reads++;
      stale++;
    }

    void plain(long expected, Long actual) {
      plainReads++;
      if (actual == null || actual != expected) {
        plainStale++;
      }
    }

    @Override
    public String toString() {
      return String.format("%d reads, %d stale, %d served by a replica (%.1f%%); plain replica: %d reads, %d stale",
          reads, stale, onReplica, 100.0 * onReplica / Math.max(1, reads), plainReads, plainStale);
    }
  }

  // -------------------------------------------------------------------------------------- tests

  @Test
  void persistThenFindInTheSameSessionAndInANewOneWhileAppliersArePaused() throws SQLException {
    Topology.pauseAppliers();
    long id;
    RyowConnection writer;
    try (Session s = sessions.openSession()) {
      s.beginTransaction();
      Account a = new Account("paused", 10);
      s.persist(a);
      s.getTransaction().commit();
      id = a.id;
      writer = ryowOf(s);
      assertThat(s.find(Account.class, id)).as("same session: the persistence context").isSameAs(a);
      // A query in the same session, outside the transaction, goes to the database.
      Object[] row = hqlRow(s, id);
      assertThat(row[0]).isEqualTo(10L);
      assertThat(row[1]).isEqualTo(0);
      assertThat(row[2]).as("the replicas lack the row: the read fell back to the primary").isEqualTo(PRIMARY_PORT);
    }
    try (Session s = sessions.openSession()) {
      Account found = s.find(Account.class, id);
      assertThat(ryowOf(s)).as("HikariCP handed this thread its connection back").isSameAs(writer);
      assertThat(found).as("a new session finds the row written just before").isNotNull();
      assertThat(found.balance).isEqualTo(10L);
      assertThat(found.servedBy).isEqualTo(PRIMARY_PORT);
      s.clear();
      List<Account> byOwner = criteriaByOwner(s, "paused");
      assertThat(byOwner).extracting(a -> a.id).containsExactly(id);
      assertThat(byOwner.get(0).servedBy).isEqualTo(PRIMARY_PORT);
    }
    try (Connection plainReplica = Topology.plain(REPLICA_PORTS.get(0))) {
      assertThat(plainBalance(plainReplica, id)).as("the lag is real: a plain replica read misses the row").isNull();
    }
    Topology.resumeAppliers();
    try (Session s = sessions.openSession()) {
      s.doWork(Topology::awaitInRotation);
      Account found = s.find(Account.class, id);
      assertThat(found.servedBy).as("caught up: the same find is a replica read").isIn(REPLICA_PORTS);
    }
  }

  @Test
  void persistUpdateHqlAndCriteriaUnderPulsedLagNeverReadStale() throws Exception {
    int iterations = 0;
    Tally tally = new Tally();
    ServerCounts reads = ServerCounts.of(READS);
    long deadline = System.nanoTime() + PULSED_LOOP_LIMIT_NANOS;
    LagPulse pulse = LagPulse.start(150, 500);
    try (Connection plainReplica = Topology.plain(REPLICA_PORTS.get(0))) {
      Long previous = null;
      for (int i = 0; goesOn(i, 80, tally, deadline); i++) {
        iterations = i + 1;
        String owner = "pulse-" + i;
        long id;
        try (Session s = sessions.openSession()) {
          s.beginTransaction();
          Account a = new Account(owner, i);
          s.persist(a);
          if (previous != null) {
            // Loaded inside the read-write transaction (primary), updated with a version check.
            s.find(Account.class, previous).balance = 10L * i;
          }
          s.getTransaction().commit();
          id = a.id;
          // The same reads through a plain replica connection, at once: stale whenever the lag shows.
          tally.plain(i, plainBalance(plainReplica, id));
          if (previous != null) {
            tally.plain(10L * i, plainBalance(plainReplica, previous));
          }
          // Same session, after the commit, outside any transaction: HQL reads.
          Object[] row = hqlRow(s, id);
          tally.read(i, (Long) row[0], (Integer) row[2]);
          if (previous != null) {
            Object[] prev = hqlRow(s, previous);
            tally.read(10L * i, (Long) prev[0], (Integer) prev[2]);
            assertThat(prev[1]).as("version after one update").isEqualTo(1);
          }
        }
        try (Session s = sessions.openSession()) {
          Account found = s.find(Account.class, id);
          if (found == null) {
            tally.missing();
          } else {
            tally.read(i, found.balance, found.servedBy);
          }
          if (previous != null) {
            List<Account> byOwner = criteriaByOwner(s, "pulse-" + (i - 1));
            if (byOwner.isEmpty()) {
              tally.missing();
            } else {
              tally.read(10L * i, byOwner.get(0).balance, byOwner.get(0).servedBy);
            }
          }
        }
        previous = id;
      }
    } finally {
      pulse.close();
    }
    ServerCounts served = reads.delta();
    System.out.printf("hibernate, pulsed lag (150 ms of every 500 ms), %d iterations: %s; servers: %s%n",
        iterations, tally, served);
    assertThat(tally.reads).isEqualTo(4 * iterations - 2);
    assertThat(tally.plainReads).isEqualTo(2 * iterations - 1);
    assertThat(tally.stale).as("stale reads through Hibernate over jdbc:ryow:").isZero();
    assertThat(tally.plainStale).as("the pulsed lag must be visible to a plain replica connection").isPositive();
    assertThat(tally.onReplica).as("some reads outside transactions left the primary").isPositive();
    // In-transaction finds (iterations - 1) ran on the primary on top of the reads counted above.
    assertThat(served.total()).isEqualTo(tally.reads + iterations - 1L);
    assertThat(served.primary()).isEqualTo(tally.reads - tally.onReplica + iterations - 1L);
    assertThat(served.replicas()).isEqualTo(tally.onReplica);
  }

  @Test
  void versionedUpdatesAfterReadsOutsideTransactionsAndAConflictFails() throws SQLException {
    Topology.pauseAppliers();
    long id = persist("versioned", 0);
    // Read outside a transaction, change the detached copy, merge it in a transaction: Hibernate
    // checks the version it read. A stale (replica) read would carry an old version and fail.
    for (int round = 1; round <= 5; round++) {
      Account detached;
      try (Session s = sessions.openSession()) {
        detached = s.find(Account.class, id);
      }
      assertThat(detached.version).as("version read outside a transaction, round " + round).isEqualTo(round - 1);
      detached.balance = 100L * round;
      try (Session s = sessions.openSession()) {
        s.beginTransaction();
        s.merge(detached);
        s.getTransaction().commit();
      }
    }
    try (Connection plainReplica = Topology.plain(REPLICA_PORTS.get(1))) {
      assertThat(plainBalance(plainReplica, id)).as("a plain replica read would have seen no row at all").isNull();
    }
    // A real conflict: a copy read at version 5, then someone else updates the row, then the copy
    // is merged: Hibernate's version check (in the UPDATE, on the primary) rejects it.
    Account copy;
    try (Session s = sessions.openSession()) {
      copy = s.find(Account.class, id);
      assertThat(copy.servedBy).as("appliers stopped: read on the primary").isEqualTo(PRIMARY_PORT);
    }
    assertThat(copy.version).isEqualTo(5);
    try (Session s = sessions.openSession()) {
      s.beginTransaction();
      s.find(Account.class, id).balance = 1;
      s.getTransaction().commit();
    }
    copy.balance = 2;
    try (Session s = sessions.openSession()) {
      s.beginTransaction();
      Throwable conflict = catchThrowable(() -> {
        s.merge(copy);
        s.getTransaction().commit();
      });
      assertThat(conflict).isInstanceOf(OptimisticLockException.class);
      if (s.getTransaction().isActive()) {
        s.getTransaction().rollback();
      }
    }
    try (Session s = sessions.openSession()) {
      Account found = s.find(Account.class, id);
      assertThat(found).as("read after the failed merge, appliers still stopped").isNotNull();
      assertThat(found.balance).isEqualTo(1);
      assertThat(found.version).isEqualTo(6);
      assertThat(found.servedBy).isEqualTo(PRIMARY_PORT);
    }
  }

  @Test
  void readOnlySessionTransactionsRunOnOneReplicaAndNeverReadStale() throws Exception {
    // Hibernate's read-only session calls Connection.setReadOnly(true) on the connection it obtains.
    long id = persist("read-only", 7);
    try (Session ro = sessions.withOptions().readOnly(true).openSession()) {
      ro.beginTransaction();
      int port = sessionPort(ro);
      assertThat(port).as("a read-only transaction runs on a replica").isIn(REPLICA_PORTS);
      Account a = ro.find(Account.class, id);
      assertThat(a.balance).isEqualTo(7);
      assertThat(a.servedBy).as("the whole transaction on one replica").isEqualTo(port);
      assertThat(hqlRow(ro, id)[2]).isEqualTo(port);
      ro.getTransaction().commit();
    }

    Topology.pauseAppliers();
    long paused = persist("read-only-paused", 8);
    try (Session ro = sessions.withOptions().readOnly(true).openSession()) {
      ro.beginTransaction();
      Account a = ro.find(Account.class, paused);
      assertThat(a).as("read-only transaction right after a write, appliers stopped").isNotNull();
      assertThat(a.servedBy).as("no replica has the write: the transaction runs on the primary").isEqualTo(PRIMARY_PORT);
      assertThat(hqlRow(ro, paused)[2]).isEqualTo(PRIMARY_PORT);
      ro.getTransaction().commit();
    }
    Topology.resumeAppliers();

    int iterations = 0;
    Tally tally = new Tally();
    List<List<Integer>> mixed = new ArrayList<>();
    long deadline = System.nanoTime() + PULSED_LOOP_LIMIT_NANOS;
    LagPulse pulse = LagPulse.start(150, 500);
    try (Connection plainReplica = Topology.plain(REPLICA_PORTS.get(0))) {
      for (int i = 0; goesOn(i, 60, tally, deadline); i++) {
        iterations = i + 1;
        long written = persist("ro-pulse-" + i, i);
        tally.plain(i, plainBalance(plainReplica, written));
        try (Session ro = sessions.withOptions().readOnly(true).openSession()) {
          ro.beginTransaction();
          List<Integer> ports = new ArrayList<>();
          Account a = ro.find(Account.class, written);
          if (a == null) {
            tally.missing();
          } else {
            tally.read(i, a.balance, a.servedBy);
            ports.add(a.servedBy);
          }
          Object[] row = hqlRow(ro, written);
          tally.read(i, (Long) row[0], (Integer) row[2]);
          ports.add((Integer) row[2]);
          ports.add(sessionPort(ro));
          if (new HashSet<>(ports).size() > 1) {
            mixed.add(ports);
          }
          ro.getTransaction().commit();
        }
      }
    } finally {
      pulse.close();
    }
    System.out.printf("hibernate read-only transactions, pulsed lag, %d transactions: %s; %d spanned two servers"
            + " (ports of find, HQL, native @@port: %s)%n",
        iterations, tally, mixed.size(), mixed);
    assertThat(tally.stale).as("stale reads in read-only transactions").isZero();
    assertThat(tally.plainStale).as("the pulsed lag must be visible to a plain replica connection").isPositive();
    assertThat(tally.onReplica).isPositive();
    assertThat(mixed).as("read-only transactions that switched servers midway (ports in statement order)").isEmpty();
  }

  @Test
  void readsOutsideTransactionsAreServedByReplicas() throws SQLException {
    try (Connection c = Topology.ryow()) {
      Topology.driverSeesReplicasCurrent(c); // no lag: not even the end of another test's
    }
    int iterations = 60;
    Tally tally = new Tally();
    ServerCounts before = ServerCounts.of(READS);
    for (int i = 0; i < iterations; i++) {
      String owner = "steady-" + i;
      long id = persist(owner, i);
      try (Session s = sessions.openSession()) {
        Account found = s.find(Account.class, id);
        tally.read(i, found.balance, found.servedBy);
        Object[] row = hqlRow(s, id);
        tally.read(i, (Long) row[0], (Integer) row[2]);
        s.clear(); // else the Criteria query hands back the instance find() loaded, with its servedBy
        Account byOwner = criteriaByOwner(s, owner).get(0);
        tally.read(i, byOwner.balance, byOwner.servedBy);
      }
    }
    ServerCounts served = before.delta();
    System.out.printf("hibernate, no injected lag, %d iterations: %s; servers: %s%n", iterations, tally, served);
    assertThat(tally.stale).isZero();
    assertThat(served.total()).as("every read counted once, on the server that ran it").isEqualTo(3L * iterations);
    assertThat(served.replicas()).isEqualTo(tally.onReplica);
    // A majority, not a figure near 100 %: a read right after its write runs on a replica only when the replica
    // applied the write within the wait bound, which a busy machine decides now and then (ReadYourWritesIT).
    assertThat(served.replicaShare()).as("share of reads outside transactions served by replicas").isGreaterThan(0.5);
  }
}
