package dev.ryow.spring.boot;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.web.HttpTokens;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * Read-your-writes on calls to other services with {@code WebClient}: adds the calling code's
 * {@code ConsistencyScope} token (signed) to the outgoing request and merges the token the called service
 * answers with into that scope ({@link HttpTokens}), as {@link RyowClientHttpRequestInterceptor} does for
 * {@code RestClient} and {@code RestTemplate}.
 *
 * <p>A scope is bound to a thread, and a {@code WebClient} request may be sent from another one (a Reactor
 * scheduler, an event loop). So the scope is captured where the request is built, on the calling thread
 * ({@link #captureScope()}, a default request of the builder: {@code retrieve()} and {@code exchangeTo...}
 * run it at once), and carried to the filter as a request attribute; the token is read from that scope
 * when the request is sent and the answer is merged into it from whichever thread receives it. Without a
 * captured scope the filter falls back to the scope of the thread that sends. {@link #addTo} adds both to
 * a builder: the starter does it for every {@code WebClient.Builder} bean ({@code ryow.client.enabled}).
 */
public final class RyowExchangeFilterFunction implements ExchangeFilterFunction {
  /** The request attribute that carries the scope captured on the calling thread. */
  public static final String SCOPE_ATTRIBUTE = RyowExchangeFilterFunction.class.getName() + ".scope";

  private final HttpTokens tokens;

  /** A filter that sends and merges tokens as {@code tokens} does. */
  public RyowExchangeFilterFunction(HttpTokens tokens) {
    this.tokens = Objects.requireNonNull(tokens, "tokens");
  }

  /**
   * What the builder runs on the calling thread for every request: records the thread's current scope,
   * if any, in {@link #SCOPE_ATTRIBUTE}.
   */
  public static Consumer<WebClient.RequestHeadersSpec<?>> captureScope() {
    return request -> {
      ConsistencyScope scope = ConsistencyScope.current();
      if (scope != null) {
        request.attribute(SCOPE_ATTRIBUTE, scope);
      }
    };
  }

  /**
   * Adds this filter (once) and the scope capture to {@code builder}; for clients built outside Spring's
   * beans ({@code WebClient.builder()}). Returns the builder.
   */
  public WebClient.Builder addTo(WebClient.Builder builder) {
    boolean[] added = new boolean[1];
    builder.filters(filters -> added[0] = addOnce(filters, this));
    if (added[0]) {
      builder.defaultRequest(captureScope());
    }
    return builder;
  }

  private static boolean addOnce(List<ExchangeFilterFunction> filters, RyowExchangeFilterFunction ours) {
    if (filters.stream().anyMatch(RyowExchangeFilterFunction.class::isInstance)) {
      return false;
    }
    filters.add(ours);
    return true;
  }

  @Override
  public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
    ConsistencyScope scope = scopeOf(request);
    if (scope == null) {
      return next.exchange(request);
    }
    String token = tokens.outgoing(scope);
    Mono<ClientResponse> response = next.exchange(token == null ? request : withHeader(request, tokens.header(), token));
    if (!tokens.mergesResponses()) {
      return response;
    }
    return response.doOnNext(answer -> tokens.merge(scope, answer.headers().asHttpHeaders().getFirst(tokens.header())));
  }

  private static ClientRequest withHeader(ClientRequest request, String name, String value) {
    return ClientRequest.from(request).headers(headers -> headers.set(name, value)).build();
  }

  private static @Nullable ConsistencyScope scopeOf(ClientRequest request) {
    Object captured = request.attributes().get(SCOPE_ATTRIBUTE);
    return captured instanceof ConsistencyScope scope ? scope : ConsistencyScope.current();
  }

  @Override
  public String toString() {
    return "RyowExchangeFilterFunction[" + tokens + "]";
  }
}
