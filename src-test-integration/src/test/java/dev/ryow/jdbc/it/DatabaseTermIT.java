package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code setCatalog}/{@code setSchema} (and {@code USE} in SQL) move the primary and the replica
 * connections of a logical connection to the same database, exactly as plain Connector/J moves its one
 * connection, for both values of Connector/J's {@code databaseTerm}: with {@code CATALOG} (its default)
 * {@code setSchema} does nothing, with {@code SCHEMA} {@code setCatalog} does nothing. Two databases hold
 * a table of the same name whose row names its database; every read returns that name and the
 * {@code @@port} of the server that ran it, and is compared with a plain Connector/J connection given the
 * same calls.
 */
class DatabaseTermIT {
  private static final String OTHER = "it_dbterm_other";

  @BeforeAll
  static void twoDatabases() throws SQLException {
    Topology.resumeAppliers();
    Topology.exec(PRIMARY_PORT, "CREATE DATABASE IF NOT EXISTS " + OTHER);
    for (String db : new String[] {Topology.DATABASE, OTHER}) {
      Topology.exec(PRIMARY_PORT, "DROP TABLE IF EXISTS " + db + ".it_dbterm");
      Topology.exec(PRIMARY_PORT, "CREATE TABLE " + db + ".it_dbterm (id INT AUTO_INCREMENT PRIMARY KEY, db VARCHAR(64))");
      Topology.exec(PRIMARY_PORT, "INSERT INTO " + db + ".it_dbterm (db) VALUES ('" + db + "')");
    }
    Topology.awaitReplicasCaughtUp();
  }

