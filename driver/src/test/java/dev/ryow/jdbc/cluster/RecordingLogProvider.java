package dev.ryow.jdbc.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The driver unit tests' SLF4J provider: silent (every level disabled) except while a test
 * {@linkplain #start() records}; then every line of every logger, at every level, is kept until
 * {@link #stop()}. Without it the unit tests log to SLF4J's no-operation logger, as before.
 */
public final class RecordingLogProvider implements SLF4JServiceProvider {
  /** One recorded line. */
  public record Line(Level level, String logger, String text) {}

  private static volatile boolean recording;
  private static final ConcurrentLinkedQueue<Line> LINES = new ConcurrentLinkedQueue<>();

  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final MDCAdapter mdc = new NOPMDCAdapter();

  /** Called by SLF4J through ServiceLoader. */
  public RecordingLogProvider() {}

  /** Starts recording (forgetting what was recorded before). */
  static void start() {
    LINES.clear();
    recording = true;
  }

  /** Stops recording; the recorded lines stay until the next {@link #start()}. */
  static void stop() {
    recording = false;
  }

  /** Takes the lines recorded so far that contain {@code fragment}, in the order they were logged. */
  static List<Line> drain(String fragment) {
    List<Line> out = new ArrayList<>();
    for (Line l; (l = LINES.poll()) != null; ) {
      if (l.text().contains(fragment)) {
        out.add(l);
      }
    }
    return out;
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return RecordingLogger::new;
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

  private static final class RecordingLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;

    RecordingLogger(String name) {
      this.name = name;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
      return RecordingLogger.class.getName();
    }

    @Override
    protected void handleNormalizedLoggingCall(
        Level level, Marker marker, String messagePattern, Object[] arguments, Throwable throwable) {
      LINES.add(new Line(level, name, MessageFormatter.basicArrayFormat(messagePattern, arguments)));
    }

    @Override
    public boolean isTraceEnabled() {
      return recording;
    }

    @Override
    public boolean isDebugEnabled() {
      return recording;
    }

    @Override
    public boolean isInfoEnabled() {
      return recording;
    }

    @Override
    public boolean isWarnEnabled() {
      return recording;
    }

    @Override
    public boolean isErrorEnabled() {
      return recording;
    }
  }
}
