package dev.ryow.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.gtid.GtidSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ConsistencyScopeTest {
  private static final GtidSet ONE = GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1");
  private static final GtidSet TWO = GtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:2");

  @Test
  void perCallScopesSayHowFreshTheirReadsMustBe() {
    try (ConsistencyScope s = ConsistencyScope.readYourWrites()) {
      assertThat(s.modeGiven()).as("adds to the configured mode").isFalse();
      assertThat(s.staleAllowed()).isFalse();
      assertThat(s.maxLagMillis()).isEqualTo(-1);
    }
    try (ConsistencyScope s = ConsistencyScope.freshRead()) {
      assertThat(s.mode()).isEqualTo(ConsistencyMode.LATEST);
      assertThat(s.modeGiven()).isTrue();
      assertThat(s.staleAllowed()).isFalse();
      try (ConsistencyScope inner = ConsistencyScope.allowStale(250)) {
        assertThat(ConsistencyScope.current()).isSameAs(inner);
        assertThat(inner.mode()).isEqualTo(ConsistencyMode.NONE);
        assertThat(inner.staleAllowed()).isTrue();
        assertThat(inner.maxLagMillis()).isEqualTo(250);
      }
      assertThat(ConsistencyScope.current()).isSameAs(s);
    }
    assertThat(ConsistencyScope.current()).isNull();
    assertThatThrownBy(() -> ConsistencyScope.allowStale(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxLagMillis must be 0 or more");
    assertThat(ConsistencyScope.current()).as("nothing opened").isNull();
  }

  @Test
  void bindsToTheThreadUntilClosed() throws Exception {
    assertThat(ConsistencyScope.current()).isNull();
    try (ConsistencyScope scope = ConsistencyScope.open()) {
      assertThat(ConsistencyScope.current()).isSameAs(scope);
      assertThat(scope.mode()).isEqualTo(ConsistencyMode.SCOPE);
      assertThat(scope.modeGiven()).as("adds to the configured mode").isFalse();
      try (ConsistencyScope inner = ConsistencyScope.open(ConsistencyMode.SCOPE)) {
        assertThat(inner.modeGiven()).isTrue();
      }
      assertThat(CompletableFuture.supplyAsync(ConsistencyScope::current).get()).as("other threads").isNull();
    }
    assertThat(ConsistencyScope.current()).isNull();
  }

  @Test
  void nestedScopesStartWithTheOuterWritesAndHandTheirsBack() {
    try (ConsistencyScope outer = ConsistencyScope.open()) {
      outer.advance(ONE);
      try (ConsistencyScope inner = ConsistencyScope.open(ConsistencyMode.JVM)) {
        assertThat(inner.gtids()).isEqualTo(ONE);
        inner.advance(TWO);
        assertThat(outer.gtids()).isEqualTo(ONE);
      }
      assertThat(ConsistencyScope.current()).isSameAs(outer);
      assertThat(outer.gtids()).isEqualTo(ONE.union(TWO));
    }
  }

  @Test
  void closingOutOfOrderOrOnAnotherThreadIsAnError() throws Exception {
    ConsistencyScope outer = ConsistencyScope.open();
    ConsistencyScope inner = ConsistencyScope.open();
    try {
      assertThatThrownBy(outer::close).isInstanceOf(IllegalStateException.class);
      Throwable other = CompletableFuture.runAsync(inner::close).handle((v, e) -> e).get();
      assertThat(other).hasCauseInstanceOf(IllegalStateException.class);
    } finally {
      inner.close();
      outer.close();
    }
    assertThat(ConsistencyScope.current()).isNull();
  }

  @Test
  void tokensInAndOut() throws Exception {
    try (ConsistencyScope scope = ConsistencyScope.open(ONE.toString(), TokenCodec.DEFAULT)) {
      scope.merge(TWO.toString(), TokenCodec.DEFAULT);
      assertThat(TokenCodec.DEFAULT.decode(scope.token(TokenCodec.DEFAULT))).isEqualTo(ONE.union(TWO));
    }
    assertThatThrownBy(() -> ConsistencyScope.open("nope", TokenCodec.DEFAULT)).isInstanceOf(InvalidTokenException.class);
    assertThat(ConsistencyScope.current()).as("no scope left bound after a bad token").isNull();
  }
}
