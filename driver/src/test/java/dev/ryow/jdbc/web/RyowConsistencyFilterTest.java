package dev.ryow.jdbc.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.config.ConfigException;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The token the filter reads from a request and writes at commit, header and cookie (the request path
 * through a real container is covered by HttpPropagationIT and the Spring Boot starter's TwoInstancesIT).
 */
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
      filter.writeToken(recording(headers), scope, null, "X-Ryow-Token");
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
      filter.writeToken(recording(headers), scope, null, "X-Ryow-Token");
    }
    assertThat(headers).isEmpty();
  }

  /** A request with {@code header} as the token header (or none) and {@code cookies}. */
  private static HttpServletRequest request(@Nullable String header, Cookie... cookies) {
    return (HttpServletRequest) Proxy.newProxyInstance(
        HttpServletRequest.class.getClassLoader(),
        new Class<?>[] {HttpServletRequest.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "getHeader" -> "X-Ryow-Token".equals(args[0]) ? header : null;
          case "getCookies" -> cookies.length == 0 ? null : cookies;
          case "getMethod" -> "GET";
          case "getRequestURI" -> "/items";
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  /** A response that records headers, cookies and errors; it has no trailers (HTTP/1.0-like). */
  private static HttpServletResponse response(Map<String, String> headers, List<Cookie> cookies, AtomicInteger error) {
    return (HttpServletResponse) Proxy.newProxyInstance(
        HttpServletResponse.class.getClassLoader(),
        new Class<?>[] {HttpServletResponse.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "isCommitted" -> false;
          case "setHeader" -> headers.put((String) args[0], (String) args[1]);
          case "addCookie" -> cookies.add((Cookie) args[0]);
          case "sendError" -> {
            error.set((Integer) args[0]);
            yield null;
          }
          case "setTrailerFields" -> throw new UnsupportedOperationException("no trailers");
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  private static FilterConfig initParameters(Map<String, String> parameters) {
    return new FilterConfig() {
      @Override
      public String getFilterName() {
        return "ryow";
      }

      @Override
      public @Nullable ServletContext getServletContext() {
        return null;
      }

      @Override
      public @Nullable String getInitParameter(String name) {
        return parameters.get(name);
      }

      @Override
      public java.util.Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(parameters.keySet());
      }
    };
  }

  @Test
  void aTokenCookieComesBackAsTheSameScope() throws Exception {
    // Before the fix the cookie was written URL-encoded and read back undecoded: an invalid token, dropped.
    RyowConsistencyFilter filter = new RyowConsistencyFilter(TokenCodec.DEFAULT, "X-Ryow-Token", "RYOW_TOKEN", false);
    GtidSet wrote = GtidSet.parse(A + ":1-5," + B + ":7");
    List<Cookie> set = new ArrayList<>();
    filter.doFilter(request(null), response(new LinkedHashMap<>(), set, new AtomicInteger()),
        (req, resp) -> ConsistencyScope.current().advance(wrote));
    assertThat(set).hasSize(1);
    assertThat(set.get(0).getValue()).as("no comma in a cookie value (RFC 6265)").doesNotContain(",");
    AtomicReference<Position> seen = new AtomicReference<>();
    filter.doFilter(request(null, new Cookie("RYOW_TOKEN", set.get(0).getValue())),
        response(new LinkedHashMap<>(), new ArrayList<>(), new AtomicInteger()),
        (FilterChain) (req, resp) -> seen.set(ConsistencyScope.current().gtids()));
    assertThat(seen.get()).as("the scope opened from the cookie the filter set").isEqualTo(wrote);
  }

  @Test
  void theCookieCarriesItsAttributesAndIsSetOnlyWhenTheTokenChanged() throws Exception {
    TokenCodec codec = TokenCodec.of(2048, 64, "a-key-of-sixteen-chars");
    RyowConsistencyFilter filter = RyowConsistencyFilter.builder()
        .codec(codec)
        .header(null)
        .cookie(TokenCookie.named("T").path("/app").secure(true).sameSite("Strict").maxAge(Duration.ofMinutes(5)))
        .build();
    Map<String, String> headers = new LinkedHashMap<>();
    List<Cookie> set = new ArrayList<>();
    filter.doFilter(request(null), response(headers, set, new AtomicInteger()), (req, resp) -> { });
    assertThat(set).as("nothing written, nothing to carry: no Set-Cookie").isEmpty();

    filter.doFilter(request(null), response(headers, set, new AtomicInteger()),
        (req, resp) -> ConsistencyScope.current().advance(GtidSet.parse(A + ":1-3")));
    assertThat(headers).as("cookie only: no header").isEmpty();
    assertThat(set).hasSize(1);
    Cookie c = set.get(0);
    assertThat(c.getName()).isEqualTo("T");
    assertThat(c.getPath()).isEqualTo("/app");
    assertThat(c.isHttpOnly()).isTrue();
    assertThat(c.getSecure()).isTrue();
    assertThat(c.getAttribute("SameSite")).isEqualTo("Strict");
    assertThat(c.getMaxAge()).isEqualTo(300);
    assertThat(codec.decode(java.net.URLDecoder.decode(c.getValue(), java.nio.charset.StandardCharsets.US_ASCII)))
        .isEqualTo(GtidSet.parse(A + ":1-3"));

    List<Cookie> again = new ArrayList<>();
    filter.doFilter(request(null, c), response(headers, again, new AtomicInteger()), (req, resp) -> { });
    assertThat(again).as("a read-only request leaves the cookie (and its Max-Age) as it is").isEmpty();
  }

  @Test
  void aCookieFilterServesACallingServiceInTheCallerHeaderAndOthersAsBefore() throws Exception {
    TokenCodec codec = TokenCodec.of(2048, 64, "a-key-of-sixteen-chars");
    RyowConsistencyFilter filter = RyowConsistencyFilter.builder()
        .codec(codec)
        .header(null)
        .cookie(TokenCookie.named("T"))
        .callerHeader("X-Ryow-Token")
        .build();
    GtidSet caller = GtidSet.parse(A + ":1-3");
    Map<String, String> headers = new LinkedHashMap<>();
    List<Cookie> set = new ArrayList<>();
    AtomicReference<Position> seen = new AtomicReference<>();
    filter.doFilter(request(codec.encode(caller)), response(headers, set, new AtomicInteger()), (req, resp) -> {
      seen.set(ConsistencyScope.current().gtids());
      ConsistencyScope.current().advance(GtidSet.parse(B + ":9"));
    });
    assertThat(seen.get()).as("the calling service's token opened the scope").isEqualTo(caller);
    assertThat(codec.decode(headers.get("X-Ryow-Token"))).as("answered in the caller header")
        .isEqualTo(GtidSet.parse(A + ":1-3," + B + ":9"));

    Map<String, String> browserHeaders = new LinkedHashMap<>();
    filter.doFilter(request(null), response(browserHeaders, new ArrayList<>(), new AtomicInteger()),
        (req, resp) -> ConsistencyScope.current().advance(GtidSet.parse(B + ":10")));
    assertThat(browserHeaders).as("a request without the caller header gets no header").isEmpty();

    RyowConsistencyFilter without =
        RyowConsistencyFilter.builder().codec(codec).header(null).cookie(TokenCookie.named("T")).build();
    seen.set(null);
    Map<String, String> none = new LinkedHashMap<>();
    without.doFilter(request(codec.encode(caller)), response(none, new ArrayList<>(), new AtomicInteger()),
        (req, resp) -> seen.set(ConsistencyScope.current().gtids()));
    assertThat(seen.get()).as("no caller header configured: the header is not read").isEqualTo(GtidSet.EMPTY);
    assertThat(none).isEmpty();
  }

  @Test
  void theRequestScopeHasTheConfiguredMode() throws Exception {
    AtomicReference<ConsistencyMode> mode = new AtomicReference<>();
    AtomicReference<Boolean> given = new AtomicReference<>();
    FilterChain chain = (req, resp) -> {
      mode.set(ConsistencyScope.current().mode());
      given.set(ConsistencyScope.current().modeGiven());
    };
    RyowConsistencyFilter.builder().build()
        .doFilter(request(null), response(new LinkedHashMap<>(), new ArrayList<>(), new AtomicInteger()), chain);
    assertThat(given.get()).as("by default the scope adds to the configured mode (jvm by default)").isFalse();
    assertThat(mode.get()).isEqualTo(ConsistencyMode.SCOPE);
    RyowConsistencyFilter.builder().scopeMode(ConsistencyMode.JVM).build()
        .doFilter(request("garbage"), response(new LinkedHashMap<>(), new ArrayList<>(), new AtomicInteger()), chain);
    assertThat(mode.get()).as("also when an invalid token was dropped").isEqualTo(ConsistencyMode.JVM);
    assertThat(given.get()).isTrue();
  }

  @Test
  void aContainerCallingInitWithoutParametersKeepsTheFilterConfiguredInCode() throws Exception {
    // Frameworks register filter instances built in code; the container still calls init(). Before the fix
    // init() replaced the codec with the unsigned default, so unsigned (forgeable) tokens were accepted.
    RyowConsistencyFilter filter =
        new RyowConsistencyFilter(TokenCodec.of(2048, 64, "a-key-of-sixteen-chars"), "X-Ryow-Token", null, true);
    filter.init(initParameters(Map.of()));
    AtomicInteger error = new AtomicInteger();
    AtomicInteger served = new AtomicInteger();
    filter.doFilter(request(A + ":1"), response(new LinkedHashMap<>(), new ArrayList<>(), error),
        (req, resp) -> served.incrementAndGet());
    assertThat(error.get()).as("an unsigned token is rejected by the signed codec").isEqualTo(400);
    assertThat(served.get()).isZero();
  }

  @Test
  void initParametersConfigureTheCookie() throws Exception {
    RyowConsistencyFilter filter = new RyowConsistencyFilter();
    filter.init(initParameters(Map.of("cookieName", "C", "cookieSameSite", "Lax", "cookieMaxAge", "60",
        "cookieHttpOnly", "false", "consistency", "jvm")));
    List<Cookie> set = new ArrayList<>();
    AtomicReference<ConsistencyMode> mode = new AtomicReference<>();
    filter.doFilter(request(null), response(new LinkedHashMap<>(), set, new AtomicInteger()), (req, resp) -> {
      mode.set(ConsistencyScope.current().mode());
      ConsistencyScope.current().advance(GtidSet.parse(A + ":9"));
    });
    assertThat(mode.get()).isEqualTo(ConsistencyMode.JVM);
    assertThat(set).singleElement().satisfies(c -> {
      assertThat(c.getName()).isEqualTo("C");
      assertThat(c.isHttpOnly()).isFalse();
      assertThat(c.getAttribute("SameSite")).isEqualTo("Lax");
      assertThat(c.getMaxAge()).isEqualTo(60);
    });
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new RyowConsistencyFilter().init(initParameters(Map.of("consistency", "eventual"))))
        .hasMessageContaining("consistency must be one of");
  }

  /** The message a {@code jdbc:ryow:} URL gets for {@code key=value}. */
  private static String urlMessage(String key, String value) {
    String url = "jdbc:ryow:mysql://h1:3306,h2:3306/db?" + key + "=" + value;
    return org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class,
        () -> RyowConfig.from(url, new Properties())).getMessage();
  }

  @Test
  void tokenSettingsInInitParametersAreCheckedByThePropertyTableAsInAUrl() {
    // Before: the filter parsed them by name without the table's bounds; a 3-character key was accepted
    // (tokens signed with it), refused in a URL.
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put("ryow.tokenKey", "abc");
    bad.put("ryow.tokenMaxLength", "10");
    bad.put("ryow.tokenMaxIntervals", "0");
    bad.put("ryow.tokenMaxLength ", "x");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      String key = e.getKey().strip();
      String inUrl = urlMessage(key, e.getValue());
      assertThat(inUrl).startsWith("Invalid value for " + key + ": ");
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> new RyowConsistencyFilter().init(initParameters(Map.of(key, e.getValue()))))
          .isInstanceOf(jakarta.servlet.ServletException.class)
          .hasMessage("Bad token setting for RyowConsistencyFilter: " + inUrl);
    }
    assertThat(urlMessage("ryow.tokenKey", "abc")).doesNotContain("abc");
  }

  @Test
  void validTokenInitParametersConfigureTheCodec() throws Exception {
    RyowConsistencyFilter filter = new RyowConsistencyFilter();
    filter.init(initParameters(Map.of("ryow.tokenKey", "a-key-of-sixteen-chars", "invalidToken", "reject")));
    AtomicInteger error = new AtomicInteger();
    filter.doFilter(request(A + ":1"), response(new LinkedHashMap<>(), new ArrayList<>(), error), (req, resp) -> { });
    assertThat(error.get()).as("an unsigned token is rejected by the signed codec").isEqualTo(400);

    RyowConsistencyFilter bounded = new RyowConsistencyFilter();
    bounded.init(initParameters(Map.of("ryow.tokenMaxIntervals", "1", "invalidToken", "reject")));
    AtomicInteger served = new AtomicInteger();
    AtomicInteger tooMany = new AtomicInteger();
    bounded.doFilter(request(A + ":1"), response(new LinkedHashMap<>(), new ArrayList<>(), new AtomicInteger()),
        (req, resp) -> served.incrementAndGet());
    bounded.doFilter(request(A + ":1," + B + ":1"), response(new LinkedHashMap<>(), new ArrayList<>(), tooMany),
        (req, resp) -> served.incrementAndGet());
    assertThat(served.get()).as("the one-interval token is served").isEqualTo(1);
    assertThat(tooMany.get()).as("two intervals exceed ryow.tokenMaxIntervals=1").isEqualTo(400);
  }
}
