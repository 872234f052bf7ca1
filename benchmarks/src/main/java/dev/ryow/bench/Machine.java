package dev.ryow.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a result was measured on: machine and Java, as Markdown list items. The load average is not
 * among them: each report records its own at the start and at the end of its run ({@link #loadAverage}).
 */
final class Machine {
  private Machine() {}

  static List<String> describe() {
    List<String> lines = new ArrayList<>();
    lines.add("- Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs (nproc), "
        + memory() + " RAM, " + cpuModel() + "; " + System.getProperty("os.name") + " "
        + System.getProperty("os.version"));
    lines.add("- Java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    return lines;
  }

  static String cpuModel() {
    for (String line : read("/proc/cpuinfo")) {
      if (line.startsWith("model name")) {
        return line.substring(line.indexOf(':') + 1).trim();
      }
    }
    return System.getProperty("os.arch");
  }

  static String memory() {
    for (String line : read("/proc/meminfo")) {
      if (line.startsWith("MemTotal:")) {
        long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
        return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
      }
    }
    return "? GiB";
  }

  static String loadAverage() {
    List<String> l = read("/proc/loadavg");
    if (l.isEmpty()) {
      return "?";
    }
    String[] f = l.get(0).split(" ");
    return f[0] + " " + f[1] + " " + f[2];
  }

  private static List<String> read(String file) {
    try {
      return Files.readAllLines(Path.of(file));
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }
}
