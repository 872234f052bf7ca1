package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.RyowConnection;
import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Transaction replay ({@code ryow.transactionReplay=true}, every other setting the default) on the real
 * sandbox: a read-write transaction whose primary is killed (and restarted) or switched over before its
 * COMMIT was sent is replayed and committed once on the primary it finds, proven by the rows and by what
 * the servers executed ({@code performance_schema} digests: the restarted primary's start from zero; a
 * switchover's old and new primary each ran the transaction's statements once). A transaction whose reads
 * changed before the replay is refused with the original error; a COMMIT in flight at the kill is never
 * applied twice; with the setting off the same interruption gives the original 08S01.
 */
@AboutSettings(value = {"ryow.transactionReplay"},
    why = "the opt-in replay of a transaction interrupted by the loss of the primary, and its absence by default")
class TransactionReplayIT {
  private static final String ACCOUNTS = "it_replay_accounts";
  private static final String COMMITS = "it_replay_commits";
  private static final String REPLAY = "ryow.transactionReplay=true";
  private static final String SELECT = "SELECT balance FROM " + ACCOUNTS + " WHERE id = ?";
  private static final String DEBIT = "UPDATE " + ACCOUNTS + " SET balance = balance - 30 WHERE id = 1";
  private static final String CREDIT = "UPDATE " + ACCOUNTS + " SET balance = balance + 30 WHERE id = 2";
  /** What the servers' digests call them. */
  private static final String SELECT_DIGEST = "SELECT `balance` FROM `" + ACCOUNTS + "` WHERE `id` = ?";
  private static final String DEBIT_DIGEST = "`balance` = `balance` - ?";
  private static final String CREDIT_DIGEST = "`balance` = `balance` + ?";

