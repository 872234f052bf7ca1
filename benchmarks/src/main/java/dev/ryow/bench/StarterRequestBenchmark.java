package dev.ryow.bench;

import dev.ryow.bench.stub.StubCluster;
import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.web.RyowConsistencyFilter;
import dev.ryow.jdbc.web.TokenCookie;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * What the Spring Boot starter adds to one web request, in the application JVM's CPU time: the same
 * request flow through {@code jdbc:ryow:} over the stub driver ({@link StubCluster}: no network, answers at
 * once), without the starter ({@code driver}: the handler runs as a servlet would run it) and with what the
 * starter puts around each request ({@code starter}): {@link RyowConsistencyFilter} built as
 * {@code RyowWebAutoConfiguration} builds it with its defaults and a {@code ryow.token-key} (the token in the
 * {@code RYOW_TOKEN} cookie, HMAC-signed; service calls answered in {@code X-Ryow-Token}; the request's scope
 * in {@code jvm} mode), so the difference is the filter, the token's parsing and signature check, the
 * signing of the new token and its cookie, and the scope each request opens (including what the driver
 * does for a scope on each statement).
 *
 * <ul>
 *   <li>{@code write}: a user's POST: the request brings the token of the user's last write (cookie), the
 *       handler inserts a row and reads one back; the response sets the new token's cookie.
 *   <li>{@code read}: a user's GET after a write: the token in the cookie, two reads, no write (no
 *       {@code Set-Cookie} once the cookie holds what the reads saw).
 * </ul>
 *
 * <p>Both sides build the same Spring mock request and response per operation (a container's own cost is
 * not the starter's) and reuse one logical connection and its prepared statements, as a pool hands back a
 * connection with its statement cache; so what cancels out of the difference is the handler, the statements
 * and the mocks. The stub answers no pipelined wait (a wait and a query in one packet): a read that must
 * wait (the read-back after the POST's insert) fails there and the driver places it again, on both
 * sides alike. The starter's meters read the driver's counters when scraped and cost nothing per request;
 * {@code @FreshRead}/{@code @AllowStale} advice runs only on annotated methods and is not measured here.
 * The figure to read is {@code cpu.time.norm} ({@link CpuTimeProfiler}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
@State(Scope.Thread)
public class StarterRequestBenchmark {
  /** The same key length a deployment would use (16 characters or more). */
  static final String KEY = "a-benchmark-token-key-32-chars!!";
  static final String COOKIE = "RYOW_TOKEN";

  /** {@code driver}: the handler alone; {@code starter}: inside the starter's filter. */
  @Param({"driver", "starter"})
  public String side;

  private Connection connection;
  private PreparedStatement insert;
  private PreparedStatement select;
  private RyowConsistencyFilter filter;
  private FilterChain writeChain;
  private FilterChain readChain;
  /** The user's cookie: the token the last write's response set (starter side). */
  private Cookie userCookie;
  private long id;
  private int sink;

  /** Opens the connection and statements, builds the filter, and makes the user's first write. */
  @Setup(Level.Trial)
  public void setUp() throws Exception {
    StubCluster stub = new StubCluster("ryow.tokenKey=" + KEY);
    connection = stub.ryow();
    insert = connection.prepareStatement("INSERT INTO bench_items (id, v) VALUES (?, ?)");
    select = connection.prepareStatement("SELECT v FROM bench_items WHERE id = ?");
    filter = RyowConsistencyFilter.builder()
        .codec(TokenCodec.of(TokenCodec.DEFAULT_MAX_LENGTH, TokenCodec.DEFAULT_MAX_INTERVALS, KEY))
        .rejectInvalidTokens(false)
        .scopeMode(ConsistencyMode.JVM)
        .header(null)
        .cookie(TokenCookie.named(COOKIE).path("/").httpOnly(true).secure(false).sameSite("Lax")
            .maxAge(Duration.ofMinutes(5)))
        .callerHeader(RyowConsistencyFilter.DEFAULT_HEADER)
        .build();
    writeChain = (request, response) -> handleWrite();
    readChain = (request, response) -> handleRead();
    MockHttpServletResponse first = new MockHttpServletResponse();
    filter.doFilter(new MockHttpServletRequest("POST", "/items"), first, writeChain);
    userCookie = first.getCookie(COOKIE);
    if (userCookie == null) {
      throw new IllegalStateException("the first write set no token cookie");
    }
  }

  /** Closes the connection. */
  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    connection.close();
  }

  private void handleWrite() {
    try {
      insert.setLong(1, ++id);
      insert.setInt(2, 7);
      sink += insert.executeUpdate();
      sink += one(id);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private void handleRead() {
    try {
      sink += one(1);
      sink += one(2);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private int one(long key) throws SQLException {
    select.setLong(1, key);
    try (ResultSet rs = select.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private MockHttpServletResponse request(String method, FilterChain chain) throws IOException, ServletException {
    MockHttpServletRequest request = new MockHttpServletRequest(method, "/items/1");
    request.setCookies(userCookie);
    MockHttpServletResponse response = new MockHttpServletResponse();
    if (side.equals("starter")) {
      filter.doFilter(request, response, chain);
    } else {
      chain.doFilter(request, response);
    }
    return response;
  }

  /** A POST: one insert, one read back. */
  @Benchmark
  public int write() throws IOException, ServletException {
    return sink + keepCookie(request("POST", writeChain)).getStatus();
  }

  /** What the user's browser does: a response's token cookie replaces the one it had. */
  private MockHttpServletResponse keepCookie(MockHttpServletResponse response) {
    Cookie next = response.getCookie(COOKIE);
    if (next != null) {
      userCookie = next;
    }
    return response;
  }

  /** The token the user's cookie holds now (for the smoke test). */
  String userToken() {
    return userCookie.getValue();
  }

  /** A GET after a write: two reads, the token in the cookie. */
  @Benchmark
  public int read() throws IOException, ServletException {
    return sink + keepCookie(request("GET", readChain)).getStatus();
  }
}
