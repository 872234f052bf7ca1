package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Statement settings and results that must read the same through {@code jdbc:ryow:} as through
 * Connector/J on the primary: each case runs on both, and the assertions are what Connector/J answers.
 */
class StatementFidelityIT {
  @BeforeAll
  static void table() throws SQLException {
    Topology.recreateTable("it_stmt_fidelity", "id INT PRIMARY KEY");
    Topology.exec(PRIMARY_PORT, "INSERT INTO it_stmt_fidelity VALUES (1), (2)");
    Topology.awaitReplicasCaughtUp();
  }

  /** {@code plain}: Connector/J on the primary; {@code ryow}: the driver on the topology; with URL parameters. */
  private static Connection open(String driver, String parameters) throws SQLException {
    if (driver.equals("plain")) {
      return DriverManager.getConnection("jdbc:mysql://" + Topology.HOST + ":" + PRIMARY_PORT + "/" + Topology.DATABASE
          + "?allowPublicKeyRetrieval=true" + (parameters.isEmpty() ? "" : "&" + parameters), Topology.USER, Topology.PASSWORD);
    }
    return parameters.isEmpty() ? Topology.ryow() : Topology.ryow(parameters);
  }

  private static int rows(ResultSet rs) throws SQLException {
    int n = 0;
    while (rs.next()) {
      n++;
    }
    return n;
  }

  /** A URL's {@code maxRows} is the statements' default: read back as is, and replaced by an explicit 0. */
  @ParameterizedTest
  @ValueSource(strings = {"plain", "ryow"})
  void maxRowsFromTheUrlReadsBackAndAnExplicitZeroLiftsIt(String driver) throws SQLException {
    try (Connection c = open(driver, "maxRows=1");
        Statement s = c.createStatement();
        PreparedStatement ps = c.prepareStatement("SELECT id FROM it_stmt_fidelity ORDER BY id")) {
      assertThat(s.getMaxRows()).as("getMaxRows with maxRows=1 in the URL").isEqualTo(1);
      try (ResultSet rs = s.executeQuery("SELECT id FROM it_stmt_fidelity")) {
        assertThat(rows(rs)).isEqualTo(1);
      }
      s.setMaxRows(0);
      ps.setMaxRows(0);
      try (ResultSet rs = s.executeQuery("SELECT id FROM it_stmt_fidelity")) {
        assertThat(rows(rs)).as("rows after setMaxRows(0)").isEqualTo(2);
      }
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rows(rs)).as("prepared rows after setMaxRows(0)").isEqualTo(2);
      }
      assertThat(s.getMaxRows()).isZero();
      s.setLargeMaxRows(1);
      assertThat(s.getMaxRows()).isEqualTo(1);
      s.setMaxRows(0);
      try (ResultSet rs = s.executeQuery("SELECT id FROM it_stmt_fidelity")) {
        assertThat(rows(rs)).as("setMaxRows(0) after setLargeMaxRows(1)").isEqualTo(2);
      }
    }
  }

  /** Keys asked for before any execution: empty where they were requested, Connector/J's refusal where not. */
  @ParameterizedTest
  @ValueSource(strings = {"plain", "ryow"})
  void generatedKeysBeforeAnyExecutionAnswerAsConnectorJ(String driver) throws SQLException {
    try (Connection c = open(driver, "");
        PreparedStatement ps = c.prepareStatement("INSERT INTO it_stmt_fidelity VALUES (?)", Statement.RETURN_GENERATED_KEYS);
        ResultSet keys = ps.getGeneratedKeys();
        Statement s = c.createStatement()) {
      assertThat(keys.next()).isFalse();
      assertThat(s.getUpdateCount()).isEqualTo(-1);
      assertThat(s.getResultSet()).isNull();
      assertThatThrownBy(s::getGeneratedKeys).isInstanceOf(SQLException.class).hasMessageContaining("RETURN_GENERATED_KEYS");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"plain", "ryow"})
  void closeOnCompletionClosesTheStatementWithItsResults(String driver) throws SQLException {
    try (Connection c = open(driver, "");
        Statement s = c.createStatement();
        PreparedStatement ps = c.prepareStatement("SELECT id FROM it_stmt_fidelity WHERE id = ?")) {
      s.closeOnCompletion();
      ps.closeOnCompletion();
      assertThat(s.isCloseOnCompletion()).isTrue();
      try (ResultSet rs = s.executeQuery("SELECT id FROM it_stmt_fidelity")) {
        assertThat(rows(rs)).isEqualTo(2);
        assertThat(s.isClosed()).as("open while its result set is").isFalse();
      }
      assertThat(s.isClosed()).as("a closeOnCompletion statement after its result set closed").isTrue();
      ps.setInt(1, 1);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rows(rs)).isEqualTo(1);
      }
      assertThat(ps.isClosed()).as("a closeOnCompletion prepared statement after its result set closed").isTrue();
    }
  }

  /** Settings set before the first execution reach the statement that runs it, and read back. */
  @ParameterizedTest
  @ValueSource(strings = {"plain", "ryow"})
  void settingsBeforeTheFirstExecutionApplyAndReadBack(String driver) throws SQLException {
    try (Connection c = open(driver, "");
        PreparedStatement ps = c.prepareStatement("SELECT id FROM it_stmt_fidelity ORDER BY id")) {
      ps.setMaxRows(1);
      ps.setFetchSize(7);
      ps.setQueryTimeout(5);
      ps.setMaxFieldSize(100);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rows(rs)).isEqualTo(1);
      }
      assertThat(ps.getMaxRows()).isEqualTo(1);
      assertThat(ps.getLargeMaxRows()).isEqualTo(1);
      assertThat(ps.getFetchSize()).isEqualTo(7);
      assertThat(ps.getQueryTimeout()).isEqualTo(5);
      assertThat(ps.getMaxFieldSize()).isEqualTo(100);
    }
  }

  /** Connector/J quotes as MySQL does (JDBC's defaults quote as ANSI SQL does): the driver answers the same. */
  @org.junit.jupiter.api.Test
  void quotingHelpersAnswerAsConnectorJDoes() throws SQLException {
    try (Connection plain = open("plain", "");
        Connection ryow = open("ryow", "");
        Statement p = plain.createStatement();
        Statement r = ryow.createStatement();
        PreparedStatement rp = ryow.prepareStatement("SELECT 1")) {
      for (String text : new String[] {"a b", "plain", "it's", "back`quote"}) {
        assertThat(r.enquoteIdentifier(text, true)).isEqualTo(p.enquoteIdentifier(text, true));
        assertThat(rp.enquoteIdentifier(text, false)).isEqualTo(p.enquoteIdentifier(text, false));
        assertThat(r.enquoteLiteral(text)).isEqualTo(p.enquoteLiteral(text));
        assertThat(r.enquoteNCharLiteral(text)).isEqualTo(p.enquoteNCharLiteral(text));
        assertThat(r.isSimpleIdentifier(text)).isEqualTo(p.isSimpleIdentifier(text));
      }
      assertThat(r.enquoteIdentifier("a b", true)).as("MySQL's identifier quote").isEqualTo("`a b`");
    }
  }
}
