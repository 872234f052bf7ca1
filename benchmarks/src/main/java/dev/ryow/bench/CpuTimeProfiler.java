package dev.ryow.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time of the benchmark threads per operation ({@code cpu.time.norm}, ns/op): the CPU the JMH
 * worker threads used during an iteration (thread CPU time, so time spent waiting for a CPU on a
 * busy machine is not counted) divided by the iteration's operations, as {@code -prof gc} normalizes
 * allocation. On a machine shared with other work, wall-clock ns/op also counts the time the thread
 * was not running; this figure does not, which is what resolves a wrapper's nanoseconds there.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private Map<Long, Long> before = new HashMap<>();

  @Override
  public String getDescription() {
    return "CPU time of the JMH worker threads per operation";
  }

  private Map<Long, Long> workerCpu() {
    Map<Long, Long> cpu = new HashMap<>();
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().contains("jmh-worker")) {
        long t = threads.getThreadCpuTime(info.getThreadId());
        if (t >= 0) {
          cpu.put(info.getThreadId(), t);
        }
      }
    }
    return cpu;
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    before = workerCpu();
  }

  @Override
  public Collection<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
      IterationResult result) {
    long used = 0;
    for (Map.Entry<Long, Long> e : workerCpu().entrySet()) {
      used += e.getValue() - before.getOrDefault(e.getKey(), 0L);
    }
    long ops = result.getMetadata().getAllOps();
    return List.of(new ScalarResult("cpu.time.norm", ops == 0 ? Double.NaN : (double) used / ops, "ns/op",
        AggregationPolicy.AVG));
  }
}
