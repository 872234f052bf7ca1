package dev.ryow.jdbc.it;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Ends an integration-test JVM that stays in one phase (a class's setup, one test, a class's teardown) for
 * {@value #LIMIT_MINUTES} minutes: it prints every thread's stack to stderr and halts the JVM, so that Failsafe
 * reports a crashed fork and the build fails with the place it hung, instead of running until CI is cut.
 * A blocked socket read does not answer an interrupt, so JUnit's own timeouts cannot end such a hang.
 * Registered for every test class by {@code META-INF/services} (extension auto-detection).
 */
public final class HangWatchdog implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {
  static final int LIMIT_MINUTES = 10;

  private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "it-hang-watchdog");
    t.setDaemon(true);
    return t;
  });
  private static final AtomicReference<ScheduledFuture<?>> ARMED = new AtomicReference<>();

  @Override
  public void beforeAll(ExtensionContext context) {
    arm(context.getDisplayName() + " (before all)");
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    arm(context.getRequiredTestClass().getSimpleName() + "." + context.getDisplayName());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    arm(context.getRequiredTestClass().getSimpleName() + " (after " + context.getDisplayName() + ")");
  }

  @Override
  public void afterAll(ExtensionContext context) {
    ScheduledFuture<?> previous = ARMED.getAndSet(null);
    if (previous != null) {
      previous.cancel(false);
    }
  }

  private static void arm(String phase) {
    ScheduledFuture<?> next = TIMER.schedule(() -> haltWithThreadDump(phase), LIMIT_MINUTES, TimeUnit.MINUTES);
    ScheduledFuture<?> previous = ARMED.getAndSet(next);
    if (previous != null) {
      previous.cancel(false);
    }
  }

  private static void haltWithThreadDump(String phase) {
    StringBuilder dump = new StringBuilder("IT HANG: ").append(phase).append(" ran for ").append(LIMIT_MINUTES)
        .append(" minutes; the JVM halts. Threads:\n");
    for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
      dump.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
      if (info.getLockName() != null) {
        dump.append(" on ").append(info.getLockName());
      }
      dump.append('\n');
      for (StackTraceElement frame : info.getStackTrace()) {
        dump.append("    at ").append(frame).append('\n');
      }
    }
    System.err.println(dump);
    System.err.flush();
    System.out.println(dump);
    System.out.flush();
    Runtime.getRuntime().halt(3);
  }
}
