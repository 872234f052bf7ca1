package dev.ryow.jdbc.proxy;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * What a recorded setting of a statement does. The generated setters and getters of {@link RecordedSettings}
 * are one call here each, with the setting's method of {@link Statement} as a method reference (one object
 * per method for the JVM's life: nothing is allocated per call). A setter gives the value to the physical
 * statements that exist, or to the one {@link RecordedSettings#answering} creates when none does (so that
 * Connector/J checks it at once), then records it with its bit; a getter answers the recorded value, or else
 * asks a physical statement (Connector/J's default, some from the URL; the query timeout a physical
 * statement holds may be what was left of the recorded one); {@link #apply} gives a new physical statement
 * the values the application set, and nothing else, so the others stay Connector/J's defaults.
 */
final class StatementSettings {
  private StatementSettings() {}

  /** How one recorded setting is given to a new physical statement ({@link RecordedSettings#APPLY}). */
  @FunctionalInterface
  interface Apply {
    void to(Statement s, RecordedSettings recorded) throws SQLException;
  }

  /** {@code Statement::setXxx} of an {@code int} setting. */
  @FunctionalInterface
  interface IntSetter {
    void set(Statement s, int value) throws SQLException;
  }

  /** {@code Statement::setXxx} of a {@code long} setting. */
  @FunctionalInterface
  interface LongSetter {
    void set(Statement s, long value) throws SQLException;
  }

  /** {@code Statement::setXxx} of a {@code boolean} setting. */
  @FunctionalInterface
  interface BooleanSetter {
    void set(Statement s, boolean value) throws SQLException;
  }

  /** {@code Statement::setXxx} of a {@code String} setting. */
  @FunctionalInterface
  interface StringSetter {
    void set(Statement s, String value) throws SQLException;
  }

  /** {@code Statement::getXxx} of an {@code int} setting. */
  @FunctionalInterface
  interface IntGetter {
    int get(Statement s) throws SQLException;
  }

  /** {@code Statement::getXxx} of a {@code long} setting. */
  @FunctionalInterface
  interface LongGetter {
    long get(Statement s) throws SQLException;
  }

  /** {@code Statement::isXxx} of a {@code boolean} setting. */
  @FunctionalInterface
  interface BooleanGetter {
    boolean get(Statement s) throws SQLException;
  }

  /** Gives the new physical statement {@code s} the values the application set on {@code st}, in bit order. */
  static <S extends Statement> S apply(RecordedSettings st, S s) throws SQLException {
    int r = st.settingsSet;
    for (int i = 0; r != 0; i++, r >>>= 1) {
      if ((r & 1) != 0) {
        RecordedSettings.APPLY[i].to(s, st);
      }
    }
    return s;
  }

  static int setInt(RecordedSettings st, IntSetter setter, int value, int bit, int forgets) throws SQLException {
    for (int i = first(st); i >= 0; i = next(st, i)) {
      setter.set(target(st, i), value);
    }
    record(st, bit, forgets);
    return value;
  }

  static long setLong(RecordedSettings st, LongSetter setter, long value, int bit, int forgets) throws SQLException {
    for (int i = first(st); i >= 0; i = next(st, i)) {
      setter.set(target(st, i), value);
    }
    record(st, bit, forgets);
    return value;
  }

  static boolean setBoolean(RecordedSettings st, BooleanSetter setter, boolean value, int bit, int forgets)
      throws SQLException {
    for (int i = first(st); i >= 0; i = next(st, i)) {
      setter.set(target(st, i), value);
    }
    record(st, bit, forgets);
    return value;
  }

  static String setString(RecordedSettings st, StringSetter setter, String value, int bit, int forgets)
      throws SQLException {
    for (int i = first(st); i >= 0; i = next(st, i)) {
      setter.set(target(st, i), value);
    }
    record(st, bit, forgets);
    return value;
  }

  static int getInt(RecordedSettings st, IntGetter getter, int recorded, int bit) throws SQLException {
    st.checkOpen();
    return (st.settingsSet & bit) != 0 ? recorded : getter.get(st.answering());
  }

  static long getLong(RecordedSettings st, LongGetter getter, long recorded, int bit) throws SQLException {
    st.checkOpen();
    return (st.settingsSet & bit) != 0 ? recorded : getter.get(st.answering());
  }

  static boolean getBoolean(RecordedSettings st, BooleanGetter getter, boolean recorded, int bit) throws SQLException {
    st.checkOpen();
    return (st.settingsSet & bit) != 0 ? recorded : getter.get(st.answering());
  }

  /** The physical statement that answers for {@code st} (the quoting helpers), after its open check. */
  static Statement answering(RecordedSettings st) throws SQLException {
    st.checkOpen();
    return st.answering();
  }

  /** Records that the setting of {@code bit} was set; the settings of {@code forgets} share its value in Connector/J. */
  private static void record(RecordedSettings st, int bit, int forgets) {
    st.settingsSet = (st.settingsSet & ~forgets) | bit;
  }

  /**
   * The first statement a setter of {@code st} gives its value to, after the open check: the first slot that
   * holds a physical statement or, when none does, {@code physicalSlots()}, which stands for the one
   * {@link RecordedSettings#answering} creates ({@link #target}).
   */
  private static int first(RecordedSettings st) throws SQLException {
    st.checkOpen();
    return filled(st, 0);
  }

  /** The slot after {@code i} that holds a physical statement, or -1 when there is none (nor after answering). */
  private static int next(RecordedSettings st, int i) {
    int n = st.physicalSlots();
    int j = i < n ? filled(st, i + 1) : n;
    return j < n ? j : -1;
  }

  /** The first slot from {@code i} on that holds a physical statement, or {@code physicalSlots()}. */
  private static int filled(RecordedSettings st, int from) {
    int n = st.physicalSlots();
    int i = from;
    while (i < n && st.physicalSlot(i) == null) {
      i++;
    }
    return i;
  }

  /** The physical statement of slot {@code i}, or the answering one for {@code physicalSlots()}. */
  private static Statement target(RecordedSettings st, int i) throws SQLException {
    return i < st.physicalSlots() ? st.physicalSlot(i) : st.answering();
  }
}
