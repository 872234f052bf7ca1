package dev.ryow.jdbc.sql;

import org.jspecify.annotations.Nullable;

/**
 * Remembers the kinds of recently classified statements, so that SQL an application sends again and
 * again through plain {@code Statement}s (the same constant, or the same text rebuilt) costs a hash
 * lookup instead of a scan. Direct-mapped, fixed size, no locks: a slot holds an immutable entry and
 * a collision simply replaces it. A hit allocates nothing; a miss allocates one small entry.
 *
 * <p>Texts longer than {@value #MAX_CACHED_LENGTH} characters are classified every time and never
 * retained. Thread-safe.
 *
 * <p>It also holds the reads that turned out to write ({@link #rememberWrite}: a replica refused
 * them, e.g. {@code SELECT f()} where the stored function {@code f} inserts), by {@link SqlText#shape},
 * for as long as the cache lives: at most {@value #MAX_HIDDEN_WRITES} shapes. A statement of such a
 * shape classifies as {@link StatementKind#WRITE}.
 */
public final class ClassificationCache {
  /** Longest SQL text kept. */
  public static final int MAX_CACHED_LENGTH = 1024;

  private static final int SLOTS = 1024;

  /** One remembered classification; final fields make racy publication safe. */
  private static final class Entry {
    final String sql;
    final StatementKind kind;

    Entry(String sql, StatementKind kind) {
      this.sql = sql;
      this.kind = kind;
    }
  }

  /** Most shapes {@link #rememberWrite} keeps. */
  public static final int MAX_HIDDEN_WRITES = 1024;

  private final Entry[] entries = new Entry[SLOTS];
  private final java.util.Set<String> hiddenWrites = java.util.concurrent.ConcurrentHashMap.newKeySet();
  /** Whether {@link #hiddenWrites} is not empty: a miss looks there only then. */
  private volatile boolean anyHiddenWrite;

  /** The kind of {@code sql}, exactly as {@link SqlClassifier#classify} answers. */
  @SuppressWarnings("ReferenceEquality") // a fast path before String.equals: drivers pass the same SQL string again
  public StatementKind classify(String sql) {
    if (sql.length() > MAX_CACHED_LENGTH) {
      return uncached(sql);
    }
    int h = sql.hashCode();
    int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
    Entry e = entries[slot];
    if (e != null && (e.sql == sql || e.sql.equals(sql))) {
      return e.kind;
    }
    StatementKind kind = uncached(sql);
    entries[slot] = new Entry(sql, kind);
    return kind;
  }

  /**
   * The kind of {@code sql} without looking at or filling the cache: as {@link SqlClassifier#classify},
   * except that a read of a shape {@link #rememberWrite remembered as writing} is a
   * {@link StatementKind#WRITE}.
   */
  public StatementKind uncached(String sql) {
    StatementKind kind = SqlClassifier.classify(sql);
    if (kind == StatementKind.READ && anyHiddenWrite) {
      String shape = SqlText.shape(sql);
      if (shape != null && hiddenWrites.contains(shape)) {
        return StatementKind.WRITE;
      }
    }
    return kind;
  }

  /**
   * Remembers that statements of the shape of {@code sql} write although they look like reads: from
   * now on they classify as {@link StatementKind#WRITE}.
   *
   * @return the shape, when it was not remembered before; null when it was, or when it cannot be
   *     remembered (no shape, or {@value #MAX_HIDDEN_WRITES} shapes already held)
   */
  public @Nullable String rememberWrite(String sql) {
    String shape = SqlText.shape(sql);
    if (shape == null || hiddenWrites.size() >= MAX_HIDDEN_WRITES || !hiddenWrites.add(shape)) {
      return null;
    }
    anyHiddenWrite = true;
    // Texts of this shape may be cached as reads: forget every cached kind (a rare event).
    java.util.Arrays.fill(entries, null);
    return shape;
  }

  /** Whether statements of the shape of {@code sql} are remembered as writes. */
  public boolean isRememberedWrite(String sql) {
    if (!anyHiddenWrite) {
      return false;
    }
    String shape = SqlText.shape(sql);
    return shape != null && hiddenWrites.contains(shape);
  }

  /** The kind remembered for {@code sql}, or null if it is not in the cache now (diagnostics and tests). */
  public @Nullable StatementKind cached(String sql) {
    if (sql.length() > MAX_CACHED_LENGTH) {
      return null;
    }
    int h = sql.hashCode();
    Entry e = entries[(h ^ (h >>> 16)) & (SLOTS - 1)];
    return e != null && e.sql.equals(sql) ? e.kind : null;
  }
}
