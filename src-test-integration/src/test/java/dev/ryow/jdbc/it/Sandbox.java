package dev.ryow.jdbc.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code sandbox/ryow-sandbox} (kill, restart, switchover, start) for the chaos tests, with the
 * environment of the build ({@code RYOW_SANDBOX_HOME}, {@code RYOW_SANDBOX_PORT_BASE}). A command
 * that fails fails the test.
 */
final class Sandbox {
  private static final Path SCRIPT = Path.of("..", "sandbox", "ryow-sandbox").toAbsolutePath().normalize();

  private Sandbox() {}

  /** Runs one command and returns its output (stdout and stderr). */
  static String run(String... args) {
    if (!Files.isExecutable(SCRIPT)) {
      throw new AssertionError("chaos tests need the sandbox script at " + SCRIPT);
    }
    List<String> command = new ArrayList<>();
    command.add(SCRIPT.toString());
    command.addAll(List.of(args));
    Path output = null;
    try {
      // Into a file, not a pipe: a pipe's reader would wait for every process that inherited it, past the timeout.
      output = Files.createTempFile("ryow-sandbox-", ".out");
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
      if (!p.waitFor(180, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("sandbox " + String.join(" ", args) + " did not finish in 180 s:\n"
            + Files.readString(output, StandardCharsets.UTF_8));
      }
      String text = Files.readString(output, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new AssertionError("sandbox " + String.join(" ", args) + " exited " + p.exitValue() + ":\n" + text);
      }
      return text;
    } catch (IOException e) {
      throw new AssertionError("could not run " + SCRIPT, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted running the sandbox", e);
    } finally {
      if (output != null) {
        try {
          Files.deleteIfExists(output);
        } catch (IOException e) {
          // a temp file left behind
        }
      }
    }
  }

  /** Back to the normal topology: the node 'primary' is the primary, every node runs and replicates. */
  static void restoreTopology() {
    run("switchover", "primary");
    run("start");
  }
}
