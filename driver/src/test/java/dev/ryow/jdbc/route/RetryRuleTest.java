package dev.ryow.jdbc.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.route.RetryRule.Failure;
import dev.ryow.jdbc.route.RetryRule.Replay;
import dev.ryow.jdbc.route.RetryRule.Retry;
import dev.ryow.jdbc.sql.StatementKind;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.EnumSet;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The retry rule's whole table. {@link #TABLE} lists every case in which a failed statement runs again;
 * every other combination of kind, server, failure, transaction, pin, route and transaction log throws.
 * The test compares the rule with the table over all combinations, so changing, adding or removing a row
 * of either fails it.
 */
class RetryRuleTest {
  /**
   * ran on | kind (OTHER: every kind but READ and PRIMARY_READ) | failure | in transaction | pinned |
   * replica route (the router sent it to the replicas; any: either) | transaction log (any: every
   * {@link Replay}) | retry.
   */
  private static final String TABLE = """
      REPLICA | READ              | READ_ONLY_REFUSAL | no  | no  | any | any        | ON_PRIMARY_AS_WRITE
      REPLICA | READ              | READ_ONLY_REFUSAL | no  | yes | any | any        | ON_PRIMARY_AS_WRITE
      REPLICA | READ              | CONNECTION_LOST   | no  | no  | any | any        | ELSEWHERE
      REPLICA | READ              | CONNECTION_LOST   | no  | yes | any | any        | ELSEWHERE
      PRIMARY | READ              | READ_ONLY_REFUSAL | no  | no  | any | any        | NEW_PRIMARY
      PRIMARY | READ              | CONNECTION_LOST   | no  | no  | no  | any        | NEW_PRIMARY
      PRIMARY | READ              | CONNECTION_LOST   | no  | no  | yes | any        | REPLICA_OR_PRIMARY
      PRIMARY | READ              | CALLER_TIMEOUT    | no  | no  | any | any        | NEW_PRIMARY
      PRIMARY | PRIMARY_READ      | READ_ONLY_REFUSAL | no  | no  | any | any        | NEW_PRIMARY
      PRIMARY | PRIMARY_READ      | CONNECTION_LOST   | no  | no  | any | any        | NEW_PRIMARY
      PRIMARY | PRIMARY_READ      | CALLER_TIMEOUT    | no  | no  | any | any        | NEW_PRIMARY
      PRIMARY | OTHER             | READ_ONLY_REFUSAL | no  | no  | any | any        | NEW_PRIMARY
      PRIMARY | READ              | CONNECTION_LOST   | yes | no  | any | RECORDED   | REPLAY_TRANSACTION
      PRIMARY | READ              | READ_ONLY_REFUSAL | yes | no  | any | RECORDED   | REPLAY_TRANSACTION
      PRIMARY | PRIMARY_READ      | CONNECTION_LOST   | yes | no  | any | RECORDED   | REPLAY_TRANSACTION
      PRIMARY | PRIMARY_READ      | READ_ONLY_REFUSAL | yes | no  | any | RECORDED   | REPLAY_TRANSACTION
      PRIMARY | WRITE             | CONNECTION_LOST   | yes | no  | any | RECORDED   | REPLAY_TRANSACTION
      PRIMARY | WRITE             | READ_ONLY_REFUSAL | yes | no  | any | RECORDED   | REPLAY_TRANSACTION
      PRIMARY | SET_SESSION       | CONNECTION_LOST   | yes | no  | any | RECORDED   | REPLAY_TRANSACTION
      PRIMARY | SET_SESSION       | READ_ONLY_REFUSAL | yes | no  | any | RECORDED   | REPLAY_TRANSACTION
      PRIMARY | USE               | CONNECTION_LOST   | yes | no  | any | RECORDED   | REPLAY_TRANSACTION
      PRIMARY | USE               | READ_ONLY_REFUSAL | yes | no  | any | RECORDED   | REPLAY_TRANSACTION
      PRIMARY | SAVEPOINT_CONTROL | CONNECTION_LOST   | yes | no  | any | RECORDED   | REPLAY_TRANSACTION
      PRIMARY | SAVEPOINT_CONTROL | READ_ONLY_REFUSAL | yes | no  | any | RECORDED   | REPLAY_TRANSACTION
      """;

  @Test
  void theRuleIsExactlyTheTable() {
    Map<String, Retry> expected = new TreeMap<>();
    TABLE.lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(line -> {
      String[] c = line.split("\\s*\\|\\s*");
      for (StatementKind kind : kinds(c[1])) {
        for (boolean route : routes(c[5])) {
          for (Replay replay : replays(c[6])) {
            expected.put(key(Target.valueOf(c[0]), kind, Failure.valueOf(c[2]), c[3].equals("yes"), c[4].equals("yes"),
                route, replay), Retry.valueOf(c[7]));
          }
        }
      }
    });
    Map<String, Retry> actual = new TreeMap<>();
    Map<String, Retry> tableOrThrow = new TreeMap<>();
    for (Target on : Target.values()) {
      for (StatementKind kind : StatementKind.values()) {
        for (Failure failure : Failure.values()) {
          for (boolean inTransaction : new boolean[] {false, true}) {
            for (boolean pinned : new boolean[] {false, true}) {
              for (boolean route : new boolean[] {false, true}) {
                for (Replay replay : Replay.values()) {
                  String key = key(on, kind, failure, inTransaction, pinned, route, replay);
                  actual.put(key, RetryRule.decide(kind, on, failure, inTransaction, pinned, route, replay));
                  tableOrThrow.put(key, expected.getOrDefault(key, Retry.THROW));
                }
              }
            }
          }
        }
      }
    }
    assertThat(expected).as("every row of the table is a real combination")
        .allSatisfy((k, v) -> assertThat(actual).containsKey(k));
    assertThat(actual).isEqualTo(tableOrThrow);
  }

