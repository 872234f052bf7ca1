package dev.ryow.spring.boot;

import dev.ryow.jdbc.web.HttpTokens;
import java.io.IOException;
import java.util.Objects;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Read-your-writes on calls to other services with {@code RestClient} and {@code RestTemplate}: adds
 * the current {@code ConsistencyScope}'s signed token to the outgoing request and merges the token the
 * called service answers with into the scope ({@link HttpTokens}). The starter adds it to every
 * {@code RestTemplate} and {@code RestClient.Builder} bean ({@code ryow.client.enabled}); add it yourself
 * to clients built outside Spring's beans ({@code RestClient.builder().requestInterceptor(...)}).
 */
public final class RyowClientHttpRequestInterceptor implements ClientHttpRequestInterceptor {
  private final HttpTokens tokens;

  /** An interceptor that sends and merges tokens as {@code tokens} does. */
  public RyowClientHttpRequestInterceptor(HttpTokens tokens) {
    this.tokens = Objects.requireNonNull(tokens, "tokens");
  }

  @Override
  public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
      throws IOException {
    String token = tokens.outgoing();
    if (token != null) {
      request.getHeaders().set(tokens.header(), token);
    }
    ClientHttpResponse response = execution.execute(request, body);
    if (tokens.mergesResponses()) {
      tokens.merge(response.getHeaders().getFirst(tokens.header()));
    }
    return response;
  }

  @Override
  public String toString() {
    return "RyowClientHttpRequestInterceptor[" + tokens + "]";
  }
}
