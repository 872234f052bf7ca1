package dev.ryow.bench.stub;

import java.sql.ResultSet;
import java.sql.Statement;

/** The last execution of one stub statement: its result set or update count. */
final class Outcome {
  private StubResultSet resultSet;
  private long updateCount = -1;

  ResultSet query(Statement owner, StubConnection c, Answer answer) {
    StubResultSet rs = new StubResultSet(owner, answer.rows(c));
    resultSet = rs;
    updateCount = -1;
    return rs;
  }

  long update(StubConnection c, Answer answer) {
    resultSet = null;
    updateCount = answer.writes() ? 1 : 0;
    if (answer.writes()) {
      c.wrote();
    }
    return updateCount;
  }

  boolean execute(Statement owner, StubConnection c, Answer answer) {
    if (answer.isQuery()) {
      query(owner, c, answer);
      return true;
    }
    update(c, answer);
    return false;
  }

  ResultSet resultSet() {
    return resultSet;
  }

  long updateCount() {
    return updateCount;
  }

  void clear() {
    resultSet = null;
    updateCount = -1;
  }
}
