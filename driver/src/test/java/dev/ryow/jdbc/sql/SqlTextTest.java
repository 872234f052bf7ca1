package dev.ryow.jdbc.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlTextTest {

  @Test
  void literalsBecomeMarksCommentsAndSpacingGo() {
    assertThat(SqlText.shape("SELECT f(1), 'secret', \"x\"  FROM t /* c */ WHERE a = 2.5e3 -- end"))
        .isEqualTo("SELECT f ( ? ) , ? , ? FROM t WHERE a = ?");
    assertThat(SqlText.shape("select  f(42)")).isEqualTo(SqlText.shape("select f( 7 )"));
    assertThat(SqlText.shape("SELECT f(2.5e-3, .5, 0x1F, -7, t.c)")).isEqualTo("SELECT f ( ? , ? , ? , - ? , t . c )");
    assertThat(SqlText.shape("SELECT `a b`, @v, @@port")).isEqualTo("SELECT `a b` , @v , @@port");
  }

  @Test
  void aShapeNeverHoldsALiteral() {
    assertThat(SqlText.shape("SELECT set_pw('hunter2', 'it''s', 'a\\'b')")).doesNotContain("hunter2", "it", "a\\");
  }

  @Test
  void noShapeForUnlexableOrLongText() {
    assertThat(SqlText.shape("SELECT 'unterminated")).isNull();
    assertThat(SqlText.shape("SELECT 1 /* open")).isNull();
    assertThat(SqlText.shape("SELECT " + "x, ".repeat(600) + "y")).isNull();
    assertThat(SqlText.shape("")).isEmpty();
  }
}
