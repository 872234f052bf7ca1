package dev.ryow.spring.boot.tests;

import static dev.ryow.spring.boot.tests.Servers.PRIMARY_PORT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.web.HttpTokens;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Read-your-writes across services: service A writes, then calls service B over HTTP, and B's read must
 * see A's write; B writes during A's call, and A's next read must see B's write. Two instances of
 * {@link ItemsApplication}, each in its own JVM with the starter: {@code on} with the defaults,
 * {@code off} with {@code ryow.client.enabled=false} (its filter still serves calls). The callers are
 * their {@code RestClient}, {@code RestTemplate} and {@code WebClient} beans (the last subscribed on a
 * Reactor scheduler: the request leaves from a thread without the scope), and this test's JVM with the JDK client and
 * {@link HttpTokens} (plain {@code jdbc:ryow:} connections in a {@link ConsistencyScope}).
 *
 * <p>Every call runs with the replicas' appliers blocked ({@code FLUSH TABLES WITH READ LOCK} on each
 * replica, taken before the write and released after the call, then the replicas catch up): the write
 * cannot reach a replica during the call, so a read that does not know of it reads a replica without the
 * row, every time. With propagation every read shows the value, from the primary ({@code @@port}); without
 * it the reads miss: the test has teeth.
 */
class ServiceCallsIT {
  private static final String KEY = "service-calls-it-token-key";
  private static final TokenCodec CODEC = TokenCodec.of(TokenCodec.DEFAULT_MAX_LENGTH, TokenCodec.DEFAULT_MAX_INTERVALS, KEY);
  private static final int ROUNDS = 3;
  private static final List<ApplicationInstance> INSTANCES = new ArrayList<>();
  private static ApplicationInstance on;
  private static ApplicationInstance off;
  private static int nextId = 50_000;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @BeforeAll
  static void startTwoServices() throws Exception {
    Servers.exec(PRIMARY_PORT, "CREATE TABLE IF NOT EXISTS starter_items (id INT PRIMARY KEY, value INT NULL)");
    Servers.exec(PRIMARY_PORT, "DELETE FROM starter_items WHERE id >= 50000");
    Servers.awaitReplicasCaughtUp();
    on = start("calls-on", List.of());
    off = start("calls-off", List.of("--ryow.client.enabled=false"));
    for (ApplicationInstance instance : INSTANCES) {
      instance.awaitPort(300);
    }
  }

  private static ApplicationInstance start(String name, List<String> more) throws Exception {
    List<String> arguments = new ArrayList<>(List.of(
        "--server.port=0",
        "--spring.datasource.url=" + Servers.ryowUrl(),
        "--spring.datasource.username=" + Servers.USER,
        "--spring.datasource.password=" + Servers.PASSWORD,
        "--ryow.token-key=" + KEY,
        "--spring.main.banner-mode=off"));
    arguments.addAll(more);
    ApplicationInstance instance = ApplicationInstance.start(name, arguments);
    INSTANCES.add(instance);
    return instance;
  }

  @AfterAll
  static void stopServices() {
    INSTANCES.forEach(ApplicationInstance::close);
  }

  /** One call's outcome: the page ({@code value@port}) the read showed, and the value written. */
  record Read(String how, int written, String page) {
    boolean sawTheWrite() {
      return page.startsWith(written + "@");
    }

    int port() {
      return Integer.parseInt(page.substring(page.indexOf('@') + 1));
    }
  }

  /**
   * All calls without propagation first, then all with it: a propagated read falls back to the primary,
   * and monotonic reads keep the next reads of that JVM on the primary until that read is bounded, which
   * would hide the missing token. Before each call without propagation, the JVM that will read must be
   * reading from a replica: its own write in the call before (the callee writes in every other call) is
   * in its JVM's watermark, and while it does not know that the replicas caught up with it (its next poll),
   * a read there skips a replica it predicted stalled during the block and runs on the primary; monotonic
   * reads then keep it there while the next block stalls the replicas again. Such a read shows the write
   * for a reason that is not the token, and would hide the missing one.
   */
  @Test
  void eachSideReadsTheOthersWritesOnlyWithPropagation() throws Exception {
    for (ApplicationInstance instance : INSTANCES) {
      awaitReplicaPage(instance);
    }
    awaitReplicaReadHere();
    List<Read> callerWroteWithout = new ArrayList<>();
    List<Read> calleeWroteWithout = new ArrayList<>();
    List<Read> callerWroteWith = new ArrayList<>();
    List<Read> calleeWroteWith = new ArrayList<>();
    for (int round = 0; round < ROUNDS; round++) {
      for (String client : List.of("rest-client", "rest-template", "web-client")) {
        awaitReplicaPage(on);
        callerWroteWithout.add(blocked(() -> instanceCall(off, on, "write-then-peer-reads", client)));
        awaitReplicaPage(off);
        calleeWroteWithout.add(blocked(() -> instanceCall(off, on, "peer-writes-then-read", client)));
      }
      awaitReplicaPage(on);
      callerWroteWithout.add(blocked(() -> jdkWriteThenPeerReads(on, false)));
      awaitReplicaReadHere();
      calleeWroteWithout.add(blocked(() -> jdkPeerWritesThenRead(on, false)));
    }
    for (int round = 0; round < ROUNDS; round++) {
      for (String client : List.of("rest-client", "rest-template", "web-client")) {
        callerWroteWith.add(blocked(() -> instanceCall(on, off, "write-then-peer-reads", client)));
        calleeWroteWith.add(blocked(() -> instanceCall(on, off, "peer-writes-then-read", client)));
      }
      callerWroteWith.add(blocked(() -> jdkWriteThenPeerReads(on, true)));
      calleeWroteWith.add(blocked(() -> jdkPeerWritesThenRead(on, true)));
    }
    report("caller writes, callee reads", callerWroteWith, callerWroteWithout);
    report("callee writes, caller reads", calleeWroteWith, calleeWroteWithout);
  }

