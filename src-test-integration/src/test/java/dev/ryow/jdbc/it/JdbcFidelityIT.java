package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * JDBC calls answered as Connector/J answers them, on defaults, and run where Connector/J's physical
 * connection would make them write: each test runs the same calls through plain Connector/J on the
 * primary where an answer is compared, and asks the servers (performance_schema, {@code @@port}, the
 * rows on the primary) where the statements ran.
 */
class JdbcFidelityIT {
  private static final String TABLE = "it_updatable";

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable(TABLE, "id INT PRIMARY KEY, v INT NOT NULL");
    Topology.exec(PRIMARY_PORT, "INSERT INTO " + TABLE + " VALUES (1, 10), (2, 20), (3, 30)");
    Topology.awaitReplicasCaughtUp();
  }

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  private static int primaryInt(String sql) throws SQLException {
    return (int) Topology.queryLong(PRIMARY_PORT, sql);
  }

  /**
   * An updatable result set (CONCUR_UPDATABLE) runs its query and its row writes on the primary: the
   * replicas execute none of them (counted by the servers), the primary has the rows written, and a
   * read through another connection while the replicas' appliers are blocked sees the last row write
   * (its GTID reached the JVM's watermark: a replica serves it only once it has applied it).
   */
  @Test
  @SuppressWarnings("try") // the hold blocks the appliers while the block runs
  void anUpdatableResultSetReadsAndWritesOnThePrimary() throws SQLException {
    ServerCounts before = ServerCounts.of("`" + TABLE + "`");
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE);
        ResultSet rs = s.executeQuery("SELECT id, v FROM " + TABLE + " ORDER BY id")) {
      // (an @@port column would make it read-only: Connector/J updates only columns of one table)
      assertThat(rs.getConcurrency()).isEqualTo(ResultSet.CONCUR_UPDATABLE);
      assertThat(rs.next()).isTrue();
      rs.updateInt("v", 11);
      rs.updateRow();
      assertThat(rs.next()).isTrue();
      rs.deleteRow();
      rs.moveToInsertRow();
      rs.updateInt("id", 4);
      rs.updateInt("v", 40);
      rs.insertRow();
    }
    try (Connection c = Topology.ryow();
        PreparedStatement ps = c.prepareStatement("SELECT id, v FROM " + TABLE + " WHERE id = ?",
            ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE)) {
      ps.setInt(1, 3);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        rs.updateInt("v", 33);
        rs.updateRow();
      }
      Topology.settled(() -> before.delta().primary(), 6); // a statement is counted just after its result
      ServerCounts ran = before.delta();
      assertThat(ran.replicas()).as("statements on " + TABLE + " the replicas executed: " + ran).isZero();
      assertThat(ran.primary()).as("the queries and the row writes on the primary: " + ran).isGreaterThanOrEqualTo(6);
      // A read through another connection (a replica that has the row write, or the primary) sees it.
      try (LagBlock blocked = LagBlock.holdAll(REPLICA_PORTS);
          Connection other = Topology.ryow();
          Statement s = other.createStatement();
          ResultSet rs = s.executeQuery("SELECT v FROM " + TABLE + " WHERE id = 3")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).as("another connection's read after the row write, appliers blocked").isEqualTo(33);
      }
    }
    assertThat(primaryInt("SELECT v FROM " + TABLE + " WHERE id = 1")).isEqualTo(11);
    assertThat(primaryInt("SELECT COUNT(*) FROM " + TABLE + " WHERE id = 2")).isZero();
    assertThat(primaryInt("SELECT v FROM " + TABLE + " WHERE id = 3")).isEqualTo(33);
    assertThat(primaryInt("SELECT v FROM " + TABLE + " WHERE id = 4")).isEqualTo(40);
  }

  /** A read-only result set, scroll-sensitive or not, cannot write: its query stays a replica read. */
  @Test
  void aReadOnlyScrollSensitiveQueryStillRunsOnAReplica() throws SQLException {
    try (Connection c = Topology.ryow();
        Statement s = c.createStatement(ResultSet.TYPE_SCROLL_SENSITIVE, ResultSet.CONCUR_READ_ONLY);
        ResultSet rs = s.executeQuery("SELECT @@port FROM " + TABLE + " WHERE id = 1")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isIn(REPLICA_PORTS);
    }
  }

  // ---------------------------------------------------------------- the same answers as Connector/J

  /** What the application sees of one sequence of calls, in order. */
  @FunctionalInterface
  interface Calls {
    void run(Connection c, List<String> seen) throws SQLException;
  }

  /** A plain Connector/J connection to the primary, with {@code parameters} (key=value&...). */
  private static Connection plain(String parameters) throws SQLException {
    return DriverManager.getConnection("jdbc:mysql://" + Topology.HOST + ":" + PRIMARY_PORT + "/" + Topology.DATABASE
        + "?user=" + Topology.USER + "&password=" + Topology.PASSWORD + "&allowPublicKeyRetrieval=true"
        + (parameters.isEmpty() ? "" : "&" + parameters));
  }

  private static Connection ryow(String parameters) throws SQLException {
    return parameters.isEmpty() ? Topology.ryow() : Topology.ryow(parameters.split("&"));
  }

  /** Runs {@code calls} through plain Connector/J on the primary and through jdbc:ryow:, and compares what each saw. */
  private static List<String> same(String parameters, Calls calls) throws SQLException {
    List<String> plain = new ArrayList<>();
    try (Connection c = plain(parameters)) {
      calls.run(c, plain);
    }
    List<String> ryow = new ArrayList<>();
    try (Connection c = ryow(parameters)) {
      calls.run(c, ryow);
    }
    assertThat(ryow).as("jdbc:ryow: against Connector/J").isEqualTo(plain);
    return ryow;
  }

  /** What a call returned, or the class and SQLState of what it threw. */
  @FunctionalInterface
  interface Call {
    Object call() throws SQLException;
  }

  static String outcome(Call call) {
    try {
      Object v = call.call();
      if (v instanceof ResultSet rs) {
        int rows = 0;
        while (rs.next()) {
          rows++;
        }
        rs.close();
        return "rows " + rows;
      }
      return String.valueOf(v);
    } catch (SQLException e) {
      return e.getClass().getSimpleName() + " " + e.getSQLState() + " " + e.getMessage();
    }
  }

  /** Defect 3: {@code maxRows} in the URL is the statements' default, and {@code setMaxRows(0)} lifts it. */
  @Test
  void maxRowsFromTheUrlAndSetMaxRowsZero() throws SQLException {
    List<String> seen = same("maxRows=1", (c, out) -> {
      try (Statement s = c.createStatement()) {
        out.add("getMaxRows " + s.getMaxRows());
        out.add(outcome(() -> s.executeQuery("SELECT id FROM " + TABLE + " WHERE id <= 2")));
        s.setMaxRows(0);
        out.add("getMaxRows " + s.getMaxRows());
        out.add(outcome(() -> s.executeQuery("SELECT id FROM " + TABLE + " WHERE id <= 2")));
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT id FROM " + TABLE + " WHERE id <= ?")) {
        ps.setInt(1, 2);
        out.add("prepared getMaxRows " + ps.getMaxRows());
        ps.setMaxRows(0);
        out.add(outcome(ps::executeQuery));
      }
    });
    assertThat(seen).containsExactly("getMaxRows 1", "rows 1", "getMaxRows 0", "rows 2", "prepared getMaxRows 1", "rows 2");
  }

  /** Defect 4: {@code getGeneratedKeys()} before any execution answers as Connector/J's does. */
  @Test
  void generatedKeysBeforeAnyExecution() throws SQLException {
    same("", (c, out) -> {
      try (Statement s = c.createStatement()) {
        out.add(outcome(s::getGeneratedKeys));
      }
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " VALUES (9, 90)",
          Statement.RETURN_GENERATED_KEYS)) {
        out.add(outcome(ps::getGeneratedKeys));
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT v FROM " + TABLE + " WHERE id = 1")) {
        out.add(outcome(ps::getGeneratedKeys));
      }
    });
  }

  /** Defect 5: with {@code closeOnCompletion()}, closing the last result set closes the statement. */
  @Test
  void closeOnCompletionClosesTheStatement() throws SQLException {
    List<String> seen = same("", (c, out) -> {
      try (Statement s = c.createStatement()) {
        s.closeOnCompletion();
        ResultSet rs = s.executeQuery("SELECT v FROM " + TABLE + " WHERE id = 1");
        out.add("open " + !s.isClosed());
        rs.close();
        out.add("closed " + s.isClosed());
        out.add(outcome(s::getMaxRows));
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT v FROM " + TABLE + " WHERE id = 1")) {
        ps.closeOnCompletion();
        ps.executeQuery().close();
        out.add("prepared closed " + ps.isClosed());
      }
    });
    assertThat(seen).contains("closed true", "prepared closed true");
  }

  /** Defect 6: a closed statement throws Connector/J's exception (message and SQLState S1009). */
  @Test
  void aClosedStatementFailsAsConnectorJs() throws SQLException {
    List<String> seen = same("", (c, out) -> {
      Statement s = c.createStatement();
      s.close();
      out.add(outcome(() -> s.executeQuery("SELECT 1")));
      out.add(outcome(s::getMaxRows));
      PreparedStatement ps = c.prepareStatement("SELECT v FROM " + TABLE + " WHERE id = ?");
      ps.close();
      out.add(outcome(() -> {
        ps.setInt(1, 1);
        return null;
      }));
      out.add(outcome(ps::executeQuery));
    });
    assertThat(seen.get(0)).contains(" S1009 ");
  }

  /** Defect 7: {@code setClientInfo((Properties) null)} clears the client info, as with Connector/J. */
  @Test
  void setClientInfoNullClearsIt() throws SQLException {
    same("", (c, out) -> {
      c.setClientInfo("ApplicationName", "fidelity");
      out.add(outcome(() -> {
        c.setClientInfo((Properties) null);
        return "done";
      }));
      out.add(String.valueOf(c.getClientInfo()));
    });
  }

  /**
   * Defect 8: the credentials given to {@code getConnection(url, user, password)} are the ones that log
   * in, over the URL's, as with Connector/J: a wrong pair is refused, never replaced by the URL's.
   */
  @Test
  void theCallersCredentialsWinOverTheUrls() throws SQLException {
    String plainUrl = "jdbc:mysql://" + Topology.HOST + ":" + PRIMARY_PORT + "/" + Topology.DATABASE
        + "?user=" + Topology.USER + "&password=" + Topology.PASSWORD + "&allowPublicKeyRetrieval=true";
    String plain = outcome(() -> DriverManager.getConnection(plainUrl, "dummy", "dummy"));
    String ryow = outcome(() -> DriverManager.getConnection(Topology.ryowUrl(), "dummy", "dummy"));
    assertThat(plain).as("Connector/J").startsWith("SQLException 28000");
    assertThat(ryow.split(" ", 3)).as("jdbc:ryow:").startsWith(plain.split(" ", 3)[0], plain.split(" ", 3)[1]);
    Properties info = new Properties();
    info.setProperty("maxRows", "2");
    List<String> seen = new ArrayList<>();
    for (String url : List.of(plainUrl + "&maxRows=1", Topology.ryowUrl("maxRows=1"))) {
      try (Connection c = DriverManager.getConnection(url, info); Statement s = c.createStatement()) {
        seen.add("getMaxRows " + s.getMaxRows());
      }
    }
    assertThat(seen.get(1)).as("a Connector/J property in both the URL and the properties").isEqualTo(seen.get(0));
  }

  /** Defect 9: {@code isReadOnly()} follows SQL that changed the session's mode, as Connector/J's asks the server. */
  @Test
  void isReadOnlyAfterSql() throws SQLException {
    List<String> seen = same("", (c, out) -> {
      c.setReadOnly(true);
      out.add("after setReadOnly " + c.isReadOnly());
      try (Statement s = c.createStatement()) {
        s.execute("SET SESSION TRANSACTION READ WRITE");
        out.add("after READ WRITE " + c.isReadOnly());
        s.execute("SET SESSION TRANSACTION READ ONLY");
        out.add("after READ ONLY " + c.isReadOnly());
      }
      c.setReadOnly(false);
      out.add("after setReadOnly(false) " + c.isReadOnly());
    });
    assertThat(seen).containsExactly("after setReadOnly true", "after READ WRITE false", "after READ ONLY true",
        "after setReadOnly(false) false");
  }

  /**
   * Issue 42, item 1: {@code setReadOnly(false)} after {@code isReadOnly()} re-read the session's mode
   * reaches Connector/J's flag on the primary's connection, so the insert runs (the driver used to refuse
   * it with S1009); before {@code setReadOnly(false)} the insert is refused as Connector/J refuses it. The
   * rows are counted on the primary: one insert each through Connector/J and through the driver.
   */
  @Test
  void setReadOnlyFalseAfterIsReadOnlyReReadTheSession() throws SQLException {
    int[] id = {50};
    List<String> seen = same("", (c, out) -> {
      c.setReadOnly(true);
      try (Statement s = c.createStatement()) {
        s.execute("SET SESSION TRANSACTION READ WRITE");
        out.add("isReadOnly " + c.isReadOnly());
        out.add("insert before setReadOnly(false): "
            + outcome(() -> s.executeUpdate("INSERT INTO " + TABLE + " VALUES (" + id[0]++ + ", 42)")));
        c.setReadOnly(false);
        out.add("insert: " + outcome(() -> s.executeUpdate("INSERT INTO " + TABLE + " VALUES (" + id[0]++ + ", 42)")));
      }
    });
    assertThat(seen).containsExactly("isReadOnly false",
        "insert before setReadOnly(false): SQLException S1009 Connection is read-only. Queries leading to data"
            + " modification are not allowed.",
        "insert: 1");
    assertThat(primaryInt("SELECT COUNT(*) FROM " + TABLE + " WHERE v = 42")).isEqualTo(2);
  }

  /**
   * Issue 42, item 1, through a HikariCP pool of read-only connections (its {@code readOnly=true}: it sets
   * each connection read-only, and again on return when a borrower changed it). A borrower makes the
   * session read-write with SQL, checks {@code isReadOnly()} (HikariCP passes it on while it has not set the
   * flag itself), sets it back to false and writes: on the driver before the fix the insert failed with
   * S1009. The pool's reset on return then reaches the driver as Connector/J: the next borrower's
   * connection is read-only again. The same calls run through the pool over plain Connector/J; the inserts
   * are counted on the primary.
   */
  @Test
  void aPooledConnectionSetWritableAfterIsReadOnlyWritesAndIsResetOnReturn() throws SQLException {
    String plainUrl = "jdbc:mysql://" + Topology.HOST + ":" + PRIMARY_PORT + "/" + Topology.DATABASE + "?user="
        + Topology.USER + "&password=" + Topology.PASSWORD + "&allowPublicKeyRetrieval=true";
    int id = 60;
    List<List<String>> seen = new ArrayList<>();
    for (String url : List.of(plainUrl, Topology.ryowUrl())) {
      com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
      config.setPoolName("it-read-only-reset");
      config.setJdbcUrl(url);
      config.setReadOnly(true);
      config.setMaximumPoolSize(1);
      config.setMinimumIdle(1);
      List<String> out = new ArrayList<>();
      try (com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config)) {
        int first = id++;
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
          out.add("borrowed isReadOnly " + c.isReadOnly());
          s.execute("SET SESSION TRANSACTION READ WRITE");
          out.add("after READ WRITE isReadOnly " + c.isReadOnly());
          c.setReadOnly(false);
          out.add("insert " + outcome(() -> s.executeUpdate("INSERT INTO " + TABLE + " VALUES (" + first + ", 43)")));
        }
        int second = id++;
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
          out.add("next borrower isReadOnly " + c.isReadOnly());
          out.add("insert " + outcome(() -> s.executeUpdate("INSERT INTO " + TABLE + " VALUES (" + second + ", 43)")));
          c.setReadOnly(false);
          out.add("insert " + outcome(() -> s.executeUpdate("INSERT INTO " + TABLE + " VALUES (" + second + ", 43)")));
        }
      }
      seen.add(out);
    }
    assertThat(seen.get(1)).as("jdbc:ryow: against Connector/J, through HikariCP").isEqualTo(seen.get(0));
    assertThat(seen.get(0)).containsExactly("borrowed isReadOnly true", "after READ WRITE isReadOnly false",
        "insert 1", "next borrower isReadOnly true", "insert SQLException S1009 Connection is read-only. Queries leading"
            + " to data modification are not allowed.", "insert 1");
    assertThat(primaryInt("SELECT COUNT(*) FROM " + TABLE + " WHERE v = 43")).isEqualTo(4);
  }

  /**
   * Defect 2: a parameter Connector/J refuses is refused by the setter, and a refused setter leaves
   * nothing behind that would fail the execution.
   */
  @Test
  void parametersAreCheckedInTheSetter() throws SQLException {
    same("", (c, out) -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT v FROM " + TABLE + " WHERE id = 1")) {
        out.add("setInt beyond the placeholders: " + outcome(() -> {
          ps.setInt(1, 5);
          return "accepted";
        }));
        out.add("then executeQuery: " + outcome(ps::executeQuery));
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT v FROM " + TABLE + " WHERE v < ?")) {
        out.add("setDouble -Infinity: " + outcome(() -> {
          ps.setDouble(1, Double.NEGATIVE_INFINITY);
          return "accepted";
        }));
        out.add("setObject TIME_WITH_TIMEZONE: " + outcome(() -> {
          ps.setObject(1, java.time.OffsetTime.now(), java.sql.JDBCType.TIME_WITH_TIMEZONE);
          return "accepted";
        }));
        out.add("setInt(0): " + outcome(() -> {
          ps.setInt(0, 1);
          return "accepted";
        }));
        ps.setInt(1, 25);
        out.add("then executeQuery: " + outcome(ps::executeQuery));
      }
    });
  }
}
