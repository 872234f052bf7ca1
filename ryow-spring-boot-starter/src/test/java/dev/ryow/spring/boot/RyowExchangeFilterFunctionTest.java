package dev.ryow.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.web.HttpTokens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The WebClient filter on a real WebClient whose transport is an in-process function standing in for the
 * called service (what it received, on which thread, and its answer's token); over real HTTP between two
 * applications: ServiceCallsIT in ryow-spring-boot-starter-tests.
 */
class RyowExchangeFilterFunctionTest {
  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String B = "8c3a9a2e-1d4f-11ef-8b7a-0242ac120002";
  private static final TokenCodec CODEC = TokenCodec.of(2048, 64, "a-key-of-sixteen-chars");
  private static final String HEADER = "X-Ryow-Token";

  private final AtomicReference<ClientRequest> received = new AtomicReference<>();
  private final AtomicReference<Thread> sentOn = new AtomicReference<>();

  /** The called service: records the request and answers with its own write's token. */
  private ExchangeFunction service(String answerToken) {
    return request -> {
      received.set(request);
      sentOn.set(Thread.currentThread());
      return Mono.just(ClientResponse.create(HttpStatus.OK).header(HEADER, answerToken).body("ok").build());
    };
  }

  @Test
  void theCallingThreadsScopeTravelsAndTheAnswerMergesIntoItWhicheverThreadSends() throws Exception {
    RyowExchangeFilterFunction filter = new RyowExchangeFilterFunction(HttpTokens.of(CODEC));
    WebClient client = filter.addTo(WebClient.builder().exchangeFunction(service(CODEC.encode(GtidSet.parse(B + ":7")))))
        .build();
    try (ConsistencyScope scope = ConsistencyScope.open()) {
      scope.advance(GtidSet.parse(A + ":1-4"));
      String body = client.get().uri("http://127.0.0.1:1/items/1").retrieve().bodyToMono(String.class)
          .subscribeOn(Schedulers.boundedElastic()).block(Duration.ofSeconds(30));
      assertThat(body).isEqualTo("ok");
      assertThat(sentOn.get()).as("sent from a Reactor thread, where no scope is bound").isNotSameAs(Thread.currentThread());
      String sent = received.get().headers().getFirst(HEADER);
      assertThat(sent).isNotNull();
      assertThat(CODEC.decode(sent)).as("the calling thread's scope, signed").isEqualTo(GtidSet.parse(A + ":1-4"));
      assertThat(scope.gtids()).as("the answer merged into the caller's scope").isEqualTo(GtidSet.parse(A + ":1-4," + B + ":7"));
    }
  }

  @Test
  void nothingOutsideAScopeNothingMergedWhenSwitchedOffAndTheFilterIsAddedOnce() {
    String answer = CODEC.encode(GtidSet.parse(B + ":7"));
    RyowExchangeFilterFunction filter = new RyowExchangeFilterFunction(HttpTokens.of(CODEC));
    WebClient.Builder builder = filter.addTo(filter.addTo(WebClient.builder().exchangeFunction(service(answer))));
    List<ExchangeFilterFunction> filters = new ArrayList<>();
    builder.filters(filters::addAll);
    assertThat(filters).containsExactly(filter);
    builder.build().get().uri("http://127.0.0.1:1/").retrieve().toBodilessEntity().block(Duration.ofSeconds(30));
    assertThat(received.get().headers().getFirst(HEADER)).as("no scope, no token").isNull();

    RyowExchangeFilterFunction sendOnly = new RyowExchangeFilterFunction(HttpTokens.of(CODEC, HEADER, false));
    WebClient client = sendOnly.addTo(WebClient.builder().exchangeFunction(service(answer))).build();
    try (ConsistencyScope scope = ConsistencyScope.open()) {
      scope.advance(GtidSet.parse(A + ":1-4"));
      client.post().uri("http://127.0.0.1:1/").retrieve().toBodilessEntity().block(Duration.ofSeconds(30));
      assertThat(received.get().headers().getFirst(HEADER)).isNotNull();
      assertThat(scope.gtids()).as("merge-response off").isEqualTo(GtidSet.parse(A + ":1-4"));
    }
    assertThat(filter.toString()).contains("header=X-Ryow-Token", "mergeResponses=true");
  }
}
