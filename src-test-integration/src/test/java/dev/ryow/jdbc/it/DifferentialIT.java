package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gate that keeps "swap the URL and nothing else changes" true: generated sequences of JDBC calls
 * (plain, prepared and updatable statements, result-set navigation and metadata, warnings, errors,
 * batches, session variables, autocommit, commit, rollback, savepoints, read-only by {@code setReadOnly}
 * and by SQL, {@code isReadOnly()} then {@code setReadOnly(false)} as a pool's reset) run once through
 * plain Connector/J on the primary and once through {@code jdbc:ryow:} on defaults, each on its own
 * copy of the same table, with no lag. What the application sees of every call (results, update
 * counts, exception class, SQLState, error code and message, warnings) must be identical, call by call;
 * a difference fails with the seed, the sequence and both answers.
 *
 * <p>Left out on purpose, as known and documented differences ({@code docs/connector-j.md}): casts to
 * Connector/J classes, and {@code setReadOnly} inside a transaction that has started (JDBC lets a driver
 * refuse it; the driver does, because the transaction's server is chosen).
 */
class DifferentialIT {
  private static final long SEED = Long.getLong("ryow.it.differentialSeed", 20261202L);
  private static final int SEQUENCES = 40;
  private static final int CALLS = 30;
  private static final String PLAIN_TABLE = "it_diff_plain";
  private static final String RYOW_TABLE = "it_diff_ryow";
  private static final String COLUMNS = "id INT PRIMARY KEY, v INT NOT NULL, s VARCHAR(20)";

  @BeforeEach
  void tables() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(PLAIN_TABLE, COLUMNS);
    Topology.recreateTable(RYOW_TABLE, COLUMNS);
  }

  /** One connection's state while a sequence runs. */
  private static final class World {
    final Connection c;
    final String table;
    Statement statement;
    boolean inTransaction;
    int nextId = 100;

    World(Connection c, String table) throws SQLException {
      this.c = c;
      this.table = table;
      this.statement = c.createStatement();
    }

    String sql(String template) {
      return template.replace("T", table);
    }
  }

  /** One call of a sequence: what it did, as the application sees it. */
  @FunctionalInterface
  interface Op {
    String run(World w, int k) throws SQLException;
  }

  private static final List<Op> OPS = List.of(
      (w, k) -> rows(w.statement.executeQuery(w.sql("SELECT id, v, s FROM T WHERE id <= " + k + " ORDER BY id"))),
      (w, k) -> "update " + w.statement.executeUpdate(w.sql("UPDATE T SET v = v + 1 WHERE id = " + k)),
      (w, k) -> "insert " + w.statement.executeUpdate(w.sql("INSERT INTO T VALUES (" + k + ", " + k * 10 + ", 'k" + k + "')")),
      (w, k) -> "insert new " + w.statement.executeUpdate(w.sql("INSERT INTO T VALUES (" + (w.nextId++) + ", 1, NULL)")),
      (w, k) -> {
        boolean result = w.statement.execute(w.sql("SELECT COUNT(*), SUM(v) FROM T"));
        return "execute " + result + " " + rows(w.statement.getResultSet()) + " count " + w.statement.getUpdateCount()
            + " more " + w.statement.getMoreResults();
      },
      (w, k) -> {
        try (PreparedStatement ps = w.c.prepareStatement(w.sql("SELECT v, s FROM T WHERE id = ? OR v > ?"))) {
          ps.setInt(1, k);
          ps.setLong(2, 1000L * k);
          return rows(ps.executeQuery()) + " " + meta(ps.getMetaData());
        }
      },
      (w, k) -> {
        try (PreparedStatement ps = w.c.prepareStatement(w.sql("UPDATE T SET s = ? WHERE id = ?"))) {
          ps.setString(1, "p" + k);
          ps.setInt(2, k);
          return "prepared update " + ps.executeUpdate();
        }
      },
      (w, k) -> {
        try (Statement s = w.c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY);
            ResultSet rs = s.executeQuery(w.sql("SELECT id FROM T ORDER BY id"))) {
          boolean last = rs.last();
          int row = rs.getRow();
          boolean first = rs.absolute(1);
          return "scroll last " + last + " row " + row + " absolute(1) " + first + " previous " + rs.previous()
              + " type " + rs.getType();
        }
      },
      (w, k) -> {
        try (Statement s = w.c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE);
            ResultSet rs = s.executeQuery(w.sql("SELECT id, v FROM T WHERE id = " + k))) {
          if (!rs.next()) {
            return "updatable: no row";
          }
          rs.updateInt("v", k * 3);
          rs.updateRow();
          return "updatable: updated " + rs.getInt("v");
        }
      },
      (w, k) -> {
        try (Statement s = w.c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1/0, CAST('x' AS SIGNED)")) {
          return rows(rs) + " warnings " + warnings(s.getWarnings());
        }
      },
      (w, k) -> {
        w.statement.addBatch(w.sql("UPDATE T SET v = v + 2 WHERE id = " + k));
        w.statement.addBatch(w.sql("INSERT INTO T VALUES (" + (w.nextId++) + ", 2, 'batch')"));
        return "batch " + java.util.Arrays.toString(w.statement.executeBatch());
      },
      (w, k) -> {
        w.statement.execute("SET @ryow_diff = " + k);
        return rows(w.statement.executeQuery("SELECT @ryow_diff + 1"));
      },
      (w, k) -> "syntax " + w.statement.executeUpdate("SELEC wrong " + k),
      (w, k) -> rows(w.statement.executeQuery("SELECT * FROM it_diff_missing_" + k)),
      (w, k) -> {
        w.c.setAutoCommit(!w.c.getAutoCommit());
        w.inTransaction = false;
        return "autoCommit " + w.c.getAutoCommit();
      },
      (w, k) -> {
        w.c.commit();
        w.inTransaction = false;
        return "committed";
      },
      (w, k) -> {
        w.c.rollback();
        w.inTransaction = false;
        return "rolled back";
      },
      (w, k) -> {
        java.sql.Savepoint sp = w.c.setSavepoint();
        w.statement.executeUpdate(w.sql("UPDATE T SET v = 0 WHERE id = " + k));
        w.c.rollback(sp);
        return rows(w.statement.executeQuery(w.sql("SELECT v FROM T WHERE id = " + k)));
      },
      (w, k) -> {
        if (w.inTransaction) {
          return "isReadOnly " + w.c.isReadOnly();
        }
        w.c.setReadOnly(!w.c.isReadOnly());
        return "readOnly " + w.c.isReadOnly();
      },
      (w, k) -> {
        w.statement.setMaxRows(k % 3);
        return "maxRows " + w.statement.getMaxRows() + " " + rows(w.statement.executeQuery(w.sql("SELECT id FROM T")));
      },
      (w, k) -> {
        w.statement.close();
        String after = outcome(() -> w.statement.getMaxRows());
        w.statement = w.c.createStatement();
        return "closed statement: " + after;
      },
      (w, k) -> "isolation " + w.c.getTransactionIsolation() + " catalog " + w.c.getCatalog().replace(w.table, "T"),
      (w, k) -> {
        // SQL that changes the session's read-only mode behind the flag (issue 42, item 1)
        w.statement.execute(k % 2 == 0 ? "SET SESSION TRANSACTION READ WRITE" : "SET SESSION TRANSACTION READ ONLY");
        return "sql read-only " + (k % 2) + " isReadOnly " + w.c.isReadOnly();
      },
      (w, k) -> {
        // what a pool does on return: reads the flag, sets it back, and the next borrower writes
        boolean was = w.c.isReadOnly();
        if (!w.inTransaction) {
          w.c.setReadOnly(false);
        }
        return "was " + was + " then insert " + outcome(() -> w.statement.executeUpdate(
            w.sql("INSERT INTO T VALUES (" + (w.nextId++) + ", 3, 'reset')")));
      });

  private static String rows(ResultSet rs) throws SQLException {
    StringBuilder b = new StringBuilder("[");
    int n = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      b.append('(');
      for (int i = 1; i <= n; i++) {
        b.append(i > 1 ? "," : "").append(rs.getString(i));
      }
      b.append(')');
    }
    rs.close();
    return b.append(']').toString();
  }

  private static String meta(ResultSetMetaData md) throws SQLException {
    StringBuilder b = new StringBuilder("meta[");
    for (int i = 1; i <= md.getColumnCount(); i++) {
      b.append(md.getColumnLabel(i)).append(':').append(md.getColumnTypeName(i)).append(' ');
    }
    return b.append(']').toString();
  }

  private static String warnings(SQLWarning w) {
    StringBuilder b = new StringBuilder();
    for (SQLWarning x = w; x != null; x = x.getNextWarning()) {
      b.append(x.getErrorCode()).append('/').append(x.getSQLState()).append(' ');
    }
    return b.toString();
  }

  @FunctionalInterface
  interface Call {
    Object call() throws SQLException;
  }

  private static String outcome(Call call) {
    try {
      return String.valueOf(call.call());
    } catch (SQLException e) {
      return e.getClass().getSimpleName() + " " + e.getSQLState() + " " + e.getErrorCode() + " " + e.getMessage();
    }
  }

  private static Connection plain() throws SQLException {
    return DriverManager.getConnection("jdbc:mysql://" + Topology.HOST + ":" + PRIMARY_PORT + "/" + Topology.DATABASE
        + "?user=" + Topology.USER + "&password=" + Topology.PASSWORD + "&allowPublicKeyRetrieval=true");
  }

  /** Empties the table and puts rows 1..5 back, through {@code c} (so that a jdbc:ryow: connection's reads see it). */
  private static void reset(Connection c, String table) throws SQLException {
    if (!c.getAutoCommit()) {
      c.rollback();
    }
    c.setAutoCommit(true);
    c.setReadOnly(false);
    try (Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM " + table);
      s.executeUpdate("INSERT INTO " + table + " VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, NULL), (4, 40, 'd'), (5, 50, 'e')");
    }
  }

  /** Runs the sequence {@code ops} (op index, argument) on {@code c} and returns what each call showed. */
  private static List<String> run(Connection c, String table, int[][] ops) throws SQLException {
    reset(c, table);
    List<String> seen = new ArrayList<>();
    World w = new World(c, table);
    for (int[] op : ops) {
      String shown = outcome(() -> OPS.get(op[0]).run(w, op[1]));
      seen.add(shown.replace(table, "T"));
      if (!c.getAutoCommit() && op[0] != 14 && op[0] != 15 && op[0] != 16) {
        w.inTransaction = true; // a statement may have started the transaction
      }
    }
    w.statement.close();
    return seen;
  }

  /**
   * The query-timeout sequence (issue 42, item 2), with Connector/J's {@code queryTimeoutKillsConnection}
   * off (the default) and on: a write, a read that times out, then whether the connection is closed
   * (Connector/J closes its own from its timer thread: waited for, with a deadline) and whether the next
   * calls run. A closed connection's error is compared by whether it failed: its message is the driver's
   * own ({@code docs/connector-j.md}).
   */
  @Test
  void timeoutSequencesAnswerAsConnectorJDoes() throws SQLException {
    for (String parameters : List.of("", "queryTimeoutKillsConnection=true")) {
      List<List<String>> seen = new ArrayList<>();
      String plainUrl = "jdbc:mysql://" + Topology.HOST + ":" + PRIMARY_PORT + "/" + Topology.DATABASE + "?user="
          + Topology.USER + "&password=" + Topology.PASSWORD + "&allowPublicKeyRetrieval=true"
          + (parameters.isEmpty() ? "" : "&" + parameters);
      for (String table : List.of(PLAIN_TABLE, RYOW_TABLE)) {
        List<String> out = new ArrayList<>();
        Connection c = table.equals(PLAIN_TABLE) ? DriverManager.getConnection(plainUrl)
            : parameters.isEmpty() ? Topology.ryow() : Topology.ryow(parameters);
        try (c) {
          reset(c, table);
          Statement s = c.createStatement();
          out.add("insert " + outcome(() -> s.executeUpdate("INSERT INTO " + table + " VALUES (7, 70, 'x')")));
          s.setQueryTimeout(1);
          out.add("sleep " + outcome(() -> rows(s.executeQuery("SELECT SLEEP(20) FROM " + table + " WHERE id = 7")))
              .replaceAll("^(\\w+) .*", "$1"));
          if (!parameters.isEmpty()) {
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (!c.isClosed() && System.nanoTime() < deadline) {
              java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
            }
          }
          out.add("closed " + c.isClosed() + " statement closed " + s.isClosed());
          out.add("next read " + ranOrFailed(() -> rows(s.executeQuery("SELECT id, v FROM " + table + " WHERE id = 7"))));
          out.add("new statement " + ranOrFailed(c::createStatement));
          out.add("autoCommit " + ranOrFailed(c::getAutoCommit));
        }
        seen.add(out);
      }
      System.out.printf("DifferentialIT timeout sequence (%s): %s%n", parameters.isEmpty() ? "defaults" : parameters,
          seen.get(0));
      assertThat(seen.get(1)).as("jdbc:ryow: against Connector/J, " + parameters).isEqualTo(seen.get(0));
      assertThat(seen.get(0).get(2)).isEqualTo(parameters.isEmpty() ? "closed false statement closed false"
          : "closed true statement closed true");
    }
  }

  /** The result of {@code call}, or "failed" (for a closed connection, whose message is the driver's own). */
  private static String ranOrFailed(Call call) {
    try {
      Object v = call.call();
      return v instanceof Statement ? "statement" : String.valueOf(v);
    } catch (SQLException e) {
      return "failed";
    }
  }

  @Test
  void generatedCallSequencesAnswerAsConnectorJDoes() throws SQLException {
    Random random = new Random(SEED);
    int calls = 0;
    try (Connection plain = plain(); Connection ryow = Topology.ryow()) {
      for (int seq = 0; seq < SEQUENCES; seq++) {
        int[][] ops = new int[CALLS][];
        for (int i = 0; i < CALLS; i++) {
          ops[i] = new int[] {random.nextInt(OPS.size()), 1 + random.nextInt(6)};
        }
        List<String> expected = run(plain, PLAIN_TABLE, ops);
        List<String> actual = run(ryow, RYOW_TABLE, ops);
        for (int i = 0; i < CALLS; i++) {
          assertThat(actual.get(i))
              .as("seed %d, sequence %d, call %d (op %d, argument %d); calls so far: %s", SEED, seq, i, ops[i][0],
                  ops[i][1], expected.subList(0, i))
              .isEqualTo(expected.get(i));
        }
        calls += CALLS;
      }
    }
    System.out.printf("DifferentialIT: %d sequences, %d calls, %d kinds of call, seed %d: identical%n", SEQUENCES,
        calls, OPS.size(), SEED);
  }
}
