package dev.ryow.jdbc.web;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.InvalidTokenException;
import dev.ryow.jdbc.TokenCodec;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries read-your-writes on outgoing service-to-service calls: the current {@link ConsistencyScope}'s
 * token (signed by the codec, as the filter signs it) goes out in a request header, and the token the
 * called service answers with (its {@link RyowConsistencyFilter} sends it back in the same header) is
 * merged into the scope, so that the caller's next reads see what the called service wrote. With the
 * JDK's client:
 *
 * <pre>{@code
 * HttpTokens tokens = HttpTokens.of(codec);                 // the codec (key) the called service uses
 * HttpResponse<String> r = tokens.send(client, HttpRequest.newBuilder(uri), BodyHandlers.ofString());
 * }</pre>
 *
 * <p>Other clients use {@link #outgoing()} and {@link #merge(String)} (the Spring Boot starter's
 * {@code RestClient} and {@code RestTemplate} interceptor does). Both act on the scope bound to the
 * calling thread: on a call made outside any scope nothing is sent or merged (open one around the job).
 * Clients that send on another thread (the starter's {@code WebClient} filter) capture the scope on the
 * calling thread and use {@link #outgoing(ConsistencyScope)} and {@link #merge(ConsistencyScope, String)}.
 * A token the called service answers with that the codec does not accept (another key, too large) is
 * dropped and logged at debug level: the call itself succeeds. Immutable and thread-safe.
 */
public final class HttpTokens {
  private static final Logger LOG = LoggerFactory.getLogger(HttpTokens.class);

  private final TokenCodec codec;
  private final String header;
  private final boolean mergeResponses;

  private HttpTokens(TokenCodec codec, String header, boolean mergeResponses) {
    this.codec = Objects.requireNonNull(codec, "codec");
    if (header.isBlank()) {
      throw new IllegalArgumentException("the token header needs a name");
    }
    this.header = header.trim();
    this.mergeResponses = mergeResponses;
  }

  /** Tokens in the {@value RyowConsistencyFilter#DEFAULT_HEADER} header, responses merged. */
  public static HttpTokens of(TokenCodec codec) {
    return new HttpTokens(codec, RyowConsistencyFilter.DEFAULT_HEADER, true);
  }

  /**
   * Tokens in {@code header}; {@code mergeResponses} false sends the token but ignores the one the called
   * service answers with.
   */
  public static HttpTokens of(TokenCodec codec, String header, boolean mergeResponses) {
    return new HttpTokens(codec, Objects.requireNonNull(header, "header"), mergeResponses);
  }

  /** The header the token travels in. */
  public String header() {
    return header;
  }

  /** Whether the called service's token is merged into the caller's scope. */
  public boolean mergesResponses() {
    return mergeResponses;
  }

  /**
   * The current scope's token for an outgoing request, or null when no scope is open on this thread
   * (or its token cannot fit the codec's bounds even widened: logged, the request goes without).
   */
  public @Nullable String outgoing() {
    return outgoing(ConsistencyScope.current());
  }

  /**
   * The token of {@code scope} for an outgoing request, or null when {@code scope} is null (or its token
   * cannot fit the codec's bounds even widened: logged). For clients that send the request on another
   * thread than the one that built it (a reactive client): capture the scope with
   * {@link ConsistencyScope#current()} on the calling thread, pass it here and to {@link #merge(ConsistencyScope, String)}.
   */
  public @Nullable String outgoing(@Nullable ConsistencyScope scope) {
    if (scope == null) {
      return null;
    }
    try {
      return scope.token(codec);
    } catch (IllegalArgumentException tooLarge) {
      LOG.warn("No {} on this outgoing request: {}", header, tooLarge.getMessage());
      return null;
    }
  }

  /**
   * Merges a token the called service answered with into the current scope. Returns whether it did:
   * not when merging is off, no scope is open, the token is null or empty, or the codec rejects it.
   */
  public boolean merge(@Nullable String token) {
    return merge(ConsistencyScope.current(), token);
  }

  /**
   * Merges a token the called service answered with into {@code scope} (captured on the calling thread;
   * safe from another thread). Returns whether it did: not when merging is off, {@code scope} is null,
   * the token is null or empty, or the codec rejects it.
   */
  public boolean merge(@Nullable ConsistencyScope scope, @Nullable String token) {
    if (!mergeResponses || scope == null || token == null || token.isBlank()) {
      return false;
    }
    try {
      scope.merge(token.trim(), codec);
      return true;
    } catch (InvalidTokenException e) {
      LOG.debug("Ignoring an invalid {} in a response: {}", header, e.getMessage());
      return false;
    }
  }

  /** Sets the token header on {@code request} when there is a token to send; returns the builder. */
  public HttpRequest.Builder addTo(HttpRequest.Builder request) {
    String token = outgoing();
    if (token != null) {
      request.setHeader(header, token);
    }
    return request;
  }

  /** Merges the response's token header, if any, into the current scope (see {@link #merge}). */
  public boolean mergeFrom(HttpResponse<?> response) {
    return merge(response.headers().firstValue(header).orElse(null));
  }

  /**
   * Sends {@code request} with the current scope's token and merges the response's: {@link #addTo},
   * {@link HttpClient#send}, {@link #mergeFrom}.
   */
  public <T> HttpResponse<T> send(HttpClient client, HttpRequest.Builder request, HttpResponse.BodyHandler<T> body)
      throws IOException, InterruptedException {
    HttpResponse<T> response = client.send(addTo(request).build(), body);
    mergeFrom(response);
    return response;
  }

  @Override
  public String toString() {
    return "HttpTokens[header=" + header + ", mergeResponses=" + mergeResponses + ", " + codec + "]";
  }
}
