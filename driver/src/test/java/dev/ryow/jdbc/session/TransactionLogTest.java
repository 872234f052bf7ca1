package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.route.RetryRule.Replay;
import dev.ryow.jdbc.sql.StatementKind;
import java.io.ByteArrayInputStream;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The bounded transaction log of {@code ryow.transactionReplay}: what it records, its cap, what cuts it. */
class TransactionLogTest {
  private final TransactionLog log = new TransactionLog();
  private final Execution x = new Execution(new Object());

  private TransactionLog.Entry ran(StatementKind kind, String sql) {
    return log.ran(x.of(kind, sql, 0, false), true, true);
  }

  private Execution next(StatementKind kind, String sql) {
    return new Execution(new Object()).of(kind, sql, 0, false);
  }

  @Test
  void recordsEachStatementOfATransactionInOrderAndForgetsThemWhenItEnds() {
    x.statementOf("app", null);
    assertThat(ran(StatementKind.READ, "SELECT v FROM t WHERE id = 1")).isNotNull();
    assertThat(ran(StatementKind.WRITE, "UPDATE t SET v = v + 1 WHERE id = 1")).isNotNull();
    assertThat(log.entries()).extracting(e -> e.sql)
        .containsExactly("SELECT v FROM t WHERE id = 1", "UPDATE t SET v = v + 1 WHERE id = 1");
    assertThat(log.entries()).extracting(e -> e.database).containsOnly("app");
    assertThat(log.state(next(StatementKind.WRITE, "INSERT INTO t VALUES (2, 2)"))).isEqualTo(Replay.RECORDED);

    assertThat(log.ran(x.of(StatementKind.WRITE, "INSERT INTO t VALUES (3, 3)", 0, false), true, false))
        .as("outside a transaction nothing is recorded").isNull();
    assertThat(log.entries()).isEmpty();
  }

  @Test
  void theParametersAreACopyTakenWhenTheStatementRan() throws SQLException {
    ParameterRecorder p = new ParameterRecorder();
    x.statementOf(null, p);
    p.setInt(1, 7);
    TransactionLog.Entry e = java.util.Objects.requireNonNull(ran(StatementKind.WRITE, "INSERT INTO t VALUES (?)"));
    p.setInt(1, 8);
    ParameterRecorder copy = java.util.Objects.requireNonNull(e.parameters);
    assertThat(copy).isNotSameAs(p);
    assertThat(copy.sizeEstimate()).isPositive();
  }

  @Test
  void passingTheStatementCapMakesTheLogIncompleteUntilTheTransactionEnds() {
    for (int i = 0; i < TransactionLog.MAX_STATEMENTS; i++) {
      assertThat(ran(StatementKind.WRITE, "INSERT INTO t VALUES (" + i + ")")).isNotNull();
    }
    assertThat(log.state(next(StatementKind.WRITE, "INSERT INTO t VALUES (0)"))).isEqualTo(Replay.RECORDED);
    assertThat(ran(StatementKind.WRITE, "INSERT INTO t VALUES (-1)")).as("one past the cap").isNull();
    assertThat(log.entries()).as("dropped: they can no longer be replayed").isEmpty();
    assertThat(log.state(next(StatementKind.WRITE, "INSERT INTO t VALUES (0)"))).isEqualTo(Replay.INCOMPLETE);
    assertThat(ran(StatementKind.WRITE, "INSERT INTO t VALUES (-2)")).isNull();

    log.clear();
    assertThat(log.state(next(StatementKind.WRITE, "INSERT INTO t VALUES (0)"))).isEqualTo(Replay.RECORDED);
  }

  @Test
  void passingTheByteCapMakesTheLogIncomplete() {
    String big = "INSERT INTO t VALUES ('" + "x".repeat((int) (TransactionLog.MAX_BYTES / 2 / 2)) + "')";
    assertThat(ran(StatementKind.WRITE, big)).as("half the cap").isNotNull();
    assertThat(ran(StatementKind.WRITE, big)).as("over the cap with the entries' overhead").isNull();
    assertThat(log.state(next(StatementKind.READ, "SELECT 1"))).isEqualTo(Replay.INCOMPLETE);
  }

  @Test
  void statementsThatCannotBeReplayedCutTheLog() throws SQLException {
    for (String sql : new String[] {"CREATE TABLE u (id INT)", "/* x */ drop table u", "truncate u",
        "LOCK TABLES t WRITE", "SELECT 1; ALTER TABLE t ADD c INT", ""}) {
      log.clear();
      ran(StatementKind.READ, "SELECT 1");
      assertThat(ran(StatementKind.WRITE, sql)).as(sql).isNull();
      assertThat(log.state(next(StatementKind.READ, "SELECT 1"))).as(sql).isEqualTo(Replay.INCOMPLETE);
    }

    log.clear();
    ParameterRecorder p = new ParameterRecorder();
    p.setBinaryStream(1, new ByteArrayInputStream(new byte[3]), 3);
    x.statementOf(null, p);
    assertThat(ran(StatementKind.WRITE, "INSERT INTO t VALUES (?)")).as("a stream is read once").isNull();
    assertThat(log.state(next(StatementKind.READ, "SELECT 1"))).isEqualTo(Replay.INCOMPLETE);

    log.clear();
    x.statementOf(null, null);
    ran(StatementKind.READ, "SELECT 1");
    assertThat(log.ran(x.of(StatementKind.READ, "SELECT 2", 0, false), false, true)).as("on a replica").isNull();
    assertThat(log.state(next(StatementKind.READ, "SELECT 1"))).isEqualTo(Replay.INCOMPLETE);
  }

  @Test
  void aGtidArrivingInsideTheTransactionMeansSomethingCommittedIt() {
    ran(StatementKind.WRITE, "INSERT INTO t VALUES (1)");
    log.committed();
    assertThat(log.state(next(StatementKind.WRITE, "INSERT INTO t VALUES (2)"))).isEqualTo(Replay.INCOMPLETE);
    assertThat(log.whyIncomplete(next(StatementKind.WRITE, "INSERT INTO t VALUES (2)")))
        .contains("committed the transaction implicitly");
  }

  @Test
  void startTransactionOpensTheLogButNotInTheMiddleOfOne() {
    assertThat(ran(StatementKind.BEGIN, "START TRANSACTION")).as("the first statement").isNotNull();
    assertThat(ran(StatementKind.WRITE, "INSERT INTO t VALUES (1)")).isNotNull();
    assertThat(ran(StatementKind.BEGIN, "BEGIN")).as("commits what ran before it").isNull();
    assertThat(log.state(next(StatementKind.READ, "SELECT 1"))).isEqualTo(Replay.INCOMPLETE);

    log.clear();
    ran(StatementKind.WRITE, "INSERT INTO t VALUES (1)");
    assertThat(ran(StatementKind.BEGIN, "COMMIT AND CHAIN")).as("commits, then opens the next one").isNull();
    assertThat(log.state(next(StatementKind.READ, "SELECT 1"))).isEqualTo(Replay.INCOMPLETE);
  }

  @Test
  void aFailedStatementThatMayCommitImplicitlyIsNotReplayed() {
    ran(StatementKind.WRITE, "INSERT INTO t VALUES (1)");
    assertThat(log.state(next(StatementKind.WRITE, "ALTER TABLE t ADD c INT"))).isEqualTo(Replay.INCOMPLETE);
    assertThat(log.state(next(StatementKind.WRITE, "INSERT INTO t VALUES (2)"))).isEqualTo(Replay.RECORDED);
  }
}
