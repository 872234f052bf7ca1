package dev.ryow.bench;

import dev.ryow.jdbc.sql.ClassificationCache;
import dev.ryow.jdbc.sql.SqlClassifier;
import dev.ryow.jdbc.sql.StatementKind;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What {@link SqlClassifier#classify} costs for the statements applications and ORMs send most:
 * ns/op, and B/op with {@code -prof gc}. A plain {@code Statement} pays this on every execution, a
 * {@code PreparedStatement} once when prepared.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(2)
public class ClassifierBenchmark {

  /** The typical statements, by name (the {@code @Param} values below). */
  public static final Map<String, String> STATEMENTS = Map.ofEntries(
      Map.entry("point-select", "SELECT v FROM items WHERE id = ?"),
      Map.entry("orm-select",
          "select u1_0.id,u1_0.email,u1_0.name,u1_0.created_at from users u1_0 where u1_0.id=?"),
      Map.entry("join-select",
          "SELECT o.id, o.total, c.name FROM orders o JOIN customers c ON c.id = o.customer_id"
              + " WHERE o.status = ? AND o.created_at > ? ORDER BY o.created_at DESC LIMIT 20"),
      Map.entry("insert", "INSERT INTO items (id, v) VALUES (?, ?)"),
      Map.entry("update", "UPDATE accounts SET balance = balance - ? WHERE id = ?"),
      Map.entry("select-for-update", "SELECT balance FROM accounts WHERE id = ? FOR UPDATE"),
      Map.entry("hinted-select", "/* ryow:primary */ SELECT v FROM items WHERE id = ?"),
      Map.entry("set-names", "SET NAMES utf8mb4"),
      Map.entry("commit", "COMMIT"));

  /** Which statement (a key of {@link #STATEMENTS}). */
  @Param({"point-select", "orm-select", "join-select", "insert", "update", "select-for-update",
      "hinted-select", "set-names", "commit"})
  public String statement;

  private String sql;

  /** Picks the statement; a fresh copy so that no interned constant helps. */
  @Setup
  public void setUp() {
    sql = new String(STATEMENTS.get(statement).toCharArray());
    sameTextRebuilt = new String(sql.toCharArray());
    cache.classify(sql);
  }

  private final ClassificationCache cache = new ClassificationCache();
  private String sameTextRebuilt;

  /** One classification: the scan a new SQL text costs. */
  @Benchmark
  public StatementKind classify() {
    return SqlClassifier.classify(sql);
  }

  /**
   * What a plain {@code Statement} pays when it sends the same SQL string again: the cluster's
   * {@link ClassificationCache} answers from a hash lookup.
   */
  @Benchmark
  public StatementKind classifyRepeated() {
    return cache.classify(sql);
  }

  /** The same text rebuilt as a new String each time (hash and compare, no scan): JMH state keeps one copy. */
  @Benchmark
  public StatementKind classifyRepeatedTextNewString() {
    return cache.classify(sameTextRebuilt);
  }
}
