package dev.ryow.jdbc;

import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.route.Watermark;
import org.jspecify.annotations.Nullable;

/**
 * A unit of work (a web request, a job, a message) whose reads must see its writes, whichever pooled
 * {@code jdbc:ryow:} connection makes them. Bound to the thread that opens it until closed:
 *
 * <pre>{@code
 * try (ConsistencyScope scope = ConsistencyScope.open(tokenFromRequest, codec)) {
 *   ... any jdbc:ryow: connection used here waits for the scope's writes before a replica read ...
 *   response.setHeader("X-Ryow-Token", scope.token(codec));
 * }
 * }</pre>
 *
 * <p>Every write a {@code jdbc:ryow:} connection makes on this thread while the scope is open adds its
 * GTID to the scope. A scope opened without a mode adds its writes to what the connection's configured
 * mode waits for (so under the default {@link ConsistencyMode#JVM} a read inside it sees the JVM's writes
 * and the scope's, e.g. those of the user's requests on other instances); under a narrower configured
 * mode it reads in {@link ConsistencyMode#SCOPE}. A scope opened with a mode imposes it. A connection
 * given a mode of its own keeps it. Scopes nest: an inner
 * scope starts with the outer one's writes and hands its own back when closed. Scopes must be closed on
 * the thread that opened them, innermost first (try-with-resources does both).
 */
public final class ConsistencyScope implements AutoCloseable {
  private static final ThreadLocal<ConsistencyScope> CURRENT = new ThreadLocal<>();

  private final Watermark watermark = new Watermark();
  private final @Nullable ConsistencyScope outer;
  private final ConsistencyMode mode;
  private final boolean modeGiven;
  private final Thread owner;
  private boolean closed;

  private ConsistencyScope(@Nullable ConsistencyScope outer, ConsistencyMode mode, boolean modeGiven) {
    this.outer = outer;
    this.mode = mode;
    this.modeGiven = modeGiven;
    this.owner = Thread.currentThread();
    if (outer != null) {
      watermark.advance(outer.gtids());
    }
  }

  /**
   * Opens a scope bound to the current thread that adds its writes to the connections' configured mode
   * (at least {@link ConsistencyMode#SCOPE}).
   */
  public static ConsistencyScope open() {
    return bind(new ConsistencyScope(CURRENT.get(), ConsistencyMode.SCOPE, false));
  }

  /** Opens a scope whose connections use {@code mode}, bound to the current thread. */
  public static ConsistencyScope open(ConsistencyMode mode) {
    return bind(new ConsistencyScope(CURRENT.get(), mode, true));
  }

  private static ConsistencyScope bind(ConsistencyScope scope) {
    CURRENT.set(scope);
    return scope;
  }

  /**
   * Opens a scope that starts with the writes named by {@code token} (from a request header, a
   * message...). A null or empty token opens an empty scope.
   *
   * @throws InvalidTokenException if the token is not one {@code codec} accepts; no scope is opened
   */
  public static ConsistencyScope open(@Nullable String token, TokenCodec codec) throws InvalidTokenException {
    GtidSet start = decode(token, codec);
    ConsistencyScope scope = open();
    scope.watermark.advance(start);
    return scope;
  }

  private static GtidSet decode(@Nullable String token, TokenCodec codec) throws InvalidTokenException {
    return token == null || token.isEmpty() ? GtidSet.EMPTY : codec.decode(token);
  }

  /**
   * Opens a scope whose connections use {@code mode} and that starts with the writes named by
   * {@code token}; e.g. {@link ConsistencyMode#JVM} keeps the JVM-wide guarantee inside the scope.
   *
   * @throws InvalidTokenException if the token is not one {@code codec} accepts; no scope is opened
   */
  public static ConsistencyScope open(@Nullable String token, TokenCodec codec, ConsistencyMode mode)
      throws InvalidTokenException {
    GtidSet start = decode(token, codec);
    ConsistencyScope scope = open(mode);
    scope.watermark.advance(start);
    return scope;
  }

  /** The scope bound to the current thread, or null. */
  public static @Nullable ConsistencyScope current() {
    return CURRENT.get();
  }

  /**
   * The mode of the connections used inside this scope when {@link #modeGiven()}; otherwise
   * {@link ConsistencyMode#SCOPE}, the least they use.
   */
  public ConsistencyMode mode() {
    return mode;
  }

  /** Whether the scope was opened with a mode it imposes, rather than adding to the configured one. */
  public boolean modeGiven() {
    return modeGiven;
  }

  /** The writes this scope has seen. */
  public GtidSet gtids() {
    return watermark.current();
  }

  /** Adds writes made elsewhere (GTID-set union). */
  public void advance(GtidSet gtids) {
    watermark.advance(gtids);
  }

  /** Adds the writes named by a token from elsewhere. */
  public void merge(String token, TokenCodec codec) throws InvalidTokenException {
    watermark.advance(codec.decode(token));
  }

  /** The scope's writes as a token for {@code codec} (signed if it has a key). */
  public String token(TokenCodec codec) {
    return codec.encode(watermark.current());
  }

  /** Unbinds the scope from its thread and hands its writes to the enclosing scope, if any. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    if (Thread.currentThread() != owner || CURRENT.get() != this) {
      throw new IllegalStateException(
          "A ConsistencyScope must be closed on the thread that opened it, innermost scope first");
    }
    closed = true;
    ConsistencyScope o = outer;
    if (o == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(o);
      o.advance(watermark.current());
    }
  }

  @Override
  public String toString() {
    return "ConsistencyScope[" + mode + ", " + watermark + "]";
  }
}
