package dev.ryow.jdbc.it;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.slf4j.event.Level;

/** Every log line of this test JVM, in order, as recorded by {@link CapturingLogProvider}. */
final class CapturedLog {
  /** One formatted log line (with the messages of its throwable, if any). */
  record Entry(Level level, String logger, String text) {}

  private static final List<Entry> ENTRIES = Collections.synchronizedList(new ArrayList<>());

  private CapturedLog() {}

  static void add(Entry entry) {
    ENTRIES.add(entry);
  }

  /** How many lines were logged so far: pass it to {@link #since} later. */
  static int mark() {
    return ENTRIES.size();
  }

  /** The lines logged since {@code mark}. */
  static List<Entry> since(int mark) {
    synchronized (ENTRIES) {
      return List.copyOf(ENTRIES.subList(mark, ENTRIES.size()));
    }
  }

  /** Every line logged so far. */
  static List<Entry> all() {
    return since(0);
  }

  /**
   * Everything a user could see of {@code t}: its {@code toString} and those of its causes,
   * suppressed exceptions and chained {@link SQLException#getNextException() next exceptions}.
   */
  static String chainText(Throwable t) {
    StringBuilder out = new StringBuilder();
    append(t, out, Collections.newSetFromMap(new IdentityHashMap<>()));
    return out.toString();
  }

  private static void append(Throwable t, StringBuilder out, Set<Throwable> seen) {
    if (!seen.add(t)) {
      return;
    }
    out.append(t).append(" ; ");
    if (t.getCause() != null) {
      append(t.getCause(), out, seen);
    }
    for (Throwable s : t.getSuppressed()) {
      append(s, out, seen);
    }
    if (t instanceof SQLException sql && sql.getNextException() != null) {
      append(sql.getNextException(), out, seen);
    }
  }
}
