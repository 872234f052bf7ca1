package dev.ryow.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ClassificationCacheTest {

  @Property(tries = 3000)
  void answersExactlyAsTheClassifier(@ForAll String sql) {
    ClassificationCache cache = new ClassificationCache();
    assertThat(cache.classify(sql)).isEqualTo(SqlClassifier.classify(sql));
    assertThat(cache.classify(sql)).as("from the cache").isEqualTo(SqlClassifier.classify(sql));
    assertThat(cache.classify(new String(sql.toCharArray()))).as("same text, new string").isEqualTo(SqlClassifier.classify(sql));
  }

  @Test
  void collisionsAndLongTextsStayCorrect() {
    ClassificationCache cache = new ClassificationCache();
    // "Aa" and "BB" have the same String.hashCode: one slot, two different statements.
    String read = "SELECT Aa FROM t";
    String write = "DELETE FROM BB";
    for (int i = 0; i < 3; i++) {
      assertThat(cache.classify(read)).isEqualTo(StatementKind.READ);
      assertThat(cache.classify(write)).isEqualTo(StatementKind.WRITE);
    }
    String longRead = "SELECT " + "x, ".repeat(500) + "y FROM t";
    assertThat(longRead.length()).isGreaterThan(ClassificationCache.MAX_CACHED_LENGTH);
    assertThat(cache.classify(longRead)).isEqualTo(StatementKind.READ);
    assertThat(cache.classify(longRead + "; DELETE FROM t")).isEqualTo(StatementKind.WRITE);
  }
}
