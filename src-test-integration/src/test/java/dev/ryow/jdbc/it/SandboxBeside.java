package dev.ryow.jdbc.it;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Another sandbox beside the one a test class runs against (for URLs that mix kinds of servers): started before
 * the class when it is not running, and stopped after it only then. Register it with {@code @RegisterExtension}.
 */
final class SandboxBeside implements BeforeAllCallback, AfterAllCallback {
  private final String[] mode;
  private boolean started;

  private SandboxBeside(String... mode) {
    this.mode = mode;
  }

  /** The default sandbox (MySQL with GTIDs). */
  static SandboxBeside mysqlWithGtids() {
    return new SandboxBeside();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    try {
      Sandbox.run(with("status"));
    } catch (AssertionError down) {
      Sandbox.run(with("start"));
      started = true;
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (started) {
      Sandbox.run(with("stop"));
    }
  }

  private String[] with(String command) {
    String[] args = java.util.Arrays.copyOf(mode, mode.length + 1);
    args[mode.length] = command;
    return args;
  }

  /** A URL of the driver on defaults with {@code primary} and one {@code replica}, by port on this host. */
  static String url(int primary, int replica) {
    return "jdbc:ryow:mysql://127.0.0.1:" + primary + ",127.0.0.1:" + replica + "/ryow?user=ryow&password=ryow";
  }
}
