package dev.ryow.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which statements may commit an open transaction by themselves (transaction replay never runs past one). */
class ImplicitCommitsTest {
  @Test
  void dataDefinitionLockingAccountsAndTransactionStartsMayCommit() {
    for (String sql : new String[] {"CREATE TABLE t (id INT)", "alter table t add c int", "DROP TABLE t",
        "RENAME TABLE a TO b", "TRUNCATE t", "GRANT SELECT ON *.* TO u", "LOCK TABLES t WRITE", "UNLOCK TABLES",
        "START TRANSACTION", "BEGIN", "  /* c */ -- x\n CREATE INDEX i ON t (c)", "/*!50000 CREATE TABLE t (i INT) */",
        "ANALYZE TABLE t", "OPTIMIZE TABLE t", "FLUSH TABLES", "XA START 'x'", "SELECT 1; DROP TABLE t",
        "SELECT 'unterminated", "CALL p()"}) {
      assertThat(ImplicitCommits.possible(sql)).as(sql).isTrue();
    }
  }

  @Test
  void readsAndRowWritesDoNot() {
    for (String sql : new String[] {"SELECT * FROM t", "INSERT INTO t VALUES (1)", "UPDATE t SET create = 1",
        "DELETE FROM t WHERE drop = 'CREATE TABLE x'", "SELECT ';' AS semi, 'DROP' AS d", "SAVEPOINT a",
        "SET @a = 1", "", "   "}) {
      assertThat(ImplicitCommits.possible(sql)).as(sql).isFalse();
    }
  }
}
