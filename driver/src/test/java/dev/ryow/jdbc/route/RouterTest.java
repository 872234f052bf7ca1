package dev.ryow.jdbc.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.sql.StatementKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class RouterTest {

  @ParameterizedTest(name = "{0} autoCommit={1} readOnly={2} sqlTx={3} pinned={4} -> {5}")
  @CsvSource({
    "READ, true,  false, false, false, REPLICA",
    "READ, true,  true,  false, false, REPLICA",
    "READ, false, false, false, false, PRIMARY",
    "READ, false, true,  false, false, REPLICA",
    "READ, true,  false, true,  false, PRIMARY",
    "READ, true,  true,  true,  false, PRIMARY",
    "READ, true,  false, false, true,  PRIMARY",
    "PRIMARY_READ, true, true, false, false, PRIMARY",
    "WRITE, true, false, false, false, PRIMARY",
    "WRITE, false, true, false, false, PRIMARY",
  })
  void routes(StatementKind kind, boolean autoCommit, boolean readOnly, boolean sqlTx, boolean pinned, Target expected) {
    assertThat(Router.route(kind, autoCommit, readOnly, sqlTx, pinned)).isEqualTo(expected);
  }

  @ParameterizedTest
  @EnumSource(value = StatementKind.class, names = "READ", mode = EnumSource.Mode.EXCLUDE)
  void onlyReadsEverLeaveThePrimary(StatementKind kind) {
    for (boolean autoCommit : new boolean[] {true, false}) {
      for (boolean readOnly : new boolean[] {true, false}) {
        assertThat(Router.route(kind, autoCommit, readOnly, false, false)).isEqualTo(Target.PRIMARY);
      }
    }
  }
}
