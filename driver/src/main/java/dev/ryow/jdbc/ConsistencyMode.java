package dev.ryow.jdbc;

/**
 * Whose writes a read must see ({@code ryow.consistency}, or per connection and per scope).
 *
 * <p>Every write through the driver advances the writing connection's watermark, the
 * {@link ConsistencyScope} bound to the writing thread (if any), and the cluster's JVM-wide
 * watermark; the mode decides which of them a read waits for.
 */
public enum ConsistencyMode {
  /**
   * The connection's own writes (and tokens merged into it) only. Cheapest, but safe only for code that
   * keeps one connection: with a pool, a read on another connection may miss a write just made (and an
   * ORM that loads an entity there and saves it back loses the earlier update).
   */
  CONNECTION,
  /**
   * The connection's writes plus those of the {@link ConsistencyScope} bound to the current thread:
   * pooled connections used within one request or job read each other's writes. The mode of every
   * connection used inside an open scope, unless the scope says otherwise.
   */
  SCOPE,
  /**
   * The default: every write that any connection of this JVM made through the driver to this cluster
   * before the read began (plus the scope's and the connection's tokens). Safe in pooled applications,
   * where a request's write and the next read come on different connections. A read waits only when the
   * replica is not already known (from the poller or an earlier wait) to have these writes.
   */
  JVM,
  /**
   * Everything committed on the primary before the read began: the primary's {@code gtid_executed} is
   * read (one statement on the primary per replica read) and waited for.
   */
  LATEST,
  /** No waiting at all: a plain read/write split. Reads may miss recent writes. */
  NONE
}
