package dev.ryow.jdbc.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.gtid.GtidSet;
import java.net.URI;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;

/** What the outgoing-call helper sends and merges (over real HTTP: ServiceCallsIT in the starter's tests). */
class HttpTokensTest {
  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String B = "8c3a9a2e-1d4f-11ef-8b7a-0242ac120002";
  private static final TokenCodec CODEC = TokenCodec.of(2048, 64, "a-key-of-sixteen-chars");

  @Test
  void theScopesSignedTokenGoesOutAndTheAnswerIsMergedBack() throws Exception {
    HttpTokens tokens = HttpTokens.of(CODEC);
    try (ConsistencyScope scope = ConsistencyScope.open()) {
      scope.advance(GtidSet.parse(A + ":1-4"));
      HttpRequest request = tokens.addTo(HttpRequest.newBuilder(URI.create("http://127.0.0.1/"))).build();
      String sent = request.headers().firstValue("X-Ryow-Token").orElseThrow();
      assertThat(CODEC.decode(sent)).isEqualTo(GtidSet.parse(A + ":1-4"));
      assertThatThrownBy(() -> TokenCodec.of(2048, 64, "another-key-of-16-chars").decode(sent))
          .as("signed with the codec's key").isInstanceOf(Exception.class);

      assertThat(tokens.merge(CODEC.encode(GtidSet.parse(A + ":1-4," + B + ":7")))).isTrue();
      assertThat(scope.gtids()).isEqualTo(GtidSet.parse(A + ":1-4," + B + ":7"));
    }
  }

  @Test
  void nothingIsSentOrMergedOutsideAScopeOrWhenSwitchedOffOrInvalid() throws Exception {
    HttpTokens tokens = HttpTokens.of(CODEC);
    assertThat(tokens.outgoing()).as("no scope").isNull();
    assertThat(tokens.addTo(HttpRequest.newBuilder(URI.create("http://127.0.0.1/"))).build().headers().map()).isEmpty();
    assertThat(tokens.merge(CODEC.encode(GtidSet.parse(B + ":7")))).as("no scope").isFalse();

    HttpTokens sendOnly = HttpTokens.of(CODEC, "X-Other", false);
    try (ConsistencyScope scope = ConsistencyScope.open()) {
      assertThat(sendOnly.merge(CODEC.encode(GtidSet.parse(B + ":7")))).isFalse();
      assertThat(tokens.merge(TokenCodec.DEFAULT.encode(GtidSet.parse(B + ":7")))).as("unsigned: rejected").isFalse();
      assertThat(tokens.merge("garbage")).isFalse();
      assertThat(tokens.merge("")).isFalse();
      assertThat(scope.gtids()).isEqualTo(GtidSet.EMPTY);
    }
    assertThatThrownBy(() -> HttpTokens.of(CODEC, " ", true)).isInstanceOf(IllegalArgumentException.class);
  }
}
