package dev.ryow.bench.stub;

import java.util.Arrays;
import java.util.Locale;

/** What a stub server answers to one SQL text: rows of a query, or an update count (and a GTID when it changes data). */
final class Answer {
  private static final Object[][] ONE_ROW = {{42}};
  private static final Object[][] MANY;
  private static final Object[][] WAIT_REACHED = {{0}};
  private static final Object[][] SUBSET_YES = {{1, null, null}};

  static {
    MANY = new Object[StubDriver.MANY_ROWS][];
    Arrays.fill(MANY, new Object[] {42});
  }

  private enum Shape { ROWS, PROBE, STATUS, POSITION, EXECUTED, DATABASE, WRITE, OTHER }

  private final Shape shape;
  private final Object[][] rows;

  private Answer(Shape shape, Object[][] rows) {
    this.shape = shape;
    this.rows = rows;
  }

  /** Decides once per SQL text (at prepare, or per plain-statement execution on both sides alike). */
  static Answer of(String sql) {
    String s = sql.stripLeading();
    if (s.startsWith("SELECT @@global.gtid_mode")) {
      return new Answer(Shape.PROBE, null);
    }
    if (s.startsWith("SELECT @@server_uuid, @@global.gtid_owned, @@global.gtid_executed")) {
      return new Answer(Shape.STATUS, null);
    }
    if (s.equals("SELECT @@global.gtid_owned, @@global.gtid_executed")) {
      return new Answer(Shape.POSITION, null);
    }
    if (s.equals("SELECT @@global.gtid_executed")) {
      return new Answer(Shape.EXECUTED, null);
    }
    if (s.equals("SELECT DATABASE()")) {
      return new Answer(Shape.DATABASE, null);
    }
    if (s.contains("WAIT_FOR_EXECUTED_GTID_SET")) {
      return new Answer(Shape.ROWS, WAIT_REACHED);
    }
    if (s.startsWith("SELECT GTID_SUBSET")) {
      return new Answer(Shape.ROWS, SUBSET_YES);
    }
    if (s.contains("stub_rows")) {
      return new Answer(Shape.ROWS, MANY);
    }
    String head = s.length() > 8 ? s.substring(0, 8).toUpperCase(Locale.ROOT) : s.toUpperCase(Locale.ROOT);
    if (head.startsWith("INSERT") || head.startsWith("UPDATE") || head.startsWith("DELETE")
        || head.startsWith("REPLACE")) {
      return new Answer(Shape.WRITE, null);
    }
    if (head.startsWith("SELECT") || head.startsWith("/*") || head.startsWith("WITH") || head.startsWith("SHOW")) {
      return new Answer(Shape.ROWS, ONE_ROW);
    }
    return new Answer(Shape.OTHER, null);
  }

  boolean isQuery() {
    return shape != Shape.WRITE && shape != Shape.OTHER;
  }

  boolean writes() {
    return shape == Shape.WRITE;
  }

  /** The rows, on {@code c}. */
  Object[][] rows(StubConnection c) {
    return switch (shape) {
      case ROWS -> rows;
      case PROBE -> new Object[][] {
        {"ON", "OWN_GTID", c.primary ? StubDriver.PRIMARY_UUID : StubDriver.REPLICA_UUID, c.port, c.primary ? 0 : 1}};
      case STATUS -> new Object[][] {
        {c.primary ? StubDriver.PRIMARY_UUID : StubDriver.REPLICA_UUID, "", c.cluster.executedText(), c.primary ? 0 : 1,
          c.primary ? 0 : 1, 0, 0, 0L, null, null, c.primary ? null : StubDriver.PRIMARY_UUID, 0L}};
      case POSITION -> new Object[][] {{"", c.cluster.executedText()}};
      case EXECUTED -> new Object[][] {{c.cluster.executedText()}};
      case DATABASE -> new Object[][] {{c.getDatabase()}};
      case WRITE, OTHER -> new Object[0][];
    };
  }
}
