package dev.ryow.jdbc.web;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.InvalidTokenException;
import dev.ryow.jdbc.TokenCodec;
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
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries read-your-writes across HTTP requests. For each request it reads the consistency token
 * from a header (default {@value #DEFAULT_HEADER}) or a cookie, opens a {@link ConsistencyScope} with
 * it for the request's thread, and returns the scope's token, updated by the request's writes, in
 * the same response header (and cookie, if configured). The header is set just before the response
 * commits, so it is present even when the application flushes early; writes made after the commit
 * are also offered as an HTTP trailer of the same name where the protocol allows.
 *
 * <p>Init parameters: {@code headerName}, {@code cookieName} (none by default), {@code invalidToken}
 * ({@code ignore}: drop it and serve the request with an empty scope, the default; {@code reject}:
 * answer 400), and the token settings {@code ryow.tokenMaxLength}, {@code ryow.tokenMaxIntervals},
 * {@code ryow.tokenKey} with the same meaning as in the JDBC URL.
 */
public final class RyowConsistencyFilter implements Filter {
  /** The default request and response header. */
  public static final String DEFAULT_HEADER = "X-Ryow-Token";

  private static final Logger LOG = LoggerFactory.getLogger(RyowConsistencyFilter.class);

  private TokenCodec codec;
  private String headerName;
  private @Nullable String cookieName;
  private boolean rejectInvalid;

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
    this.codec = codec;
    this.headerName = headerName;
    this.cookieName = cookieName;
    this.rejectInvalid = rejectInvalid;
  }

  @Override
  public void init(FilterConfig config) throws ServletException {
    String header = config.getInitParameter("headerName");
    if (header != null && !header.isBlank()) {
      headerName = header.trim();
    }
    String cookie = config.getInitParameter("cookieName");
    if (cookie != null && !cookie.isBlank()) {
      cookieName = cookie.trim();
    }
    String invalid = config.getInitParameter("invalidToken");
    if (invalid != null) {
      switch (invalid.trim().toLowerCase(java.util.Locale.ROOT)) {
        case "ignore" -> rejectInvalid = false;
        case "reject" -> rejectInvalid = true;
        default -> throw new ServletException("invalidToken must be 'ignore' or 'reject', not '" + invalid + "'");
      }
    }
    try {
      codec = TokenCodec.of(
          intParameter(config, "ryow.tokenMaxLength", TokenCodec.DEFAULT_MAX_LENGTH),
          intParameter(config, "ryow.tokenMaxIntervals", TokenCodec.DEFAULT_MAX_INTERVALS),
          config.getInitParameter("ryow.tokenKey"));
    } catch (IllegalArgumentException e) {
      throw new ServletException("Bad token setting for " + getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
  }

  private static int intParameter(FilterConfig config, String name, int defaultValue) throws ServletException {
    String text = config.getInitParameter(name);
    if (text == null || text.isBlank()) {
      return defaultValue;
    }
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new ServletException(name + " must be an integer, not '" + text + "'", e);
    }
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!(request instanceof HttpServletRequest http) || !(response instanceof HttpServletResponse httpResponse)) {
      chain.doFilter(request, response);
      return;
    }
    ConsistencyScope scope;
    try {
      scope = ConsistencyScope.open(incomingToken(http), codec);
    } catch (InvalidTokenException e) {
      if (rejectInvalid) {
        httpResponse.sendError(HttpServletResponse.SC_BAD_REQUEST, "Invalid " + headerName + ": " + e.getMessage());
        return;
      }
      LOG.debug("Ignoring an invalid {} on {} {}: {}", headerName, http.getMethod(), http.getRequestURI(), e.getMessage());
      scope = ConsistencyScope.open();
    }
    try (ConsistencyScope bound = scope) {
      TokenResponse wrapped = new TokenResponse(httpResponse, bound, this);
      offerTrailer(httpResponse, bound);
      chain.doFilter(request, wrapped);
      wrapped.beforeCommit();
    }
  }

  private @Nullable String incomingToken(HttpServletRequest request) {
    String header = request.getHeader(headerName);
    if (header != null && !header.isEmpty()) {
      return header.trim();
    }
    String cookie = cookieName;
    Cookie[] cookies = request.getCookies();
    if (cookie != null && cookies != null) {
      for (Cookie c : cookies) {
        if (cookie.equals(c.getName())) {
          return c.getValue();
        }
      }
    }
    return null;
  }

  private void offerTrailer(HttpServletResponse response, ConsistencyScope scope) {
    try {
      response.setTrailerFields(() -> {
        String token = tokenOf(scope);
        return token == null ? Map.of() : Map.of(headerName, token);
      });
    } catch (IllegalStateException | UnsupportedOperationException notPossible) {
      // HTTP/1.0, or a container without trailers: the header set at commit is all there is.
    }
  }

  /** Puts the scope's current token on the response; called just before it commits. */
  void writeToken(HttpServletResponse response, ConsistencyScope scope) {
    if (response.isCommitted()) {
      return;
    }
    String token = tokenOf(scope);
    if (token == null) {
      return;
    }
    response.setHeader(headerName, token);
    String cookie = cookieName;
    if (cookie != null && !token.isEmpty()) {
      Cookie c = new Cookie(cookie, java.net.URLEncoder.encode(token, java.nio.charset.StandardCharsets.US_ASCII));
      c.setHttpOnly(true);
      c.setPath("/");
      response.addCookie(c);
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
      LOG.warn("No {} on this response: {}", headerName, tooLarge.getMessage());
      return null;
    }
  }

  @Override
  public String toString() {
    return "RyowConsistencyFilter[header=" + headerName + ", cookie=" + cookieName + ", " + codec + "]";
  }
}
