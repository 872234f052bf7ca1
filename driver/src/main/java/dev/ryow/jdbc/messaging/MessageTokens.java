package dev.ryow.jdbc.messaging;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.InvalidTokenException;
import dev.ryow.jdbc.TokenCodec;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries read-your-writes from a message's producer to its consumer: the producer puts the token of the
 * {@link ConsistencyScope} that made its writes in a message header ({@link #outgoing()}), and the
 * consumer opens a scope with it around the handler ({@link #open(String)}), so that the handler's reads
 * see the producer's writes, on whichever instance consumes. With the Kafka client:
 *
 * <pre>{@code
 * MessageTokens tokens = MessageTokens.of(codec);     // the codec (key) every service uses
 * // producer, inside the scope that made the writes (a request's, a job's)
 * byte[] token = tokens.outgoingBytes();
 * if (token != null) record.headers().add(tokens.header(), token);
 * // consumer, around the handler
 * Header h = record.headers().lastHeader(tokens.header());
 * try (ConsistencyScope scope = tokens.open(h == null ? null : h.value())) {
 *   handle(record);
 * }
 * }</pre>
 *
 * <p>The default header, {@value #DEFAULT_HEADER}, is a valid name in Kafka, AMQP and JMS (whose property
 * names must be Java identifiers). A token the consumer cannot accept (another key, malformed, too large)
 * is logged and the handler runs in an empty scope: its reads keep the consumer's own guarantee
 * ({@code ryow.consistency}), as a message without a token does. Immutable and thread-safe.
 */
public final class MessageTokens {
  /** The default message header (a Java identifier, so also a valid JMS property name). */
  public static final String DEFAULT_HEADER = "ryowToken";

  private static final Logger LOG = LoggerFactory.getLogger(MessageTokens.class);

  private final TokenCodec codec;
  private final String header;

  private MessageTokens(TokenCodec codec, String header) {
    this.codec = Objects.requireNonNull(codec, "codec");
    if (header.isBlank()) {
      throw new IllegalArgumentException("the token header needs a name");
    }
    this.header = header.trim();
  }

  /** Tokens in the {@value #DEFAULT_HEADER} header. */
  public static MessageTokens of(TokenCodec codec) {
    return new MessageTokens(codec, DEFAULT_HEADER);
  }

  /** Tokens in {@code header}. */
  public static MessageTokens of(TokenCodec codec, String header) {
    return new MessageTokens(codec, Objects.requireNonNull(header, "header"));
  }

  /** The header the token travels in. */
  public String header() {
    return header;
  }

  /**
   * The current scope's token for a message being sent, or null when no scope is open on this thread
   * (or its token cannot fit the codec's bounds even widened: logged, the message goes without).
   */
  public @Nullable String outgoing() {
    ConsistencyScope scope = ConsistencyScope.current();
    if (scope == null) {
      return null;
    }
    try {
      return scope.token(codec);
    } catch (IllegalArgumentException tooLarge) {
      LOG.warn("No {} on this message: {}", header, tooLarge.getMessage());
      return null;
    }
  }

  /** {@link #outgoing()} as the header's bytes (US-ASCII: a token is printable ASCII), for Kafka. */
  public byte @Nullable [] outgoingBytes() {
    String token = outgoing();
    return token == null ? null : token.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Opens a scope, bound to the current thread, that starts with the writes named by a received message's
   * token; close it when the handler returns (try-with-resources). A null or empty token opens an empty
   * scope, and so does a token the codec rejects (logged at warn: the producer's key or bounds differ).
   */
  public ConsistencyScope open(@Nullable String token) {
    try {
      return ConsistencyScope.open(token == null ? null : token.trim(), codec);
    } catch (InvalidTokenException e) {
      LOG.warn("Ignoring an invalid {} in a message: {}", header, e.getMessage());
      return ConsistencyScope.open();
    }
  }

  /** {@link #open(String)} with the header's bytes (Kafka); null opens an empty scope. */
  public ConsistencyScope open(byte @Nullable [] token) {
    return open(token == null ? null : new String(token, StandardCharsets.US_ASCII));
  }

  @Override
  public String toString() {
    return "MessageTokens[header=" + header + ", " + codec + "]";
  }
}
