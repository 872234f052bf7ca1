package dev.ryow.jdbc;

import dev.ryow.jdbc.metrics.MetricsSnapshot;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * What a {@code jdbc:ryow:} connection offers beyond JDBC. Obtain it with
 * {@code connection.unwrap(RyowConnection.class)}.
 */
public interface RyowConnection {

  /**
   * The connection's consistency token: the GTID set of every write it made (or merged), as text,
   * signed when {@code ryow.tokenKey} is set. Empty (unsigned) when it has written nothing. Hand it to
   * another connection, thread or process and {@link #mergeConsistencyToken merge} it there to read
   * those writes. With monotonic reads ({@code ryow.monotonicReads}, the default) it also names what this
   * connection's reads saw ({@code WRITES~READS~SERVERS}, see {@link TokenCodec}), so that reads there show
   * no older data either.
   *
   * <p>Besides those writes, the set may name GTIDs the primary executed before them (see
   * docs/consistency.md, "Tokens stay small"), never GTIDs that nobody wrote or merged and the primary has not executed
   * (unless even compacted it had to be widened, see {@link TokenCodec#encode}). A set that would
   * exceed {@code ryow.tokenMaxLength} or {@code ryow.tokenMaxIntervals} is first compacted with one
   * query of the primary's {@code gtid_executed}, so that every token returned here decodes with the
   * same bounds.
   *
   * @throws SQLException if that query fails, or (SQLState 22023) if even the compacted set names more
   *     UUIDs than the bounds allow
   */
  String consistencyToken() throws SQLException;

  /**
   * Adds the writes named by {@code token} to this connection's watermark, so its reads see them, and
   * (with monotonic reads) what the token's reads saw to its read watermark, so its reads show no older data.
   * Tokens are parsed strictly and bounded ({@code ryow.tokenMaxLength}, {@code ryow.tokenMaxIntervals})
   * and must be signed when {@code ryow.tokenKey} is set.
   *
   * @throws InvalidTokenException if the token is not one this connection accepts
   */
  void mergeConsistencyToken(String token) throws SQLException;

  /**
   * Overrides, for this connection, whose writes its reads must see; null restores the default (the
   * bound scope's mode inside a {@link ConsistencyScope}, else {@code ryow.consistency}).
   */
  void setConsistencyMode(@Nullable ConsistencyMode mode) throws SQLException;

  /** The mode the next read of this connection uses (on the current thread). */
  ConsistencyMode consistencyMode();

  /** How the last replica-eligible read went (where, why, how long it waited), or null before the first. */
  @Nullable ReadReport lastRead();

  /** Which kind of server ran the last statement, or null before the first. */
  @Nullable ServerRole lastServerRole();

  /** {@code host:port} (as in the URL) of the server that ran the last statement, or null before the first. */
  @Nullable String lastServerAddress();

  /**
   * Whether the last replica-eligible read ran on a replica not known to have this connection's
   * writes, by choice ({@code ryow.fallback=stale}, or {@code ryow.fallbackDegrade=stale} when the
   * primary's fallback budget was spent). Such reads are also counted ({@code staleReads}) and logged.
   */
  boolean lastReadStale();

  /**
   * The counters of the cluster this connection belongs to (shared by all its connections in this JVM).
   * Still answers after the connection is closed.
   */
  MetricsSnapshot clusterMetrics();

  /** The name of that cluster, as in log messages and the JMX object name ({@code ryow.clusterName}). */
  String clusterName();
}
