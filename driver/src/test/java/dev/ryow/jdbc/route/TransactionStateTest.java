package dev.ryow.jdbc.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.sql.StatementKind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The transaction state machine's table: one row per transition, in {@link TransactionState#toString}'s
 * notation ({@code autocommit|manual [read-only] NONE|ON_PRIMARY|READ_ONLY_ON_REPLICA [started]
 * [holds-primary] [pinned]}). A changed rule changes a row's outcome and fails it.
 */
class TransactionStateTest {

  @ParameterizedTest(name = "{0} --{1}--> {2}")
  @CsvSource(delimiter = '|', textBlock = """
      # autocommit, no transaction: statements change nothing but the pin
      autocommit NONE                          | ran READ on replica          | autocommit NONE
      autocommit NONE                          | ran WRITE on primary         | autocommit NONE
      autocommit NONE                          | ran SESSION_PIN on primary   | autocommit NONE pinned
      autocommit NONE pinned                   | ran COMMIT on primary        | autocommit NONE pinned
      # transactions opened with SQL
      autocommit NONE                          | ran BEGIN on primary         | autocommit ON_PRIMARY holds-primary
      autocommit NONE                          | ran BEGIN_READ_ONLY on replica | autocommit READ_ONLY_ON_REPLICA
      autocommit NONE                          | ran BEGIN_READ_ONLY on primary | autocommit ON_PRIMARY holds-primary
      autocommit ON_PRIMARY holds-primary      | ran WRITE on primary         | autocommit ON_PRIMARY holds-primary
      autocommit ON_PRIMARY holds-primary      | ran COMMIT on primary        | autocommit NONE
      autocommit ON_PRIMARY holds-primary      | ran ROLLBACK on primary      | autocommit NONE
      autocommit READ_ONLY_ON_REPLICA          | ran READ on replica          | autocommit READ_ONLY_ON_REPLICA
      autocommit READ_ONLY_ON_REPLICA          | ran COMMIT on replica        | autocommit NONE
      # JDBC transactions (autocommit off)
      manual NONE                              | ran READ on replica          | manual NONE started
      manual read-only NONE                    | ran READ on replica          | manual read-only NONE started
      manual NONE                              | ran WRITE on primary         | manual NONE started holds-primary
      manual NONE started                      | ran SET_SESSION on primary   | manual NONE started holds-primary
      manual NONE started holds-primary        | ran READ on replica          | manual NONE started holds-primary
      manual NONE started holds-primary        | ran COMMIT on primary        | manual NONE
      manual NONE                              | ran BEGIN on primary         | manual ON_PRIMARY started holds-primary
      manual NONE started holds-primary        | ran SESSION_PIN on primary   | manual NONE started holds-primary pinned
      manual NONE started holds-primary pinned | ended                        | manual NONE pinned
      manual read-only NONE started            | ended                        | manual read-only NONE
      # setAutoCommit
      autocommit NONE                          | autoCommit off               | manual NONE
      manual NONE started holds-primary        | autoCommit on                | autocommit NONE
      manual ON_PRIMARY started holds-primary  | autoCommit on                | autocommit NONE
      manual NONE started                      | autoCommit off               | manual NONE started
      autocommit ON_PRIMARY holds-primary      | autoCommit off               | manual ON_PRIMARY holds-primary
      # setReadOnly: refused once a transaction started
      autocommit NONE                          | readOnly on                  | autocommit read-only NONE
      manual read-only NONE                    | readOnly off                 | manual NONE
      manual NONE started                      | readOnly on                  | refused
      autocommit ON_PRIMARY holds-primary      | readOnly on                  | refused
      manual NONE started                      | readOnly off                 | manual NONE started
      """)
  void transitions(String from, String event, String to) {
    TransactionState next = apply(parse(from), event);
    assertThat(next == null ? "refused" : next.toString()).isEqualTo(to);
  }

  @Test
  void everyStateIsReadBackFromItsName() {
    for (TransactionState s : TransactionState.all()) {
      assertThat(parse(s.toString())).isSameAs(s);
    }
  }