  @BeforeEach
  void tables() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(ACCOUNTS, "id INT PRIMARY KEY, balance INT NOT NULL");
    Topology.exec(PRIMARY_PORT, "INSERT INTO " + ACCOUNTS + " VALUES (1, 100), (2, 50)");
    Topology.recreateTable(COMMITS, "id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL");
  }

  @AfterEach
  void restore() {
    Sandbox.restoreTopology();
  }

  private static MetricsSnapshot metrics(Connection c) throws SQLException {
    return c.unwrap(RyowConnection.class).clusterMetrics();
  }

  /** The transfer's first half: reads account 1, debits it. */
  private static void readAndDebit(Connection c) throws SQLException {
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement(SELECT)) {
      ps.setInt(1, 1);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(100);
        assertThat(rs.next()).isFalse();
      }
    }
    try (Statement s = c.createStatement()) {
      assertThat(s.executeUpdate(DEBIT)).isEqualTo(1);
    }
  }

  private static long balance(int port, int id) throws SQLException {
    return Topology.queryLong(port, "SELECT balance FROM " + ACCOUNTS + " WHERE id = " + id);
  }

  private static void killAndRestartPrimary() {
    Sandbox.run("kill", "primary");
    Sandbox.run("restart", "primary");
  }

  @Test
  void aTransactionInterruptedByAKillOfThePrimaryIsReplayedAndCommittedOnce() throws Exception {
    try (Connection c = Topology.ryow(REPLAY)) {
      MetricsSnapshot before = metrics(c);
      readAndDebit(c);
      killAndRestartPrimary();
      // performance_schema starts empty with the restarted server: nothing of the transaction ran there yet.
      long[] sinceRestart = {Topology.statementsLike(PRIMARY_PORT, SELECT_DIGEST),
          Topology.statementsLike(PRIMARY_PORT, DEBIT_DIGEST), Topology.statementsLike(PRIMARY_PORT, CREDIT_DIGEST)};
      assertThat(sinceRestart).containsExactly(0, 0, 0);
      try (Statement s = c.createStatement()) {
        assertThat(s.executeUpdate(CREDIT)).as("the interrupted statement, after the replay").isEqualTo(1);
      }
      c.commit();
      MetricsSnapshot after = metrics(c);
      long[] executed = {Topology.statementsLike(PRIMARY_PORT, SELECT_DIGEST),
          Topology.statementsLike(PRIMARY_PORT, DEBIT_DIGEST), Topology.statementsLike(PRIMARY_PORT, CREDIT_DIGEST)};
      System.out.printf("REPLAY kill primary, restart primary: replayed %d, refused %d; the restarted primary ran"
              + " SELECT/debit/credit %s times; balances %d/%d%n",
          after.transactionsReplayed() - before.transactionsReplayed(),
          after.transactionReplaysRefused() - before.transactionReplaysRefused(), Arrays.toString(executed),
          balance(PRIMARY_PORT, 1), balance(PRIMARY_PORT, 2));
      assertThat(executed).as("each statement of the transaction ran once on the restarted primary")
          .containsExactly(1, 1, 1);
      assertThat(after.transactionsReplayed() - before.transactionsReplayed()).isEqualTo(1);
      assertThat(after.transactionReplaysRefused() - before.transactionReplaysRefused()).isZero();
      assertThat(balance(PRIMARY_PORT, 1)).as("debited once").isEqualTo(70);
      assertThat(balance(PRIMARY_PORT, 2)).as("credited once").isEqualTo(80);
      c.setAutoCommit(true);
      try (Statement s = c.createStatement()) {
        assertThat(s.executeUpdate("UPDATE " + ACCOUNTS + " SET balance = balance WHERE id = 1"))
            .as("the connection goes on").isEqualTo(1);
      }
    }
  }

  @Test
  void aTransactionInterruptedByASwitchoverIsReplayedOnceOnTheNewPrimary() throws Exception {
    int newPrimary = REPLICA_PORTS.get(0);
    try (Connection c = Topology.ryow(REPLAY)) {
      MetricsSnapshot before = metrics(c);
      long oldDebits = Topology.statementsLike(PRIMARY_PORT, DEBIT_DIGEST);
      long newDebits = Topology.statementsLike(newPrimary, DEBIT_DIGEST);
      long newSelects = Topology.statementsLike(newPrimary, SELECT_DIGEST);
      readAndDebit(c);
      Sandbox.run("switchover", "replica1");
      try (Statement s = c.createStatement()) {
        assertThat(s.executeUpdate(CREDIT)).as("refused by the demoted primary, then run after the replay")
            .isEqualTo(1);
      }
      c.commit();
      MetricsSnapshot after = metrics(c);
      long ranOld = Topology.statementsLike(PRIMARY_PORT, DEBIT_DIGEST) - oldDebits;
      long ranNew = Topology.statementsLike(newPrimary, DEBIT_DIGEST) - newDebits;
      long readNew = Topology.statementsLike(newPrimary, SELECT_DIGEST) - newSelects;
      System.out.printf("REPLAY switchover primary -> replica1: replayed %d, refused %d; the debit ran %d times on"
              + " the old primary (rolled back), %d on the new one (read %d); balances %d/%d%n",
          after.transactionsReplayed() - before.transactionsReplayed(),
          after.transactionReplaysRefused() - before.transactionReplaysRefused(), ranOld, ranNew, readNew,
          balance(newPrimary, 1), balance(newPrimary, 2));
      assertThat(after.transactionsReplayed() - before.transactionsReplayed()).isEqualTo(1);
      assertThat(ranOld).as("the original debit, on the old primary").isEqualTo(1);
      assertThat(ranNew).as("the replayed debit, on the new primary").isEqualTo(1);
      assertThat(readNew).as("the replayed read, on the new primary").isEqualTo(1);
      assertThat(balance(newPrimary, 1)).as("debited once").isEqualTo(70);
      assertThat(balance(newPrimary, 2)).as("credited once").isEqualTo(80);
    }
  }

  /**
   * A transaction opened with SQL ({@code START TRANSACTION}, autocommit on) whose prepared inserts read
   * their generated keys: replayed on the new primary of a switchover with its parameters, and accepted
   * because the keys it read come out the same there (the new primary never saw the rolled-back insert).
   */
  @Test
  void aTransactionOpenedWithSqlReplaysItsParametersAndComparesItsGeneratedKeys() throws Exception {
    int newPrimary = REPLICA_PORTS.get(0);
    try (Connection c = Topology.ryow(REPLAY);
        Statement s = c.createStatement();
        PreparedStatement insert = c.prepareStatement("INSERT INTO " + COMMITS + " (k) VALUES (?)",
            Statement.RETURN_GENERATED_KEYS)) {
      MetricsSnapshot before = metrics(c);
      s.execute("START TRANSACTION");
      insert.setInt(1, 7);
      assertThat(insert.executeUpdate()).isEqualTo(1);
      long firstId;
      try (ResultSet keys = insert.getGeneratedKeys()) {
        assertThat(keys.next()).isTrue();
        firstId = keys.getLong(1);
        assertThat(keys.next()).isFalse();
      }
      Sandbox.run("switchover", "replica1");
      insert.setInt(1, 8);
      assertThat(insert.executeUpdate()).as("after the replay, on the new primary").isEqualTo(1);
      s.execute("COMMIT");
      MetricsSnapshot after = metrics(c);
      long sevens = Topology.queryLong(newPrimary, "SELECT COUNT(*) FROM " + COMMITS + " WHERE k = 7 AND id = " + firstId);
      long eights = Topology.queryLong(newPrimary, "SELECT COUNT(*) FROM " + COMMITS + " WHERE k = 8");
      long oldRows = Topology.queryLong(PRIMARY_PORT, "SELECT COUNT(*) FROM " + COMMITS + " WHERE k IN (7, 8)");
      System.out.printf("REPLAY START TRANSACTION, prepared inserts, generated keys read, switchover: replayed %d,"
              + " refused %d; on the new primary k=7 with the id read (%d) %d time(s), k=8 %d time(s)%n",
          after.transactionsReplayed() - before.transactionsReplayed(),
          after.transactionReplaysRefused() - before.transactionReplaysRefused(), firstId, sevens, eights);
      assertThat(after.transactionsReplayed() - before.transactionsReplayed()).isEqualTo(1);
      assertThat(sevens).as("the replayed insert, with the key the application read").isEqualTo(1);
      assertThat(eights).isEqualTo(1);
      Topology.awaitReplicasCaughtUp();
      assertThat(Topology.queryLong(PRIMARY_PORT, "SELECT COUNT(*) FROM " + COMMITS + " WHERE k IN (7, 8)"))
          .as("replicated once to the demoted primary (%d rows there before)", oldRows).isEqualTo(2);
    }
  }

  @Test
  void aTransactionWhoseReadsChangedBeforeTheReplayGetsTheOriginalError() throws Exception {
    try (Connection c = Topology.ryow(REPLAY)) {
      MetricsSnapshot before = metrics(c);
      readAndDebit(c);
      killAndRestartPrimary();
      Topology.exec(PRIMARY_PORT, "UPDATE " + ACCOUNTS + " SET balance = 500 WHERE id = 1"); // another client
      try (Statement s = c.createStatement()) {
        assertThatThrownBy(() -> s.executeUpdate(CREDIT))
            .isInstanceOf(SQLTransientConnectionException.class)
            .hasMessageContaining("was lost while this statement ran; it was not run again (inside a transaction)")
            .satisfies(e -> {
              assertThat(((SQLException) e).getSQLState()).isEqualTo("08S01");
              assertThat(e.getSuppressed()).extracting(Throwable::getMessage)
                  .anySatisfy(m -> assertThat(m).contains("Transaction replay refused").contains("rows it read differ"));
            });
      }
      c.rollback();
      MetricsSnapshot after = metrics(c);
      System.out.printf("REPLAY reads changed before the replay: replayed %d, refused %d; balances %d/%d%n",
          after.transactionsReplayed() - before.transactionsReplayed(),
          after.transactionReplaysRefused() - before.transactionReplaysRefused(), balance(PRIMARY_PORT, 1),
          balance(PRIMARY_PORT, 2));
      assertThat(after.transactionReplaysRefused() - before.transactionReplaysRefused()).isEqualTo(1);
      assertThat(after.transactionsReplayed() - before.transactionsReplayed()).isZero();
      assertThat(balance(PRIMARY_PORT, 1)).as("the other client's value, not debited").isEqualTo(500);
      assertThat(balance(PRIMARY_PORT, 2)).as("not credited").isEqualTo(50);
      c.setAutoCommit(true);
      try (Statement s = c.createStatement()) {
        assertThat(s.executeUpdate(CREDIT)).as("the connection goes on").isEqualTo(1);
      }
    }
  }

  @Test
  void aCommitInFlightAtTheKillIsNeverAppliedTwice() throws Exception {
    for (boolean sqlCommit : new boolean[] {false, true}) {
      int k = sqlCommit ? 2 : 1;
      try (Connection c = Topology.ryow(REPLAY)) {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
          s.executeUpdate("INSERT INTO " + COMMITS + " (k) VALUES (" + k + ")");
        }
        Throwable failure;
        try (Connection lock = Topology.plain(PRIMARY_PORT); Statement l = lock.createStatement()) {
          l.execute("FLUSH TABLES WITH READ LOCK"); // the COMMIT waits for it on the server: in flight
          CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
            try {
              if (sqlCommit) {
                try (Statement s = c.createStatement()) {
                  s.execute("COMMIT");
                }
              } else {
                c.commit();
              }
            } catch (SQLException e) {
              throw new IllegalStateException(e);
            }
          });
          awaitCommitWaiting();
          Sandbox.run("kill", "primary");
          try {
            commit.get(60, TimeUnit.SECONDS);
            failure = null;
          } catch (ExecutionException e) {
            failure = e.getCause().getCause();
          }
        }
        Sandbox.run("restart", "primary");
        long rows = Topology.queryLong(PRIMARY_PORT, "SELECT COUNT(*) FROM " + COMMITS + " WHERE k = " + k);
        System.out.printf("REPLAY %s in flight at the kill: the application got %s; rows %d%n",
            sqlCommit ? "SQL COMMIT" : "commit()", failure, rows);
        assertThat(failure).as("the commit's outcome is unknown: an error, never a silent replay").isNotNull();
        assertThat(rows).as("the row exists at most once").isLessThanOrEqualTo(1);
        c.rollback();
        try (Statement s = c.createStatement()) {
          s.executeUpdate("INSERT INTO " + COMMITS + " (k) VALUES (" + (k + 10) + ")");
        }
        c.commit();
        assertThat(Topology.queryLong(PRIMARY_PORT, "SELECT COUNT(*) FROM " + COMMITS + " WHERE k = " + k))
            .as("still at most once after the connection went on").isEqualTo(rows);
      }
    }
  }

  /** Until a session on the primary waits for the commit lock (the read lock holds its COMMIT). */
  private static void awaitCommitWaiting() throws Exception {
    for (int i = 0; i < 300; i++) {
      if (Topology.queryLong(PRIMARY_PORT, "SELECT COUNT(*) FROM information_schema.processlist"
          + " WHERE LOWER(info) = 'commit' AND state LIKE 'Waiting for%'") > 0) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no COMMIT waited for the read lock within 30 s");
  }

  @Test
  void withTheSettingOffTheSameInterruptionGivesTheOriginalError() throws Exception {
    try (Connection c = Topology.ryow()) {
      readAndDebit(c);
      killAndRestartPrimary();
      try (Statement s = c.createStatement()) {
        assertThatThrownBy(() -> s.executeUpdate(CREDIT))
            .isInstanceOf(SQLTransientConnectionException.class)
            .hasMessageContaining("was lost while this statement ran; it was not run again (inside a transaction)")
            .satisfies(e -> {
              assertThat(((SQLException) e).getSQLState()).isEqualTo("08S01");
              assertThat(e.getSuppressed()).isEmpty();
            });
      }
      c.rollback();
      assertThat(Topology.statementsLike(PRIMARY_PORT, SELECT_DIGEST)).as("nothing replayed").isZero();
      assertThat(Topology.statementsLike(PRIMARY_PORT, DEBIT_DIGEST)).as("nothing replayed").isZero();
      assertThat(balance(PRIMARY_PORT, 1)).as("the transaction was lost, not replayed").isEqualTo(100);
      assertThat(balance(PRIMARY_PORT, 2)).isEqualTo(50);
    }
  }
}
