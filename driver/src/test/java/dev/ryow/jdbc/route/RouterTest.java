package dev.ryow.jdbc.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.sql.StatementKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class RouterTest {

  @ParameterizedTest(name = "{0} autoCommit={1} readOnly={2} sqlTx={3} pinned={4} -> {5}")
  @CsvSource({
    "READ, true,  false, NONE, false, REPLICA",
    "READ, true,  true,  NONE, false, REPLICA",
    "READ, false, false, NONE, false, PRIMARY",
    "READ, false, true,  NONE, false, REPLICA",
    "READ, true,  false, ON_PRIMARY, false, PRIMARY",
    "READ, true,  true,  ON_PRIMARY, false, PRIMARY",
    "READ, true,  false, NONE, true,  PRIMARY",
    "READ, false, true,  NONE, true,  PRIMARY",
    "READ, true,  false, READ_ONLY_ON_REPLICA, false, REPLICA",
    "PRIMARY_READ, true, true, NONE, false, PRIMARY",
    "WRITE, true, false, NONE, false, PRIMARY",
    "WRITE, false, true, NONE, false, PRIMARY",
    "BEGIN, true, false, NONE, false, PRIMARY",
    "BEGIN_READ_ONLY, true, false, NONE, false, REPLICA",
    "BEGIN_READ_ONLY, false, false, NONE, false, PRIMARY",
    "BEGIN_READ_ONLY, true, false, NONE, true, PRIMARY",
    "COMMIT, true, false, READ_ONLY_ON_REPLICA, false, REPLICA",
    "ROLLBACK, true, false, READ_ONLY_ON_REPLICA, false, REPLICA",
    "WRITE, true, false, READ_ONLY_ON_REPLICA, false, REPLICA",
    "COMMIT, true, false, ON_PRIMARY, false, PRIMARY",
  })
  void routes(
      StatementKind kind, boolean autoCommit, boolean readOnly, SqlTransaction sqlTx, boolean pinned, Target expected) {
    assertThat(Router.route(kind, tx(autoCommit, readOnly, sqlTx, pinned))).isEqualTo(expected);
  }

  @ParameterizedTest
  @EnumSource(value = StatementKind.class, names = {"READ", "BEGIN_READ_ONLY"}, mode = EnumSource.Mode.EXCLUDE)
  void outsideAReplicaTransactionOnlyReadsEverLeaveThePrimary(StatementKind kind) {
    for (boolean autoCommit : new boolean[] {true, false}) {
      for (boolean readOnly : new boolean[] {true, false}) {
        assertThat(Router.route(kind, tx(autoCommit, readOnly, SqlTransaction.NONE, false))).isEqualTo(Target.PRIMARY);
        assertThat(Router.route(kind, tx(autoCommit, readOnly, SqlTransaction.ON_PRIMARY, false))).isEqualTo(Target.PRIMARY);
      }
    }
  }

  private static TransactionState tx(boolean autoCommit, boolean readOnly, SqlTransaction sqlTx, boolean pinned) {
    return TransactionState.of(autoCommit, readOnly, sqlTx, false, false, pinned);
  }
}