  /** Waits (up to 120 s) until the instance's page of an absent item comes from a replica. */
  private void awaitReplicaPage(ApplicationInstance instance) throws Exception {
    long deadline = System.nanoTime() + 120_000_000_000L;
    String page = "";
    while (System.nanoTime() < deadline) {
      page = http.send(HttpRequest.newBuilder(URI.create(instance.base() + "/items/1")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      if (!page.endsWith("@" + PRIMARY_PORT)) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError(instance.name() + ": reads still on the primary: " + page);
  }

  /** Waits (up to 120 s) until this JVM's jdbc:ryow: reads are served by a replica. */
  private static void awaitReplicaReadHere() throws Exception {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (System.nanoTime() < deadline) {
      try (Connection c = DriverManager.getConnection(Servers.ryowUrl(), Servers.USER, Servers.PASSWORD);
          PreparedStatement ps = c.prepareStatement("SELECT @@port");
          ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (rs.getInt(1) != PRIMARY_PORT) {
          return;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("this JVM's reads still on the primary");
  }

  private static void report(String what, List<Read> withTokens, List<Read> without) {
    withTokens.forEach(r -> System.out.println("ServiceCallsIT " + what + ", propagated:     " + r));
    without.forEach(r -> System.out.println("ServiceCallsIT " + what + ", not propagated: " + r));
    for (Read r : withTokens) {
      assertThat(r.sawTheWrite()).as("%s, propagated: %s", what, r).isTrue();
      assertThat(r.port()).as("%s: the replicas cannot have it, the read fell back to the primary: %s", what, r)
          .isEqualTo(PRIMARY_PORT);
    }
    for (String how : List.of("rest-client", "rest-template", "web-client", "jdk")) {
      assertThat(without.stream().filter(r -> r.how().equals(how)).filter(r -> !r.sawTheWrite()).count())
          .as("%s, not propagated (%s): some read misses the write, the test has teeth; %s", what, how, without)
          .isPositive();
    }
  }

  interface Call {
    Read run() throws Exception;
  }

  /** Runs {@code call} with the replicas' appliers blocked, then lets them catch up. */
  private static Read blocked(Call call) throws Exception {
    Read read;
    Servers.ApplierBlock block = new Servers.ApplierBlock();
    try {
      read = call.run();
    } finally {
      block.close();
    }
    Servers.awaitReplicasCaughtUp();
    return read;
  }

  /** {@code caller} runs {@code flow} against {@code peer} with its {@code client} bean. */
  private Read instanceCall(ApplicationInstance caller, ApplicationInstance peer, String flow, String client) throws Exception {
    int id = nextId++;
    int value = id % 1000 + 1;
    URI uri = URI.create(caller.base() + "/calls/" + flow + "/" + id + "?value=" + value + "&client=" + client
        + "&peer=" + URLEncoder.encode(peer.base(), StandardCharsets.UTF_8));
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("%s %s: %s", caller.name(), uri, response.body()).isEqualTo(200);
    return new Read(client, value, response.body());
  }

  /** This JVM writes through jdbc:ryow: in a scope, then GETs the peer's page, with the helper or plainly. */
  private Read jdkWriteThenPeerReads(ApplicationInstance peer, boolean propagate) throws Exception {
    int id = nextId++;
    int value = id % 1000 + 1;
    try (ConsistencyScope scope = ConsistencyScope.open();
        Connection c = DriverManager.getConnection(Servers.ryowUrl(), Servers.USER, Servers.PASSWORD);
        PreparedStatement ps = c.prepareStatement("INSERT INTO starter_items (id, value) VALUES (?, ?)")) {
      ps.setInt(1, id);
      ps.setInt(2, value);
      ps.executeUpdate();
      assertThat(scope.gtids().isEmpty()).as("the write is in this JVM's scope").isFalse();
      HttpRequest.Builder get = HttpRequest.newBuilder(URI.create(peer.base() + "/items/" + id)).timeout(Duration.ofSeconds(30));
      HttpResponse<String> page = propagate
          ? HttpTokens.of(CODEC).send(http, get, HttpResponse.BodyHandlers.ofString())
          : http.send(get.build(), HttpResponse.BodyHandlers.ofString());
      assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
      return new Read("jdk", value, page.body());
    }
  }

  /** The peer creates the item (a POST from this JVM, with the helper or plainly); this JVM reads it in the same scope. */
  private Read jdkPeerWritesThenRead(ApplicationInstance peer, boolean propagate) throws Exception {
    int id = nextId++;
    int value = id % 1000 + 1;
    try (ConsistencyScope scope = ConsistencyScope.open()) {
      HttpRequest.Builder post = HttpRequest.newBuilder(URI.create(peer.base() + "/items/" + id + "?value=" + value))
          .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody());
      HttpResponse<String> created = propagate
          ? HttpTokens.of(CODEC).send(http, post, HttpResponse.BodyHandlers.ofString())
          : http.send(post.build(), HttpResponse.BodyHandlers.ofString());
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      assertThat(scope.gtids().isEmpty()).as("the peer's write merged into the scope: %s", propagate).isEqualTo(!propagate);
      try (Connection c = DriverManager.getConnection(Servers.ryowUrl(), Servers.USER, Servers.PASSWORD);
          PreparedStatement ps = c.prepareStatement("SELECT MAX(value), @@port FROM starter_items WHERE id = ?")) {
        ps.setInt(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return new Read("jdk", value, rs.getObject(1) + "@" + rs.getInt(2));
        }
      }
    }
  }
}