  private static Connection plain(String term) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:mysql://" + Topology.HOST + ":" + PRIMARY_PORT + "/" + Topology.DATABASE
            + "?allowPublicKeyRetrieval=true&databaseTerm=" + term,
        Topology.USER, Topology.PASSWORD);
  }

  /** {database named by the row, port of the server that answered} of an unqualified read. */
  private static Object[] whereAmI(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT MIN(db), @@port FROM it_dbterm")) {
      rs.next();
      return new Object[] {rs.getString(1), rs.getInt(2)};
    }
  }

  /** The database the server of a write is in: an unqualified insert, read back qualified by the primary. */
  private static String whereDoWritesGo(Connection c, String marker) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO it_dbterm (db) VALUES ('" + marker + "')");
    }
    try (Connection p = Topology.plain(PRIMARY_PORT)) {
      String found = Topology.queryString(p,
          "SELECT IF((SELECT COUNT(*) FROM " + Topology.DATABASE + ".it_dbterm WHERE db = '" + marker + "') > 0, '"
              + Topology.DATABASE + "', IF((SELECT COUNT(*) FROM " + OTHER + ".it_dbterm WHERE db = '" + marker
              + "') > 0, '" + OTHER + "', 'nowhere'))");
      for (String db : new String[] {Topology.DATABASE, OTHER}) {
        p.createStatement().executeUpdate("DELETE FROM " + db + ".it_dbterm WHERE db = '" + marker + "'");
      }
      return found;
    }
  }

  @FunctionalInterface
  private interface Call {
    void on(Connection c) throws SQLException;
  }

  /**
   * Applies {@code call} to the ryow and the plain connection, then checks that the ryow connection
   * reads on a replica from the database plain Connector/J is in, writes there too, reads its own write
   * there, and reports the same catalog and schema.
   */
  private static void sameAsConnectorJ(Connection ryow, Connection plain, String step, Call call)
      throws SQLException {
    call.on(plain);
    call.on(ryow);
    String expected = (String) whereAmI(plain)[0];
    Object[] read = whereAmI(ryow);
    assertThat(read[1]).as("%s: the read ran on a replica", step).isIn(REPLICA_PORTS);
    assertThat(read[0]).as("%s: the replica read the database plain Connector/J is in", step).isEqualTo(expected);
    assertThat(ryow.getCatalog()).as("%s: getCatalog", step).isEqualTo(plain.getCatalog());
    assertThat(ryow.getSchema()).as("%s: getSchema", step).isEqualTo(plain.getSchema());
    String marker = "w-" + System.nanoTime();
    assertThat(whereDoWritesGo(ryow, marker)).as("%s: an unqualified write", step).isEqualTo(expected);
    // The read after the write waits for it on a replica (or falls back): it must count the same rows.
    try (Statement s = ryow.createStatement(); Statement ps = plain.createStatement()) {
      ResultSet a = s.executeQuery("SELECT COUNT(*), MIN(db), @@port FROM it_dbterm");
      ResultSet b = ps.executeQuery("SELECT COUNT(*), MIN(db), @@port FROM it_dbterm");
      a.next();
      b.next();
      assertThat(a.getString(2)).as("%s: read after write, database (%s)", step,
          ryow.unwrap(dev.ryow.jdbc.RyowConnection.class).lastRead()).isEqualTo(b.getString(2));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"CATALOG", "SCHEMA"})
  void setCatalogAndSetSchemaMoveEveryServerOfTheConnectionAsConnectorJMovesItsOne(String term) throws SQLException {
    try (Connection ryow = Topology.ryow("databaseTerm=" + term);
        Connection plain = plain(term)) {
      sameAsConnectorJ(ryow, plain, term + " start", c -> { });
      sameAsConnectorJ(ryow, plain, term + " setSchema(other)", c -> c.setSchema(OTHER));
      sameAsConnectorJ(ryow, plain, term + " setCatalog(other)", c -> c.setCatalog(OTHER));
      sameAsConnectorJ(ryow, plain, term + " setSchema(ryow)", c -> c.setSchema(Topology.DATABASE));
      sameAsConnectorJ(ryow, plain, term + " setCatalog(ryow)", c -> c.setCatalog(Topology.DATABASE));
      sameAsConnectorJ(ryow, plain, term + " USE other", c -> c.createStatement().execute("USE " + OTHER));
      sameAsConnectorJ(ryow, plain, term + " setSchema(ryow) after USE", c -> c.setSchema(Topology.DATABASE));
      sameAsConnectorJ(ryow, plain, term + " setCatalog(ryow) after USE", c -> c.setCatalog(Topology.DATABASE));
      sameAsConnectorJ(ryow, plain, term + " setCatalog(other), setSchema(other)", c -> {
        c.setCatalog(OTHER);
        c.setSchema(OTHER);
      });
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"CATALOG", "SCHEMA"})
  void aReplicaConnectionOpenedLaterStartsInTheSameDatabase(String term) throws SQLException {
    // The database is changed before any replica connection exists: the replica connections opened by
    // the reads must replay it, also after a USE that followed the call.
    try (Connection ryow = Topology.ryow("databaseTerm=" + term);
        Connection plain = plain(term)) {
      sameAsConnectorJ(ryow, plain, term + " setSchema(other) first", c -> c.setSchema(OTHER));
    }
    try (Connection ryow = Topology.ryow("databaseTerm=" + term);
        Connection plain = plain(term)) {
      sameAsConnectorJ(ryow, plain, term + " setCatalog(other), USE ryow first", c -> {
        c.setCatalog(OTHER);
        c.setSchema(OTHER);
        c.createStatement().execute("USE " + Topology.DATABASE);
      });
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"CATALOG", "SCHEMA"})
  void aStatementCreatedBeforeTheDatabaseChangedRunsWhereConnectorJRunsIt(String term) throws SQLException {
    // Connector/J runs a statement in the database that was current when the statement was created
    // (it switches for the execution and back). The ryow statement creates its physical statements on
    // first use, on whichever server runs it: they must behave the same.
    try (Connection ryow = Topology.ryow("databaseTerm=" + term);
        Connection plain = plain(term);
        Statement early = ryow.createStatement();
        Statement plainEarly = plain.createStatement();
        java.sql.PreparedStatement earlyPrepared = ryow.prepareStatement("SELECT MIN(db), @@port FROM it_dbterm");
        java.sql.PreparedStatement plainEarlyPrepared = plain.prepareStatement("SELECT MIN(db), @@port FROM it_dbterm")) {
      for (Connection c : new Connection[] {ryow, plain}) {
        c.setCatalog(OTHER);
        c.setSchema(OTHER);
      }
      for (int i = 0; i < 2; i++) {
        ResultSet expected = plainEarly.executeQuery("SELECT MIN(db), @@port FROM it_dbterm");
        ResultSet actual = early.executeQuery("SELECT MIN(db), @@port FROM it_dbterm");
        expected.next();
        actual.next();
        assertThat(actual.getInt(2)).as("statement read on a replica").isIn(REPLICA_PORTS);
        assertThat(actual.getString(1)).as("statement created before the change").isEqualTo(expected.getString(1));
        ResultSet expectedPrepared = plainEarlyPrepared.executeQuery();
        ResultSet actualPrepared = earlyPrepared.executeQuery();
        expectedPrepared.next();
        actualPrepared.next();
        assertThat(actualPrepared.getInt(2)).as("prepared read on a replica").isIn(REPLICA_PORTS);
        assertThat(actualPrepared.getString(1)).as("prepared statement created before the change")
            .isEqualTo(expectedPrepared.getString(1));
      }
      // The connection itself is in the new database, on every server.
      sameAsConnectorJ(ryow, plain, term + " after the early statements", c -> { });
    }
  }
}
