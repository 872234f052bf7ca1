package dev.ryow.jdbc.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.gtid.GtidSet;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The token header the filter writes at commit (the request path is covered by HttpPropagationIT). */
class RyowConsistencyFilterTest {
  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String B = "8c3a9a2e-1d4f-11ef-8b7a-0242ac120002";

  /** A response that records headers; nothing else of the interface is used by writeToken. */
  private static HttpServletResponse recording(Map<String, String> headers) {
    return (HttpServletResponse) Proxy.newProxyInstance(
        HttpServletResponse.class.getClassLoader(),
        new Class<?>[] {HttpServletResponse.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "isCommitted" -> false;
          case "setHeader" -> headers.put((String) args[0], (String) args[1]);
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  @Test
  void aFragmentedScopeGoesOutWidenedAndDecodable() throws Exception {
    TokenCodec codec = TokenCodec.of(2048, 2, null);
    RyowConsistencyFilter filter = new RyowConsistencyFilter(codec, "X-Ryow-Token", null, false);
    Map<String, String> headers = new LinkedHashMap<>();
    try (ConsistencyScope scope = ConsistencyScope.open()) {
      scope.advance(GtidSet.parse(A + ":3:5:7"));
      filter.writeToken(recording(headers), scope);
    }
    assertThat(headers).containsEntry("X-Ryow-Token", A + ":3-7");
    assertThat(codec.decode(headers.get("X-Ryow-Token"))).isEqualTo(GtidSet.parse(A + ":3-7"));
  }

  @Test
  void aScopeTooLargeEvenWidenedLeavesTheResponseWithoutAToken() {
    RyowConsistencyFilter filter = new RyowConsistencyFilter(TokenCodec.of(2048, 1, null), "X-Ryow-Token", null, false);
    Map<String, String> headers = new LinkedHashMap<>();
    try (ConsistencyScope scope = ConsistencyScope.open()) {
      scope.advance(GtidSet.parse(A + ":1," + B + ":1"));
      filter.writeToken(recording(headers), scope);
    }
    assertThat(headers).isEmpty();
  }
}
