package dev.ryow.jdbc.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a transaction replay compares of a result: the rows the application reached, whether it saw the
 * end, and their checksum. Over a result set of fixed text rows (a stand-in for the rows a server sent).
 */
class RowChecksumTest {
  /** A forward-only result set over {@code rows}, every column text ({@code VARCHAR}). */
  private static ResultSet rows(String[]... rows) {
    int columns = rows.length == 0 ? 1 : rows[0].length;
    ResultSetMetaData meta = (ResultSetMetaData) Proxy.newProxyInstance(RowChecksumTest.class.getClassLoader(),
        new Class<?>[] {ResultSetMetaData.class}, (p, m, a) -> switch (m.getName()) {
          case "getColumnCount" -> columns;
          case "getColumnType" -> Types.VARCHAR;
          default -> throw new UnsupportedOperationException(m.getName());
        });
    int[] at = {-1};
    return (ResultSet) Proxy.newProxyInstance(RowChecksumTest.class.getClassLoader(), new Class<?>[] {ResultSet.class},
        (p, m, a) -> switch (m.getName()) {
          case "next" -> ++at[0] < rows.length;
          case "getMetaData" -> meta;
          case "getString" -> rows[at[0]][(Integer) a[0] - 1];
          default -> throw new UnsupportedOperationException(m.getName());
        });
  }

  /** What the application read: {@code reached} rows of {@code rs}, then the end if it asked once more. */
  private static RowChecksum read(ResultSet rs, int reached) throws SQLException {
    RowChecksum c = new RowChecksum();
    for (int i = 0; i < reached; i++) {
      c.next(rs, rs.next());
    }
    return c;
  }

  private static final String[][] ROWS = {{"1", "alice"}, {"2", "bob"}};

  @Test
  void theSameRowsMatch() throws SQLException {
    RowChecksum all = read(rows(ROWS), 3);
    assertThat(all.rows()).isEqualTo(2);
    assertThat(all.end()).isTrue();
    assertThat(all.matches(rows(ROWS))).isTrue();
  }

  @Test
  void aChangedValueAMovedValueOrANullDiffer() throws SQLException {
    RowChecksum all = read(rows(ROWS), 3);
    for (String[][] other : List.of(
        new String[][] {{"1", "alice"}, {"2", "bobby"}},
        new String[][] {{"1", "alic"}, {"e2", "bob"}},
        new String[][] {{"1", "alice"}, {"2", ""}},
        new String[][] {{"2", "bob"}, {"1", "alice"}})) {
      assertThat(all.matches(rows(other))).as(List.of(other).toString()).isFalse();
    }
    RowChecksum empty = read(rows(new String[][] {{""}}), 1);
    assertThat(empty.matches(rows(new String[][] {{null}}))).as("NULL is not the empty string").isFalse();
  }

  @Test
  void aRowMoreOrLessDiffersWhenTheApplicationSawTheEnd() throws SQLException {
    RowChecksum all = read(rows(ROWS), 3);
    assertThat(all.matches(rows(ROWS[0]))).as("a row less").isFalse();
    assertThat(all.matches(rows(ROWS[0], ROWS[1], new String[] {"3", "carol"}))).as("a row more").isFalse();
  }

  @Test
  void rowsTheApplicationDidNotReachAreNotCompared() throws SQLException {
    RowChecksum first = read(rows(ROWS), 1);
    assertThat(first.end()).isFalse();
    assertThat(first.matches(rows(ROWS[0], new String[] {"9", "zed"}))).isTrue();
    assertThat(first.matches(rows(new String[] {"1", "alicia"}))).isFalse();
    assertThat(new RowChecksum().read()).as("nothing read, nothing compared").isFalse();
  }
}
