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
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(180, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("sandbox " + String.join(" ", args) + " did not finish in 180 s");
      }
      String text = new String(out, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new AssertionError("sandbox " + String.join(" ", args) + " exited " + p.exitValue() + ":\n" + text);
      }
      return text;
    } catch (IOException e) {
      throw new AssertionError("could not run " + SCRIPT, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted running the sandbox", e);
    }
  }

  /** Back to the normal topology: the node 'primary' is the primary, every node runs and replicates. */
  static void restoreTopology() {
    run("switchover", "primary");
    run("start");
  }
}