  @Test
  void invariantsHoldAfterEveryTransitionFromEveryReachableState() {
    for (TransactionState s : reachable()) {
      for (String event : events()) {
        TransactionState next = apply(s, event);
        if (next == null) {
          assertThat(s.started() || s.sqlTransaction() != SqlTransaction.NONE).as("%s refused %s", s, event).isTrue();
          continue;
        }
        boolean ends = event.equals("ended") || event.startsWith("ran COMMIT") || event.startsWith("ran ROLLBACK");
        if (event.startsWith("ran") && !ends && s.holdsPrimary()) {
          assertThat(next.holdsPrimary()).as("%s --%s--> %s keeps its primary", s, event, next).isTrue();
        }
        if (event.startsWith("ran") && !ends && next.inTransaction() && event.endsWith("on primary")) {
          assertThat(next.holdsPrimary()).as("%s --%s--> %s", s, event, next).isTrue();
        }
        if (!next.inTransaction()) {
          assertThat(next.started()).as("%s --%s--> %s", s, event, next).isFalse();
        }
        if (s.pinned()) {
          assertThat(next.pinned()).as("a pin lasts: %s --%s--> %s", s, event, next).isTrue();
        }
        if (ends) {
          assertThat(next.sqlTransaction()).isEqualTo(SqlTransaction.NONE);
          assertThat(next.holdsPrimary()).isFalse();
          assertThat(next.autoCommit()).isEqualTo(s.autoCommit());
          assertThat(next.readOnly()).isEqualTo(s.readOnly());
        }
      }
    }
  }

  @Test
  void transitionsNeverAllocate() {
    TransactionState s = TransactionState.INITIAL;
    assertThat(s.withAutoCommit(false).ran(StatementKind.WRITE, true))
        .isSameAs(TransactionState.of(false, false, SqlTransaction.NONE, true, true, false));
  }

  /** Every state reachable from {@link TransactionState#INITIAL} by the transitions. */
  private static java.util.Set<TransactionState> reachable() {
    java.util.Set<TransactionState> seen = new java.util.LinkedHashSet<>(List.of(TransactionState.INITIAL));
    java.util.ArrayDeque<TransactionState> todo = new java.util.ArrayDeque<>(seen);
    while (!todo.isEmpty()) {
      TransactionState s = todo.poll();
      for (String event : events()) {
        TransactionState next = apply(s, event);
        if (next != null && seen.add(next)) {
          todo.add(next);
        }
      }
    }
    assertThat(seen).as("reachable states").hasSizeBetween(10, TransactionState.all().size());
    return seen;
  }

  private static List<String> events() {
    List<String> events = new java.util.ArrayList<>(List.of("ended", "autoCommit on", "autoCommit off", "readOnly on",
        "readOnly off"));
    for (StatementKind kind : StatementKind.values()) {
      events.add("ran " + kind + " on primary");
      events.add("ran " + kind + " on replica");
    }
    return events;
  }

  private static TransactionState apply(TransactionState s, String event) {
    String[] w = event.split(" ");
    return switch (w[0]) {
      case "ran" -> s.ran(StatementKind.valueOf(w[1]), w[3].equals("primary"));
      case "ended" -> s.ended();
      case "autoCommit" -> s.withAutoCommit(w[1].equals("on"));
      case "readOnly" -> s.withReadOnly(w[1].equals("on"));
      default -> throw new IllegalArgumentException(event);
    };
  }

  private static TransactionState parse(String name) {
    List<String> w = List.of(name.strip().split("\\s+"));
    SqlTransaction sql = w.contains("ON_PRIMARY") ? SqlTransaction.ON_PRIMARY
        : w.contains("READ_ONLY_ON_REPLICA") ? SqlTransaction.READ_ONLY_ON_REPLICA : SqlTransaction.NONE;
    return TransactionState.of(w.get(0).equals("autocommit"), w.contains("read-only"), sql, w.contains("started"),
        w.contains("holds-primary"), w.contains("pinned"));
  }
}
