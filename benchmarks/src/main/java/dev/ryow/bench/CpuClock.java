package dev.ryow.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * CPU time used so far by this JVM (the clients, the driver and the harness) and by each server's process,
 * so that a cell can say what a page cost in CPU where. A server's process is found from its {@code @@pid_file}
 * and read from {@code /proc/PID/stat} (user and system time of all its threads), so servers count only when
 * they run on this machine, as the sandbox's do; otherwise the clock reads nothing ({@link #measures()} false).
 */
final class CpuClock {
  /** Linux reports process times in clock ticks of {@code USER_HZ}, 100 per second on every architecture it ships. */
  private static final long NANOS_PER_TICK = 10_000_000L;

  /** Where cgroup v1's {@code cpu} controller may be mounted: alone, or with {@code cpuacct}. */
  private static final List<String> CPU_MOUNTS = List.of("/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct");

  private final com.sun.management.OperatingSystemMXBean jvm;
  private final List<Path> servers;
  private final double[] budgets;

  private CpuClock(com.sun.management.OperatingSystemMXBean jvm, List<Path> servers, double[] budgets) {
    this.jvm = jvm;
    this.servers = servers;
    this.budgets = budgets;
  }

  /**
   * Each server's CPU budget in CPUs (its cgroup's {@code cpu.cfs_quota_us / cpu.cfs_period_us}, as the sandbox's
   * hosts mode sets it), in the order of the URLs; NaN for a server without a quota. Empty when not measured.
   */
  double[] budgets() {
    return budgets.clone();
  }

  /** A clock of this JVM and the servers behind {@code adminUrls}, in that order; reads nothing if one is out of reach. */
  static CpuClock of(List<String> adminUrls) {
    com.sun.management.OperatingSystemMXBean jvm =
        ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os ? os : null;
    try {
      List<Path> stats = new java.util.ArrayList<>();
      for (String url : adminUrls) {
        stats.add(statOf(url));
      }
      double[] budgets = new double[stats.size()];
      for (int i = 0; i < budgets.length; i++) {
        budgets[i] = budgetOf(stats.get(i).getParent().resolve("cgroup"));
      }
      return jvm == null ? new CpuClock(null, List.of(), new double[0]) : new CpuClock(jvm, List.copyOf(stats), budgets);
    } catch (SQLException | IOException | RuntimeException e) {
      return new CpuClock(jvm, List.of(), new double[0]);
    }
  }

  /** The CPU budget of the process whose {@code /proc/PID/cgroup} is {@code procCgroup}; NaN without a quota. */
  private static double budgetOf(Path procCgroup) {
    try {
      String group = cpuGroup(Files.readString(procCgroup));
      if (group == null) {
        return Double.NaN;
      }
      for (String mount : CPU_MOUNTS) {
        Path dir = Path.of(mount + group);
        if (Files.isDirectory(dir)) {
          return budget(Long.parseLong(Files.readString(dir.resolve("cpu.cfs_quota_us")).trim()),
              Long.parseLong(Files.readString(dir.resolve("cpu.cfs_period_us")).trim()));
        }
      }
      return Double.NaN;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /**
   * The group of the cgroup-v1 {@code cpu} controller in a {@code /proc/PID/cgroup} text (lines
   * {@code id:controllers:path}, e.g. {@code 4:cpu:/ryow-26306-primary} or {@code 3:cpu,cpuacct:/}); null when
   * there is none (cgroup v2 only).
   */
  static @Nullable String cpuGroup(String procCgroup) {
    for (String line : procCgroup.split("\n")) {
      String[] f = line.split(":", 3);
      if (f.length == 3 && java.util.Arrays.asList(f[1].split(",")).contains("cpu")) {
        return f[2].trim();
      }
    }
    return null;
  }

  /** CPUs of a CFS quota: {@code quota / period}; NaN without a quota ({@code -1}) or a period. */
  static double budget(long quotaUs, long periodUs) {
    return quotaUs <= 0 || periodUs <= 0 ? Double.NaN : (double) quotaUs / periodUs;
  }

  /** Whether this clock reads the JVM and every server. */
  boolean measures() {
    return jvm != null && !servers.isEmpty();
  }

  /** CPU nanoseconds so far: this JVM's first, then each server's; empty when it {@linkplain #measures() measures} nothing. */
  long[] read() {
    if (!measures()) {
      return new long[0];
    }
    long[] now = new long[1 + servers.size()];
    now[0] = jvm.getProcessCpuTime();
    try {
      for (int i = 0; i < servers.size(); i++) {
        now[1 + i] = ticks(Files.readString(servers.get(i))) * NANOS_PER_TICK;
      }
    } catch (IOException | RuntimeException e) {
      return new long[0]; // a server restarted or went away: this cell has no CPU figures
    }
    return now;
  }

  /** {@code after - before}, element by element; empty when either is. */
  static long[] used(long[] before, long[] after) {
    if (before.length == 0 || after.length != before.length) {
      return new long[0];
    }
    long[] d = new long[after.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = after[i] - before[i];
    }
    return d;
  }

  /** User plus system time, in ticks, from a {@code /proc/PID/stat} line (fields 14 and 15; the name may hold spaces). */
  static long ticks(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    // After "pid (comm) " the fields start at the third: utime is field 14, stime field 15.
    return Long.parseLong(f[14 - 3]) + Long.parseLong(f[15 - 3]);
  }

  private static Path statOf(String adminUrl) throws SQLException, IOException {
    try (Connection c = DriverManager.getConnection(adminUrl);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@pid_file")) {
      rs.next();
      String pid = Files.readString(Path.of(rs.getString(1))).trim();
      Path stat = Path.of("/proc", pid, "stat");
      ticks(Files.readString(stat)); // readable, and in the expected form
      return stat;
    }
  }
}
