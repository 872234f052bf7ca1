package dev.ryow.jdbc.it;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A second JVM a test starts (another application instance, another Connector/J): this JVM's Java, quick to start
 * and small for a run of a few seconds (C1 only, the serial collector), its error output merged into its output.
 */
final class ChildJvm {
  private ChildJvm() {}

  /** Starts {@code main} with {@code args} on {@code classPath}. */
  static Process start(String classPath, Class<?> main, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classPath, main.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }
}
