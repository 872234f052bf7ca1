package dev.ryow.jdbc.web;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.InvalidTokenException;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.config.RyowProperties;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries read-your-writes across HTTP requests. For each request it reads the consistency token
 * from a header (default {@value #DEFAULT_HEADER}) or a cookie, opens a {@link ConsistencyScope} with
 * it for the request's thread, and returns the scope's token, updated by the request's writes, in
 * the same response header (and cookie, if configured). The header is set just before the response
 * commits, so it is present even when the application flushes early; writes made after the commit
 * are also offered as an HTTP trailer of the same name where the protocol allows. The cookie is set
 * only when the request changed the token, so {@code Max-Age} counts from the last write and
 * responses that wrote nothing carry no {@code Set-Cookie}.
 *
 * <p>Configured in code ({@link #builder()}) or by init parameters: {@code headerName},
 * {@code cookieName} (none by default) with {@code cookiePath}, {@code cookieHttpOnly},
 * {@code cookieSecure}, {@code cookieSameSite} and {@code cookieMaxAge} (seconds), {@code callerHeader}
 * (a header calling services send the token in, see {@link Builder#callerHeader}), {@code invalidToken}
 * ({@code ignore}: drop it and serve the request with an empty scope, the default; {@code reject}:
 * answer 400), {@code consistency} (a mode imposed on the request's scope: {@code scope}, {@code jvm},
 * {@code latest}, {@code connection} or {@code none}; by default none is imposed and the scope adds its
 * token to the connections' configured mode, {@code jvm} unless set otherwise), and the token settings
 * {@code ryow.tokenMaxLength}, {@code ryow.tokenMaxIntervals}, {@code ryow.tokenKey} with the same
 * meaning, bounds and error messages as in the JDBC URL (parsed by their properties; when one is given,
 * the others absent have their defaults). Init parameters that are absent leave the configuration in
 * code as it is.
 */
public final class RyowConsistencyFilter implements Filter {
  /** The default request and response header. */
  public static final String DEFAULT_HEADER = "X-Ryow-Token";

  private static final Logger LOG = LoggerFactory.getLogger(RyowConsistencyFilter.class);

  private TokenCodec codec;
  private @Nullable String headerName;
  private @Nullable TokenCookie cookie;
  /** A header calling services send the token in, read and answered when present (cookie transport). */
  private @Nullable String callerHeader;
  private boolean rejectInvalid;
  /** The mode imposed on each request's scope; null: the scope adds its token to the configured mode. */
  private @Nullable ConsistencyMode scopeMode;

  /** A filter configured by init parameters (as declared in web.xml or by a framework). */
  public RyowConsistencyFilter() {
    this(TokenCodec.DEFAULT, DEFAULT_HEADER, null, false);
  }

  /**
   * A filter configured in code.
   *
   * @param codec how tokens are parsed, bounded and signed
   * @param headerName the request and response header
   * @param cookieName a cookie that also carries the token, or null
   * @param rejectInvalid answer 400 to an invalid token instead of ignoring it
   */
  public RyowConsistencyFilter(TokenCodec codec, String headerName, @Nullable String cookieName, boolean rejectInvalid) {
    this(codec, headerName, cookieName == null ? null : TokenCookie.named(cookieName), null, rejectInvalid, null);
  }

  private RyowConsistencyFilter(TokenCodec codec, @Nullable String headerName, @Nullable TokenCookie cookie,
      @Nullable String callerHeader, boolean rejectInvalid, @Nullable ConsistencyMode scopeMode) {
    this.codec = Objects.requireNonNull(codec, "codec");
    this.headerName = headerName;
    this.cookie = cookie;
    this.callerHeader = callerHeader;
    this.rejectInvalid = rejectInvalid;
    this.scopeMode = scopeMode;
  }

  /** A builder for a filter configured in code; it starts as {@link #RyowConsistencyFilter()} does. */
  public static Builder builder() {
    return new Builder();
  }

  /** Configures a {@link RyowConsistencyFilter} in code. */
  public static final class Builder {
    private TokenCodec codec = TokenCodec.DEFAULT;
    private @Nullable String headerName = DEFAULT_HEADER;
    private @Nullable TokenCookie cookie;
    private @Nullable String callerHeader;
    private boolean rejectInvalid;
    private @Nullable ConsistencyMode scopeMode;

    private Builder() {}

    /** How tokens are parsed, bounded and signed (default: unsigned, default bounds). */
    public Builder codec(TokenCodec codec) {
      this.codec = Objects.requireNonNull(codec, "codec");
      return this;
    }

    /** The request and response header ({@value #DEFAULT_HEADER} by default); null: no header, a cookie only. */
    public Builder header(@Nullable String headerName) {
      this.headerName = headerName == null || headerName.isBlank() ? null : headerName.trim();
      return this;
    }

    /** The cookie that carries the token; null (the default): none. */
    public Builder cookie(@Nullable TokenCookie cookie) {
      this.cookie = cookie;
      return this;
    }

    /**
     * A header that calling services send the token in ({@link HttpTokens}, the starter's HTTP client
     * interceptor), for a filter whose own transport is a cookie: a request that carries it is served
     * with its token (before the cookie's) and answered in the same header, so that the caller merges
     * what this request wrote; other requests are unchanged (no header on their responses). Null (the
     * default): none. Ignored when the filter's own transport is a header (that header already is one).
     */
    public Builder callerHeader(@Nullable String callerHeader) {
      this.callerHeader = callerHeader == null || callerHeader.isBlank() ? null : callerHeader.trim();
      return this;
    }

    /** Answer 400 to an invalid token instead of serving the request with an empty scope. */
    public Builder rejectInvalidTokens(boolean reject) {
      this.rejectInvalid = reject;
      return this;
    }

    /**
     * A mode imposed on each request's scope. By default none is: the scope adds the request's token to
     * the connections' configured mode (with the default {@code ryow.consistency=jvm}, reads inside a
     * request see the JVM's writes and the user's). {@link ConsistencyMode#SCOPE} narrows reads to the
     * user's own writes.
     */
    public Builder scopeMode(ConsistencyMode mode) {
      this.scopeMode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /** The filter. */
    public RyowConsistencyFilter build() {
      if (headerName == null && cookie == null) {
        throw new IllegalStateException("The filter needs a header or a cookie to carry the token");
      }
      return new RyowConsistencyFilter(codec, headerName, cookie, callerHeader, rejectInvalid, scopeMode);
    }
  }

  @Override
  public void init(FilterConfig config) throws ServletException {
    try {
      String header = parameter(config, FilterSetting.HEADER_NAME);
      if (header != null) {
        headerName = FilterSetting.HEADER_NAME.parse(header);
      }
      cookie = cookieFrom(config, cookie);
      String invalid = parameter(config, FilterSetting.INVALID_TOKEN_REJECTED);
      if (invalid != null) {
        rejectInvalid = FilterSetting.INVALID_TOKEN_REJECTED.parse(invalid);
      }
    } catch (IllegalArgumentException e) {
      throw new ServletException("Bad setting for " + getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
    String caller = config.getInitParameter("callerHeader");
    if (caller != null && !caller.isBlank()) {
      callerHeader = caller.trim();
    }
    String mode = config.getInitParameter("consistency");
    if (mode != null && !mode.isBlank()) {
      try {
        scopeMode = ConsistencyMode.valueOf(mode.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new ServletException("consistency must be one of scope, jvm, latest, connection, none, not '" + mode + "'", e);
      }
    }
    if (config.getInitParameter(RyowProperties.TOKEN_MAX_LENGTH.name()) != null
        || config.getInitParameter(RyowProperties.TOKEN_MAX_INTERVALS.name()) != null
        || config.getInitParameter(RyowProperties.TOKEN_KEY.name()) != null) {
      try {
        codec = TokenCodec.fromSettings(config::getInitParameter);
      } catch (IllegalArgumentException e) {
        throw new ServletException("Bad token setting for " + getClass().getSimpleName() + ": " + e.getMessage(), e);
      }
    }
  }

  /** The init parameter of {@code setting}, or null when it is absent or blank. */
  private static @Nullable String parameter(FilterConfig config, FilterSetting<?> setting) {
    String text = config.getInitParameter(setting.parameter());
    return text == null || text.isBlank() ? null : text;
  }

  /** {@code cookie} with the attribute {@code setting} sets, when its init parameter is given. */
  private static <T> TokenCookie attribute(FilterConfig config, TokenCookie cookie, FilterSetting<T> setting,
      BiFunction<TokenCookie, T, TokenCookie> set) {
    String text = parameter(config, setting);
    return text == null ? cookie : set.apply(cookie, setting.parse(text));
  }

  /** The cookie the init parameters describe: {@code configured} (or a new one, named) with the attributes given. */
  private static @Nullable TokenCookie cookieFrom(FilterConfig config, @Nullable TokenCookie configured) {
    String name = parameter(config, FilterSetting.COOKIE_NAME);
    TokenCookie c = name != null ? TokenCookie.named(FilterSetting.COOKIE_NAME.parse(name)) : configured;
    if (c == null) {
      return null;
    }
    c = attribute(config, c, FilterSetting.COOKIE_PATH, TokenCookie::path);
    c = attribute(config, c, FilterSetting.COOKIE_HTTP_ONLY, TokenCookie::httpOnly);
    c = attribute(config, c, FilterSetting.COOKIE_SECURE, TokenCookie::secure);
    c = attribute(config, c, FilterSetting.COOKIE_SAME_SITE, TokenCookie::sameSite);
    c = attribute(config, c, FilterSetting.COOKIE_MAX_AGE, TokenCookie::maxAge);
    return c;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!(request instanceof HttpServletRequest http) || !(response instanceof HttpServletResponse httpResponse)) {
      chain.doFilter(request, response);
      return;
    }
    ConsistencyScope scope;
    String replyHeader = replyHeader(http);
    String incoming = incomingToken(http, replyHeader);
    try {
      ConsistencyMode imposed = scopeMode;
      scope = imposed == null ? ConsistencyScope.open(incoming, codec) : ConsistencyScope.open(incoming, codec, imposed);
    } catch (InvalidTokenException e) {
      if (rejectInvalid) {
        httpResponse.sendError(HttpServletResponse.SC_BAD_REQUEST, "Invalid " + carrier() + ": " + e.getMessage());
        return;
      }
      LOG.debug("Ignoring an invalid {} on {} {}: {}", carrier(), http.getMethod(), http.getRequestURI(), e.getMessage());
      ConsistencyMode imposed = scopeMode;
      scope = imposed == null ? ConsistencyScope.open() : ConsistencyScope.open(imposed);
    }
    try (ConsistencyScope bound = scope) {
      TokenResponse wrapped = new TokenResponse(httpResponse, bound, this, incoming, replyHeader);
      offerTrailer(httpResponse, bound, replyHeader);
      chain.doFilter(request, wrapped);
      wrapped.beforeCommit();
    }
  }

  /** What carries the token, for messages. */
  private String carrier() {
    String header = headerName;
    TokenCookie c = cookie;
    return header != null ? header : "cookie " + (c == null ? "" : c.name());
  }

  /**
   * The header this request's token is read from and answered in: the filter's own, else the caller
   * header when the request carries it, else none (cookie only).
   */
  private @Nullable String replyHeader(HttpServletRequest request) {
    String own = headerName;
    if (own != null) {
      return own;
    }
    String caller = callerHeader;
    if (caller != null) {
      String value = request.getHeader(caller);
      if (value != null && !value.isEmpty()) {
        return caller;
      }
    }
    return null;
  }

  /**
   * The token the request brought: the header's, else the cookie's (URL-decoded, as {@link #writeToken}
   * encodes it).
   */
  private @Nullable String incomingToken(HttpServletRequest request, @Nullable String headerName) {
    if (headerName != null) {
      String header = request.getHeader(headerName);
      if (header != null && !header.isEmpty()) {
        return header.trim();
      }
    }
    TokenCookie tokenCookie = cookie;
    Cookie[] cookies = request.getCookies();
    if (tokenCookie != null && cookies != null) {
      for (Cookie c : cookies) {
        if (tokenCookie.name().equals(c.getName())) {
          String value = c.getValue();
          if (value == null || value.isEmpty()) {
            return null;
          }
          try {
            return URLDecoder.decode(value, StandardCharsets.US_ASCII);
          } catch (IllegalArgumentException notEncoded) {
            return value; // the codec rejects it as malformed
          }
        }
      }
    }
    return null;
  }

  private void offerTrailer(HttpServletResponse response, ConsistencyScope scope, @Nullable String headerName) {
    if (headerName == null) {
      return;
    }
    try {
      response.setTrailerFields(() -> {
        String token = tokenOf(scope);
        return token == null ? Map.of() : Map.of(headerName, token);
      });
    } catch (IllegalStateException | UnsupportedOperationException notPossible) {
      // HTTP/1.0, or a container without trailers: the header set at commit is all there is.
    }
  }

  /**
   * Puts the scope's current token on the response; called just before it commits. The cookie is set
   * only when the scope holds writes and its token differs from the one the request brought.
   */
  void writeToken(
      HttpServletResponse response, ConsistencyScope scope, @Nullable String incoming, @Nullable String header) {
    if (response.isCommitted()) {
      return;
    }
    String token = tokenOf(scope);
    if (token == null) {
      return;
    }
    if (header != null) {
      response.setHeader(header, token);
    }
    TokenCookie c = cookie;
    if (c != null && !scope.gtids().isEmpty() && !token.equals(incoming)) {
      Cookie out = new Cookie(c.name(), URLEncoder.encode(token, StandardCharsets.US_ASCII));
      out.setPath(c.path());
      out.setHttpOnly(c.isHttpOnly());
      out.setSecure(c.isSecure());
      String sameSite = c.sameSite();
      if (sameSite != null) {
        out.setAttribute("SameSite", sameSite);
      }
      Duration maxAge = c.maxAge();
      if (maxAge != null) {
        out.setMaxAge((int) maxAge.toSeconds());
      }
      response.addCookie(out);
    }
  }

  /**
   * The scope's token, or null (logged) when even its widened form exceeds the codec's bounds: the
   * response then goes out without one rather than fail at commit.
   */
  private @Nullable String tokenOf(ConsistencyScope scope) {
    try {
      return scope.token(codec);
    } catch (IllegalArgumentException tooLarge) {
      LOG.warn("No {} on this response: {}", carrier(), tooLarge.getMessage());
      return null;
    }
  }

  @Override
  public String toString() {
    return "RyowConsistencyFilter[header=" + headerName + ", cookie=" + cookie + ", callerHeader=" + callerHeader
        + ", scope=" + scopeMode + ", " + codec + "]";
  }
}
