package dev.ryow.jdbc.it;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The integration tests' SLF4J provider: every logger is enabled at every level (TRACE included), and
 * every line goes to {@link CapturedLog}; WARN and ERROR lines are also printed to stderr.
 */
public final class CapturingLogProvider implements SLF4JServiceProvider {
  private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();
  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final MDCAdapter mdc = new NOPMDCAdapter();

  /** Called by SLF4J through ServiceLoader. */
  public CapturingLogProvider() {}

  @Override
  public ILoggerFactory getLoggerFactory() {
    return name -> loggers.computeIfAbsent(name, CapturingLogger::new);
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {}

  private static final class CapturingLogger extends LegacyAbstractLogger {
    CapturingLogger(String name) {
      this.name = name;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
      return CapturingLogger.class.getName();
    }

    @Override
    protected void handleNormalizedLoggingCall(
        Level level, Marker marker, String messagePattern, Object[] arguments, Throwable throwable) {
      String text = MessageFormatter.basicArrayFormat(messagePattern, arguments);
      Throwable t = throwable;
      if (t == null && arguments != null && arguments.length > 0 && arguments[arguments.length - 1] instanceof Throwable last) {
        t = last;
      }
      String full = t == null ? text : text + " | " + CapturedLog.chainText(t);
      CapturedLog.add(new CapturedLog.Entry(level, name, full));
      if (level.toInt() >= Level.WARN.toInt()) {
        System.err.println(level + " " + name + " - " + full);
      }
    }

    @Override
    public boolean isTraceEnabled() {
      return true;
    }

    @Override
    public boolean isDebugEnabled() {
      return true;
    }

    @Override
    public boolean isInfoEnabled() {
      return true;
    }

    @Override
    public boolean isWarnEnabled() {
      return true;
    }

    @Override
    public boolean isErrorEnabled() {
      return true;
    }
  }
}
