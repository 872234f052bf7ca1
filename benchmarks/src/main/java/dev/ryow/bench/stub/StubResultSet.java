package dev.ryow.bench.stub;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;

/** Rows held in arrays; one new instance per execution, as a driver returns. */
final class StubResultSet extends UnsupportedResultSet {
  private final Statement statement;
  private final Object[][] rows;
  private int row = -1;
  private boolean wasNull;
  private boolean closed;

  StubResultSet(Statement statement, Object[][] rows) {
    this.statement = statement;
    this.rows = rows;
  }

  private Object value(int column) throws SQLException {
    if (row < 0 || row >= rows.length) {
      throw new SQLException("no current row");
    }
    Object v = rows[row][column - 1];
    wasNull = v == null;
    return v;
  }

  @Override
  public boolean next() {
    if (row < rows.length) {
      row++;
    }
    return row < rows.length;
  }

  @Override
  public int getInt(int column) throws SQLException {
    Object v = value(column);
    return v == null ? 0 : ((Number) v).intValue();
  }

  @Override
  public long getLong(int column) throws SQLException {
    Object v = value(column);
    return v == null ? 0 : ((Number) v).longValue();
  }

  @Override
  public boolean getBoolean(int column) throws SQLException {
    Object v = value(column);
    return v != null && ((Number) v).intValue() != 0;
  }

  @Override
  public String getString(int column) throws SQLException {
    Object v = value(column);
    return v == null ? null : v.toString();
  }

  @Override
  public BigDecimal getBigDecimal(int column) throws SQLException {
    Object v = value(column);
    return v == null ? null : new BigDecimal(v.toString());
  }

  @Override
  public Object getObject(int column) throws SQLException {
    return value(column);
  }

  @Override
  public boolean wasNull() {
    return wasNull;
  }

  @Override
  public Statement getStatement() {
    return statement;
  }

  @Override
  public SQLWarning getWarnings() {
    return null;
  }

  @Override
  public void clearWarnings() {
    // none kept
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw new SQLException("not a wrapper for " + iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
