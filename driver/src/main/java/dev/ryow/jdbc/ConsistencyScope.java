package dev.ryow.jdbc;

import dev.ryow.jdbc.cluster.ReadWatermark;
import dev.ryow.jdbc.cluster.Watermark;
import dev.ryow.jdbc.gtid.Position;
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
 *
 * <p>Per call, three named scopes say how fresh the reads of one piece of code must be, whatever the URL
 * says (the Spring Boot starter's {@code @ReadYourWrites}, {@code @FreshRead} and {@code @AllowStale}
 * open the same scopes around a method):
 *
 * <ul>
 *   <li>{@link #readYourWrites()}: the default, explicit ({@link #open()});
 *   <li>{@link #freshRead()}: {@link ConsistencyMode#LATEST}, everything the primary committed before the
 *       read, by anyone (a revoked token, a permission, a balance);
 *   <li>{@link #allowStale(long)}: no wait at all, on a replica whose known applier lag is within a bound
 *       ({@link ReadPlacement#REPLICA_STALE_ALLOWED}, counted in {@code staleAllowedReads}).
 * </ul>
 */
public final class ConsistencyScope implements AutoCloseable {
  private static final ThreadLocal<ConsistencyScope> CURRENT = new ThreadLocal<>();
  /** {@link #maxLagMillis()} of a scope that does not allow stale reads. */
  private static final long NO_STALE_READS = -1;

  private final Watermark watermark = new Watermark();
  private final ReadWatermark reads = new ReadWatermark();
  private final @Nullable ConsistencyScope outer;
  private final ConsistencyMode mode;
  private final boolean modeGiven;
  private final long maxLagMillis;
  private final Thread owner;
  private boolean closed;

  private ConsistencyScope(@Nullable ConsistencyScope outer, ConsistencyMode mode, boolean modeGiven) {
    this(outer, mode, modeGiven, NO_STALE_READS);
  }

  private ConsistencyScope(
      @Nullable ConsistencyScope outer, ConsistencyMode mode, boolean modeGiven, long maxLagMillis) {
    this.outer = outer;
    this.mode = mode;
    this.modeGiven = modeGiven;
    this.maxLagMillis = maxLagMillis;
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

  /**
   * Read-your-writes, explicit: the same scope as {@link #open()} (the writes made in it join what the
   * configured mode waits for). For code that says so where an enclosing scope might say otherwise.
   */
  public static ConsistencyScope readYourWrites() {
    return open();
  }

  /**
   * Fresh reads: every read in the scope sees everything the primary had committed when it began, by
   * any client ({@link ConsistencyMode#LATEST}: one statement on the primary per replica read, then a wait
   * for that set, or the read runs on the primary). For checks that must not be stale: a revoked token, a
   * permission, an account balance.
   */
  public static ConsistencyScope freshRead() {
    return open(ConsistencyMode.LATEST);
  }

  /**
   * Stale reads, accepted explicitly: reads in the scope never wait. They run on a replica in rotation
   * whose applier lag, as the last poll found it ({@code ryow.pollInterval}), is at most
   * {@code maxLagMillis}; placed {@link ReadPlacement#REPLICA_STALE_ALLOWED} and counted in
   * {@code staleAllowedReads}. When no replica is within the bound the read runs on the primary, as the
   * fallback policy allows ({@link ReadPlacement#PRIMARY_FALLBACK}). Writes in the scope still count
   * towards the enclosing scope and the JVM's watermark. For pages that tolerate a bounded staleness: a
   * catalogue, a dashboard.
   *
   * @param maxLagMillis the largest applier lag accepted, in milliseconds; {@link Long#MAX_VALUE}: any
   *     replica in rotation
   * @throws IllegalArgumentException if {@code maxLagMillis} is negative
   */
  public static ConsistencyScope allowStale(long maxLagMillis) {
    if (maxLagMillis < 0) {
      throw new IllegalArgumentException(
          "allowStale: maxLagMillis must be 0 or more (Long.MAX_VALUE for any replica in rotation), was " + maxLagMillis);
    }
    return bind(new ConsistencyScope(CURRENT.get(), ConsistencyMode.NONE, true, maxLagMillis));
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
    reads.imported(contents.reads(), contents.pendingServers(), dev.ryow.jdbc.cluster.ReadClock.completed());
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

  /** Whether the scope was opened by {@link #allowStale(long)}. */
  public boolean staleAllowed() {
    return maxLagMillis >= 0;
  }

  /**
   * The largest applier lag, in milliseconds, a replica may have to serve this scope's reads, when
   * {@link #staleAllowed()}; otherwise -1.
   */
  public long maxLagMillis() {
    return maxLagMillis;
  }

  /** The writes this scope has seen. */
  public Position gtids() {
    return watermark.current();
  }

  /** Adds writes made elsewhere (GTID-set union). */
  public void advance(Position gtids) {
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
    return "ConsistencyScope[" + mode + (staleAllowed() ? ", maxLag=" + maxLagMillis + "ms" : "") + ", " + watermark + "]";
  }
}
