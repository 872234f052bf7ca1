package dev.ryow.jdbc;

import dev.ryow.jdbc.cluster.ReadWatermark;
import dev.ryow.jdbc.cluster.Watermark;
import dev.ryow.jdbc.gtid.GtidSet;
import java.util.ArrayList;
import java.util.List;
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
 * GTID to the scope, and every read it sends to a replica adds what that read saw (monotonic reads,
 * {@code ryow.monotonicReads}): later reads in the scope show no older data; the scope's token carries
 * both. A scope opened without a mode adds its writes to what the connection's configured
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
  private final ReadWatermark reads = new ReadWatermark();
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
      reads.advance(outer.reads);
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
    TokenCodec.Contents start = decode(token, codec);
    ConsistencyScope scope = open();
    if (start != null) {
      scope.take(start);
    }
    return scope;
  }

  private static TokenCodec.@Nullable Contents decode(@Nullable String token, TokenCodec codec)
      throws InvalidTokenException {
    return token == null || token.isEmpty() ? null : codec.read(token);
  }

  /**
   * Opens a scope whose connections use {@code mode} and that starts with the writes named by
   * {@code token}; e.g. {@link ConsistencyMode#JVM} keeps the JVM-wide guarantee inside the scope.
   *
   * @throws InvalidTokenException if the token is not one {@code codec} accepts; no scope is opened
   */
  public static ConsistencyScope open(@Nullable String token, TokenCodec codec, ConsistencyMode mode)
      throws InvalidTokenException {
    TokenCodec.Contents start = decode(token, codec);
    ConsistencyScope scope = open(mode);
    if (start != null) {
      scope.take(start);
    }
    return scope;
  }

  private void take(TokenCodec.Contents contents) {
    watermark.advance(contents.writes());
    reads.imported(contents.reads(), contents.pendingServers(), System.nanoTime());
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

  /** Adds the writes and reads named by a token from elsewhere. */
  public void merge(String token, TokenCodec codec) throws InvalidTokenException {
    take(codec.read(token));
  }

  /**
   * What the reads in this scope saw, for the driver's connections (monotonic reads). Applications
   * carry it with {@link #token}. Internal: its type is not exported by the module.
   */
  @SuppressWarnings("exports")
  public ReadWatermark reads() {
    return reads;
  }

  /**
   * The scope's writes and what its reads saw, as a token for {@code codec} (signed if it has a key).
   *
   * @throws IllegalArgumentException if it cannot fit the codec's bounds even widened
   */
  public String token(TokenCodec codec) {
    List<String> pending = new ArrayList<>(2);
    reads.pendingServers(pending);
    return codec.encode(watermark.current(), reads.bound().full(), pending);
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
      o.reads.advance(reads);
    }
  }

  @Override
  public String toString() {
    return "ConsistencyScope[" + mode + ", " + watermark + "]";
  }
}
