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
  @ValueSource(strings = {"SELECTX", "SELEC", "ELECT", "_SELECT", "1SELECT", "sélect", "ſelect", "ınto", "$", "x", "NEXT_VAL", "SzzEzT", "sElEcT_"})
  void otherWordsAreNone(String word) {
    assertThat(Keywords.lookup(word, 0, word.length())).isEqualTo(Keywords.NONE);
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
