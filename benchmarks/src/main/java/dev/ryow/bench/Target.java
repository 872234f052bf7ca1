package dev.ryow.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One target of issue #6 and what was measured for it. Reported, never asserted: benchmarks are not
 * tests. Stored one per line, tab-separated, so that the summary can gather them.
 *
 * @param name what is promised, e.g. "wrapper overhead, primary point select"
 * @param goal the promise, e.g. "≤ 1.02× raw Connector/J"
 * @param figure what was measured
 * @param met whether the figure meets the goal
 */
record Target(String name, String goal, String figure, boolean met) {

  String row() {
    return "| " + name + " | " + goal + " | " + figure + " | " + (met ? "met" : "**not met**") + " |";
  }

  static String header() {
    return "| Target | Goal | Measured | |\n|---|---|---|---|";
  }

  static void write(Path file, List<Target> targets) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Target t : targets) {
      lines.add(String.join("\t", t.name, t.goal, t.figure, Boolean.toString(t.met)));
    }
    Files.write(file, lines);
  }

  static List<Target> read(Path file) throws IOException {
    List<Target> targets = new ArrayList<>();
    if (!Files.exists(file)) {
      return targets;
    }
    for (String line : Files.readAllLines(file)) {
      String[] f = line.split("\t", -1);
      if (f.length == 4) {
        targets.add(new Target(f[0], f[1], f[2], Boolean.parseBoolean(f[3])));
      }
    }
    return targets;
  }
}
