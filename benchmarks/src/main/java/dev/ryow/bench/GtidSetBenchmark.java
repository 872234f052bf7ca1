package dev.ryow.bench;

import dev.ryow.jdbc.gtid.GtidSet;
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
 * GTID set operations at realistic sizes: what a write (parse + union) and a replica read
 * (contains) cost the driver.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class GtidSetBenchmark {
  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final String B = "8c3a9a2e-1d4f-11ef-8b7a-0242ac120002";
  private static final String C = "d1b2c3f4-5a6b-11ef-9c8d-0242ac120003";

  /** The shape of the watermark. */
  @Param({"one-uuid", "three-uuids", "tagged", "many-intervals"})
  public String shape;

  private String text;
  private GtidSet watermark;
  private GtidSet executed;
  private GtidSet ownWrite;

  @Setup
  public void setUp() {
    text = switch (shape) {
      case "one-uuid" -> A + ":1-184467";
      case "three-uuids" -> A + ":1-184467," + B + ":1-5521," + C + ":1-77";
      case "tagged" -> A + ":1-184467:audit:1-52:batch:3-9," + B + ":1-5521";
      default -> manyIntervals();
    };
    watermark = GtidSet.parse(text);
    executed = watermark.union(GtidSet.parse(A + ":1-999999"));
    ownWrite = GtidSet.parse(A + ":184468");
  }

  private static String manyIntervals() {
    StringBuilder sb = new StringBuilder(A).append(':');
    for (int i = 0; i < 200; i++) {
      if (i > 0) {
        sb.append(':');
      }
      sb.append(i * 10 + 1).append('-').append(i * 10 + 5);
    }
    return sb.toString();
  }

  /** Parsing a set as the server or a token sends it. */
  @Benchmark
  public GtidSet parse() {
    return GtidSet.parse(text);
  }

  /** Adding the GTID of one write to the watermark. */
  @Benchmark
  public GtidSet unionOwnWrite() {
    return watermark.union(ownWrite);
  }

  /** "Is the replica known to have the watermark?" on every replica read. */
  @Benchmark
  public boolean containsWatermark() {
    return executed.contains(watermark);
  }
}
