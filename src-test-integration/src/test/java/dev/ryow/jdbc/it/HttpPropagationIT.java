package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.web.RyowConsistencyFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * End to end over real HTTP: an embedded Jetty with {@link RyowConsistencyFilter}, a servlet that
 * opens a new {@code jdbc:ryow:} connection per request (as a pool might hand out any connection), and
 * the JDK's HTTP client carrying the token from a POST to the next GET.
 */
class HttpPropagationIT {
  private static final String KEY = "http-propagation-test-key";
  private static Server server;
  private static URI base;
  private final HttpClient client = HttpClient.newHttpClient();

  /** POST /items?id=&v= writes; GET /items?id= answers "v@port" or 404. Flushes early on purpose. */
  static final class ItemsServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      try (Connection c = Topology.ryow("ryow.waitTimeout=30", "ryow.tokenKey=" + KEY);
          PreparedStatement ps = c.prepareStatement("INSERT INTO it_http (id, v) VALUES (?, ?)")) {
        ps.setInt(1, Integer.parseInt(req.getParameter("id")));
        ps.setInt(2, Integer.parseInt(req.getParameter("v")));
        ps.executeUpdate();
      } catch (SQLException e) {
        throw new IOException(e);
      }
      resp.setStatus(201);
      resp.getWriter().write("created");
      resp.flushBuffer(); // committed before the filter's chain returns
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      try (Connection c = Topology.ryow("ryow.waitTimeout=30", "ryow.tokenKey=" + KEY);
          PreparedStatement ps = c.prepareStatement("SELECT v, @@port FROM it_http WHERE id = ?")) {
        ps.setInt(1, Integer.parseInt(req.getParameter("id")));
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            resp.getWriter().write(rs.getInt(1) + "@" + rs.getInt(2));
          } else {
            resp.sendError(404);
          }
        }
      } catch (SQLException e) {
        throw new IOException(e);
      }
    }
  }

  @BeforeAll
  static void startServer() throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    FilterHolder filter = new FilterHolder(RyowConsistencyFilter.class);
    filter.setInitParameter("ryow.tokenKey", KEY);
    // Requests read in scope mode (their user's writes only), so that what the token carries is all they
    // see: with the default (jvm) a request in this JVM would see the write without its token too, and
    // only another instance would show the difference.
    filter.setInitParameter("consistency", "scope");
    context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
    context.addServlet(new ServletHolder(new ItemsServlet()), "/items");
    server.setHandler(context);
    server.start();
    base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.stop();
  }

  @BeforeEach
  void table() throws SQLException {
    Topology.resumeAppliers();
    Topology.recreateTable("it_http", "id INT PRIMARY KEY, v INT NOT NULL");
  }

  @AfterEach
  void resume() throws SQLException {
    Topology.resumeAppliers();
  }

  private HttpResponse<String> post(int id, int v) throws Exception {
    return client.send(
        HttpRequest.newBuilder(base.resolve("/items?id=" + id + "&v=" + v)).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(int id, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/items?id=" + id)).GET();
    if (token != null) {
      request.header(RyowConsistencyFilter.DEFAULT_HEADER, token);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theNextRequestReadsItsWriteWithTheToken() throws Exception {
    Topology.pauseAppliers();
    int withToken = 0;
    int staleWithToken = 0;
    int foundWithout = 0;
    for (int i = 1; i <= 50; i++) {
      HttpResponse<String> created = post(i, i * 10);
      assertThat(created.statusCode()).isEqualTo(201);
      String token = created.headers().firstValue(RyowConsistencyFilter.DEFAULT_HEADER).orElse(null);
      assertThat(token).as("token header on an early-committed response").isNotBlank();
      assertThat(TokenCodec.of(2048, 64, KEY).decode(token).isEmpty()).isFalse();

      HttpResponse<String> read = get(i, token);
      withToken++;
      if (read.statusCode() != 200 || !read.body().equals(i * 10 + "@" + PRIMARY_PORT)) {
        System.out.println("stale read: " + read.statusCode() + " " + read.body());
        staleWithToken++;
      }
      if (get(i, null).statusCode() != 404) {
        foundWithout++; // the replica answers requests without the token; paused, it cannot have the row
      }
    }
    System.out.printf("http, appliers paused: %d GETs with the token, %d stale; without the token %d of 50 found%n",
        withToken, staleWithToken, foundWithout);
    assertThat(staleWithToken).isZero();
    assertThat(foundWithout).as("without the token every GET is answered stale by a replica").isZero();

    Topology.resumeAppliers();
    HttpResponse<String> created = post(1000, 7);
    String token = created.headers().firstValue(RyowConsistencyFilter.DEFAULT_HEADER).orElseThrow();
    HttpResponse<String> read = get(1000, token);
    assertThat(read.statusCode()).isEqualTo(200);
    int port = Integer.parseInt(read.body().substring(read.body().indexOf('@') + 1));
    assertThat(port).as("caught up: served by a replica after waiting").isIn(REPLICA_PORTS);
  }

  @Test
  void forgedOrGarbageTokensAreDroppedNotWaitedOn() throws Exception {
    post(1, 1);
    Topology.awaitReplicasCaughtUp();
    for (String bad : new String[] {"garbage", "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-999999999",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5.AAAAAAAAAAAAAAAAAAAAAA", "x".repeat(3_000)}) {
      HttpResponse<String> read = get(1, bad);
      assertThat(read.statusCode()).as(bad.length() > 40 ? bad.substring(0, 40) : bad).isEqualTo(200);
      // The bad token is dropped: the response's token names no GTIDs, only (monotonic reads) the server the
      // GET's read ran on, its position not yet bounded by a poll.
      String fresh = read.headers().firstValue(RyowConsistencyFilter.DEFAULT_HEADER).orElseThrow();
      TokenCodec.Contents contents = TokenCodec.of(2048, 64, KEY).read(fresh);
      assertThat(contents.all().isEmpty()).as("a fresh token: %s", fresh).isTrue();
      assertThat(contents.pendingServers()).hasSize(1);
    }
  }

}