  /** retries so far (how many times the execution already ran again) | decided once more. */
  private static final String ATTEMPTS = """
      0 | yes
      1 | yes
      2 | no
      3 | no
      """;

  @Test
  void anExecutionRunsAgainAtMostTwice() {
    ATTEMPTS.lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(line -> {
      String[] c = line.split("\\s*\\|\\s*");
      assertThat(RetryRule.mayRunAgain(Integer.parseInt(c[0]))).as(line).isEqualTo(c[1].equals("yes"));
    });
    assertThat(RetryRule.MAX_RETRIES).isEqualTo(2);
  }

  @Test
  void nothingInsideATransactionRunsTwiceWithoutTheWholeTransactionRecorded() {
    for (Target on : Target.values()) {
      for (StatementKind kind : StatementKind.values()) {
        for (Failure failure : Failure.values()) {
          for (boolean route : new boolean[] {false, true}) {
            for (Replay replay : new Replay[] {Replay.OFF, Replay.INCOMPLETE}) {
              assertThat(RetryRule.decide(kind, on, failure, true, false, route, replay)).isEqualTo(Retry.THROW);
            }
            assertThat(RetryRule.decide(kind, on, failure, true, false, route, Replay.RECORDED))
                .as("inside a transaction, only a replay").isIn(Retry.THROW, Retry.REPLAY_TRANSACTION);
          }
        }
      }
    }
  }

  @Test
  void aCommitOrAStatementThatEndsOrOpensATransactionIsNeverReplayed() {
    for (StatementKind kind : new StatementKind[] {StatementKind.COMMIT, StatementKind.ROLLBACK, StatementKind.BEGIN,
        StatementKind.BEGIN_READ_ONLY, StatementKind.SESSION_PIN}) {
      for (Failure failure : Failure.values()) {
        for (Target on : Target.values()) {
          assertThat(RetryRule.decide(kind, on, failure, true, false, false, Replay.RECORDED)).as("%s", kind)
              .isEqualTo(Retry.THROW);
        }
      }
    }
  }

  @Test
  void theCallersOwnTimeoutNeverReplaysATransaction() {
    for (StatementKind kind : StatementKind.values()) {
      assertThat(RetryRule.decide(kind, Target.PRIMARY, Failure.CALLER_TIMEOUT, true, false, false, Replay.RECORDED))
          .as("the transaction may still run on the old server").isEqualTo(Retry.THROW);
    }
  }

  @Test
  void aWriteWhoseConnectionFailedMayHaveCommittedAndNeverRunsAgain() {
    for (Failure failure : new Failure[] {Failure.CONNECTION_LOST, Failure.CALLER_TIMEOUT}) {
      for (boolean route : new boolean[] {false, true}) {
        for (Replay replay : Replay.values()) {
          assertThat(RetryRule.decide(StatementKind.WRITE, Target.PRIMARY, failure, false, false, route, replay))
              .isEqualTo(Retry.THROW);
        }
      }
    }
  }

  @Test
  void failuresAreClassifiedCallerTimeoutFirst() throws Exception {
    SQLException timeout = new SQLNonTransientConnectionException("read timed out", "08S01");
    timeout.initCause(new SocketTimeoutException("Read timed out"));
    assertThat(Failure.of(timeout)).isEqualTo(Failure.CALLER_TIMEOUT);
    assertThat(Failure.of(new SQLException("read only", "HY000", 1290))).isEqualTo(Failure.READ_ONLY_REFUSAL);
    assertThat(Failure.of(new SQLException("super read only", "HY000", 1836))).isEqualTo(Failure.READ_ONLY_REFUSAL);
    assertThat(Failure.of(new SQLException("link", "08S01"))).isEqualTo(Failure.CONNECTION_LOST);
    assertThat(Failure.of(new SQLNonTransientConnectionException("closed", "08003"))).isEqualTo(Failure.CONNECTION_LOST);
    assertThat(Failure.of(new SQLException("duplicate", "23000", 1062))).isEqualTo(Failure.OTHER);
  }

  private static Iterable<StatementKind> kinds(String group) {
    if (!group.equals("OTHER")) {
      return EnumSet.of(StatementKind.valueOf(group));
    }
    EnumSet<StatementKind> other = EnumSet.allOf(StatementKind.class);
    other.removeAll(EnumSet.of(StatementKind.READ, StatementKind.PRIMARY_READ));
    return other;
  }

  private static boolean[] routes(String route) {
    return switch (route) {
      case "any" -> new boolean[] {false, true};
      case "yes" -> new boolean[] {true};
      default -> new boolean[] {false};
    };
  }

  private static Replay[] replays(String replay) {
    return replay.equals("any") ? Replay.values() : new Replay[] {Replay.valueOf(replay)};
  }

  private static String key(Target on, StatementKind kind, Failure failure, boolean inTransaction, boolean pinned,
      boolean replicaRoute, Replay replay) {
    return Stream.of(on, kind, failure, inTransaction ? "in-tx" : "no-tx", pinned ? "pinned" : "-",
            replicaRoute ? "replica-route" : "primary-route", replay)
        .map(String::valueOf).reduce((a, b) -> a + " " + b).orElseThrow();
  }
}
