package dev.ryow.jdbc.sql;

/**
 * Remembers the kinds of recently classified statements, so that SQL an application sends again and
 * again through plain {@code Statement}s (the same constant, or the same text rebuilt) costs a hash
 * lookup instead of a scan. Direct-mapped, fixed size, no locks: a slot holds an immutable entry and
 * a collision simply replaces it. A hit allocates nothing; a miss allocates one small entry.
 *
 * <p>Texts longer than {@value #MAX_CACHED_LENGTH} characters are classified every time and never
 * retained. Thread-safe.
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

  private final Entry[] entries = new Entry[SLOTS];

  /** The kind of {@code sql}, exactly as {@link SqlClassifier#classify} answers. */
  public StatementKind classify(String sql) {
    if (sql.length() > MAX_CACHED_LENGTH) {
      return SqlClassifier.classify(sql);
    }
    int h = sql.hashCode();
    int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
    Entry e = entries[slot];
    if (e != null && (e.sql == sql || e.sql.equals(sql))) {
      return e.kind;
    }
    StatementKind kind = SqlClassifier.classify(sql);
    entries[slot] = new Entry(sql, kind);
    return kind;
  }
}
