package dev.ryow.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeywordsTest {

  @Test
  void namesAreUniqueUpperCaseWords() {
    Set<String> seen = new HashSet<>();
    for (int code = 0; code < Keywords.count(); code++) {
      String name = Keywords.name(code);
      assertThat(seen.add(name)).as(name).isTrue();
      assertThat(name).matches("[A-Z][A-Z0-9_]*");
    }
  }

  @Test
  void everyNameIsFoundInAnyAsciiCase() {
    for (int code = 0; code < Keywords.count(); code++) {
      String name = Keywords.name(code);
      for (String spelling : new String[] {name, name.toLowerCase(Locale.ROOT), mixed(name)}) {
        String s = "x " + spelling + " y";
        assertThat(Keywords.lookup(s, 2, 2 + spelling.length())).as(spelling).isEqualTo(code);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECTX", "SELEC", "ELECT", "_SELECT", "1SELECT", "sélect", "ſelect", "ınto", "$", "x", "NEXT_VAL", "SzzEzT", "sElEcT_"})
  void otherWordsAreNone(String word) {
    assertThat(Keywords.lookup(word, 0, word.length())).isEqualTo(Keywords.NONE);
  }

  @Test
  void scanCodesAreTheWordsThatMatterAnywhereInAStatement() {
    Set<Integer> scanned = Set.of(Keywords.UPDATE, Keywords.SHARE, Keywords.IN, Keywords.FOR, Keywords.DELETE,
        Keywords.INTO, Keywords.SELECT, Keywords.GLOBAL, Keywords.PERSIST, Keywords.PERSIST_ONLY, Keywords.AUTOCOMMIT,
        Keywords.COMPLETION_TYPE, Keywords.SQL_CALC_FOUND_ROWS, Keywords.INSERT, Keywords.REPLACE, Keywords.BEGIN,
        Keywords.LOCK, Keywords.VALUE, Keywords.NEXT, Keywords.PREVIOUS);
    for (int code = 0; code < Keywords.count(); code++) {
      String name = Keywords.name(code);
      for (String spelling : new String[] {name, name.toLowerCase(Locale.ROOT), mixed(name)}) {
        String s = "(" + spelling + ")";
        assertThat(Keywords.scanCode(s, 1, 1 + spelling.length())).as(spelling)
            .isEqualTo(scanned.contains(code) ? code : Keywords.NONE);
      }
    }
    assertThat(Keywords.scanCode("ınto", 0, 4)).isEqualTo(Keywords.NONE);
    assertThat(Keywords.scanCode("ſelect", 0, 6)).isEqualTo(Keywords.NONE);
    assertThat(Keywords.scanCode("Into_", 0, 5)).isEqualTo(Keywords.NONE);
    // Same length and first letter as a scanned word, another last char (the last-letter filter).
    for (String other : new String[] {"id", "ID", "i_", "i9", "fox", "F$R", "updatı", "insertü", "nexus"}) {
      assertThat(Keywords.scanCode(other, 0, other.length())).as(other).isEqualTo(Keywords.NONE);
    }
  }

  @Test
  void functionCodesAreTheWordsWithACategory() {
    for (int code = 0; code < Keywords.count(); code++) {
      String name = Keywords.name(code);
      for (String spelling : new String[] {name, name.toLowerCase(Locale.ROOT), mixed(name)}) {
        String s = " " + spelling + "(";
        assertThat(Keywords.functionCode(s, 1, 1 + spelling.length())).as(spelling)
            .isEqualTo(Keywords.category(code) == Keywords.FN_NONE ? Keywords.NONE : code);
      }
    }
    assertThat(Keywords.functionCode("get_locks", 0, 9)).isEqualTo(Keywords.NONE);
  }

  @Test
  void mayPinIsTrueForTheLengthOfEveryPinningFunction() {
    for (int code = 0; code < Keywords.count(); code++) {
      if (Keywords.category(code) == Keywords.FN_PIN) {
        assertThat(Keywords.mayPin(Keywords.name(code).length())).as(Keywords.name(code)).isTrue();
      }
    }
    assertThat(Keywords.mayPin(5)).as("no pinning function has 5 chars").isFalse();
    assertThat(Keywords.mayPin(1000)).isFalse();
  }

  @Test
  void qualifyingSchemasHaveTheLengthsTheScanLooksUp() {
    // StatementScan looks a name before '.' up only when it has one of these lengths.
    assertThat(Keywords.name(Keywords.SYS)).hasSize(3);
    assertThat(Keywords.name(Keywords.PERFORMANCE_SCHEMA)).hasSize(18);
    assertThat(Keywords.name(Keywords.INFORMATION_SCHEMA)).hasSize(18);
  }

  @Test
  void functionCategories() {
    assertThat(Keywords.category(Keywords.GET_LOCK)).isEqualTo(Keywords.FN_PIN);
    assertThat(Keywords.category(Keywords.NEXTVAL)).isEqualTo(Keywords.FN_WRITE);
    assertThat(Keywords.category(Keywords.LAST_INSERT_ID)).isEqualTo(Keywords.FN_PRIMARY);
    assertThat(Keywords.category(Keywords.CONCAT)).isEqualTo(Keywords.FN_PURE);
    assertThat(Keywords.category(Keywords.SELECT)).isEqualTo(Keywords.FN_NONE);
    assertThat(Keywords.category(Keywords.NONE)).isEqualTo(Keywords.FN_NONE);
  }

  private static String mixed(String name) {
    StringBuilder b = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      b.append(i % 2 == 0 ? Character.toLowerCase(c) : c);
    }
    return b.toString();
  }
}
