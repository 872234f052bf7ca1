package dev.ryow.spring.boot.tests;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One instance of {@link ItemsApplication} in its own JVM (so that no driver state is shared with the
 * test or the other instance), on the module's test class path, its output in {@code target/it-applications}.
 */
final class ApplicationInstance implements AutoCloseable {
  private static final Pattern PORT = Pattern.compile(Pattern.quote(ItemsApplication.PORT_LINE) + "(\\d+)");

  private final String name;
  private final Process process;
  private final Path log;
  private int port;

  private ApplicationInstance(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /** Starts an instance with Spring Boot command-line arguments ({@code --key=value}). */
  static ApplicationInstance start(String name, List<String> arguments) throws IOException {
    Path logs = Path.of(System.getProperty("ryow.it.logs", "target/it-applications"));
    Files.createDirectories(logs);
    String classpath = System.getProperty("ryow.it.testClasses") + File.pathSeparator
        + Files.readString(Path.of(System.getProperty("ryow.it.applicationClasspath")), StandardCharsets.UTF_8).trim();
    Path argFile = logs.resolve(name + ".args");
    Files.writeString(argFile, "-cp \"" + classpath + "\"\n", StandardCharsets.UTF_8);
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // A test application started on a busy machine: quick start over peak speed.
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "@" + argFile,
        ItemsApplication.class.getName()));
    command.addAll(arguments);
    Path log = logs.resolve(name + ".log");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new ApplicationInstance(name, process, log);
  }

  /** Waits until the instance listens and returns its port; fails with the end of its log if it dies or is too slow. */
  int awaitPort(long timeoutSeconds) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    while (System.nanoTime() < deadline) {
      Matcher m = PORT.matcher(Files.readString(log, StandardCharsets.UTF_8));
      if (m.find()) {
        port = Integer.parseInt(m.group(1));
        return port;
      }
      if (!process.isAlive()) {
        throw new AssertionError(name + " exited with " + process.exitValue() + " before listening:\n" + tail());
      }
      Thread.sleep(100);
    }
    throw new AssertionError(name + " did not listen within " + timeoutSeconds + " s:\n" + tail());
  }

  String base() {
    return "http://127.0.0.1:" + port;
  }

  String name() {
    return name;
  }

  /** The last lines of the instance's output. */
  String tail() throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }

  /** The instance's whole output so far. */
  String output() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
