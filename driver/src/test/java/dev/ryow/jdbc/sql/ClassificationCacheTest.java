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

  @Test
  void aRememberedWriteClassifiesAsAWriteInEverySpellingOfItsShape() {
    ClassificationCache cache = new ClassificationCache();
    assertThat(cache.classify("SELECT f(1)")).isEqualTo(StatementKind.READ);
    assertThat(cache.uncached("SELECT f(?)")).isEqualTo(StatementKind.READ);
    assertThat(cache.rememberWrite("SELECT f(1)")).isEqualTo("SELECT f ( ? )");
    assertThat(cache.rememberWrite("SELECT  f( 2 )")).as("known already: not new").isNull();
    assertThat(cache.classify("SELECT f(1)")).as("was cached as a read").isEqualTo(StatementKind.WRITE);
    assertThat(cache.classify("select f(99)".toUpperCase(java.util.Locale.ROOT).replace("SELECT F", "SELECT f")))
        .isEqualTo(StatementKind.WRITE);
    assertThat(cache.uncached("SELECT f(?)")).as("prepared text").isEqualTo(StatementKind.WRITE);
    assertThat(cache.isRememberedWrite("SELECT f('x')")).isTrue();
    assertThat(cache.classify("SELECT g(1)")).as("other shapes stay reads").isEqualTo(StatementKind.READ);
    assertThat(cache.classify("DELETE FROM t")).isEqualTo(StatementKind.WRITE);
  }

  @Test
  void rememberedWritesAreBounded() {
    ClassificationCache cache = new ClassificationCache();
    for (int i = 0; i < ClassificationCache.MAX_HIDDEN_WRITES; i++) {
      assertThat(cache.rememberWrite("SELECT f" + i + "()")).isNotNull();
    }
    assertThat(cache.rememberWrite("SELECT one_too_many()")).isNull();
    assertThat(cache.classify("SELECT one_too_many()")).isEqualTo(StatementKind.READ);
    assertThat(cache.classify("SELECT f7()")).isEqualTo(StatementKind.WRITE);
  }

  @Test
  void cachedReportsWhatTheCacheHoldsWithoutClassifying() {
    ClassificationCache cache = new ClassificationCache();
    String sql = "SELECT v FROM t WHERE id = ?";
    assertThat(cache.cached(sql)).isNull();
    cache.classify(sql);
    assertThat(cache.cached(new String(sql.toCharArray()))).isEqualTo(StatementKind.READ);
    String longRead = "SELECT " + "x, ".repeat(500) + "y FROM t";
    cache.classify(longRead);
    assertThat(cache.cached(longRead)).as("longer than the cache keeps").isNull();
  }
}
