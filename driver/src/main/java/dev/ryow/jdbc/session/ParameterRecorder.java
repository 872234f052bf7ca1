package dev.ryow.jdbc.session;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.Calendar;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of a prepared statement whose server is chosen at execution time, recorded per
 * index and replayed onto the physical statement that runs it. Primitives are kept unboxed; the
 * arrays are allocated at the first parameter (the object arrays only at the first parameter that is
 * an object), grow once to the statement's parameter count and are reused across executions.
 */
public final class ParameterRecorder {
  private static final byte UNSET = 0;
  private static final byte NULL = 1;
  private static final byte NULL_TYPED = 2;
  private static final byte BOOLEAN = 3;
  private static final byte BYTE = 4;
  private static final byte SHORT = 5;
  private static final byte INT = 6;
  private static final byte LONG = 7;
  private static final byte FLOAT = 8;
  private static final byte DOUBLE = 9;
  private static final byte BIG_DECIMAL = 10;
  private static final byte STRING = 11;
  private static final byte NSTRING = 12;
  private static final byte BYTES = 13;
  private static final byte DATE = 14;
  private static final byte TIME = 15;
  private static final byte TIMESTAMP = 16;
  private static final byte OBJECT = 17;
  private static final byte OBJECT_TYPED = 18;
  private static final byte OBJECT_TYPED_SCALE = 19;
  private static final byte OBJECT_SQLTYPE = 20;
  private static final byte OBJECT_SQLTYPE_SCALE = 21;
  private static final byte ASCII_STREAM = 22;
  private static final byte BINARY_STREAM = 23;
  private static final byte CHARACTER_STREAM = 24;
  private static final byte NCHARACTER_STREAM = 25;
  private static final byte UNICODE_STREAM = 26;
  private static final byte BLOB = 27;
  private static final byte BLOB_STREAM = 28;
  private static final byte CLOB = 29;
  private static final byte CLOB_READER = 30;
  private static final byte NCLOB = 31;
  private static final byte NCLOB_READER = 32;
  private static final byte REF = 33;
  private static final byte ARRAY = 34;
  private static final byte URL_VALUE = 35;
  private static final byte ROWID = 36;
  private static final byte SQLXML_VALUE = 37;

  private static final byte[] NO_KINDS = new byte[0];
  private static final long[] NO_NUMBERS = new long[0];
  private static final @Nullable Object[] NO_OBJECTS = new Object[0];
  /** Capacity at the first parameter: most statements have no more. */
  private static final int FIRST_CAPACITY = 4;

  private byte[] kinds = NO_KINDS;
  private long[] numbers = NO_NUMBERS;
  /** Shorter than {@link #kinds} (empty) until a parameter needs an object. */
  private @Nullable Object[] values = NO_OBJECTS;
  private @Nullable Object[] extras = NO_OBJECTS;
  private int highest;

  private int slot(int index) throws SQLException {
    if (index < 1) {
      throw new SQLException("Parameter index out of range: " + index, "S1009");
    }
    int i = index - 1;
    if (i >= kinds.length) {
      int size = Math.max(Math.max(kinds.length * 2, index), FIRST_CAPACITY);
      kinds = Arrays.copyOf(kinds, size);
      numbers = Arrays.copyOf(numbers, size);
      if (values.length != 0) {
        values = Arrays.copyOf(values, size);
        extras = Arrays.copyOf(extras, size);
      }
    }
    if (index > highest) {
      highest = index;
    }
    return i;
  }

  private void put(int index, byte kind, long number, @Nullable Object value, @Nullable Object extra)
      throws SQLException {
    int i = slot(index);
    kinds[i] = kind;
    numbers[i] = number;
    if (values.length == 0) {
      if (value == null && extra == null) {
        return;
      }
      values = new Object[kinds.length];
      extras = new Object[kinds.length];
    }
    values[i] = value;
    extras[i] = extra;
  }

  /** An independent copy of the current parameters (for replaying a session statement later). */
  public ParameterRecorder copy() {
    ParameterRecorder c = new ParameterRecorder();
    c.kinds = kinds.clone();
    c.numbers = numbers.clone();
    c.values = values.clone();
    c.extras = extras.clone();
    c.highest = highest;
    return c;
  }

  /**
   * Whether every parameter can be set again later on another connection (a transaction replay): no
   * stream or reader (read once), and no LOB, array, ref, row id or SQLXML object (made by, or read
   * through, the connection that runs the statement), also not passed through {@code setObject}.
   */
  public boolean replayableLater() {
    boolean objects = values.length != 0;
    for (int i = 0; i < highest; i++) {
      byte kind = kinds[i];
      if (kind >= ASCII_STREAM) {
        return false;
      }
      if (objects && kind >= OBJECT && kind <= OBJECT_SQLTYPE_SCALE && !plainValue(values[i])) {
        return false;
      }
    }
    return true;
  }

  private static boolean plainValue(@Nullable Object v) {
    return !(v instanceof InputStream || v instanceof Reader || v instanceof Blob || v instanceof Clob
        || v instanceof Array || v instanceof Ref || v instanceof RowId || v instanceof SQLXML);
  }

  /** About how many bytes the recorded values take (for the transaction log's cap). */
  public long sizeEstimate() {
    long size = 16L * highest;
    boolean objects = values.length != 0;
    for (int i = 0; objects && i < highest; i++) {
      Object v = values[i];
      if (v instanceof String text) {
        size += 2L * text.length();
      } else if (v instanceof byte[] bytes) {
        size += bytes.length;
      } else if (v != null) {
        size += 32;
      }
    }
    return size;
  }

  /** Forgets every parameter ({@code clearParameters}). */
  /** No parameter is recorded. */
  public boolean isEmpty() {
    return highest == 0;
  }

  public void clear() {
    Arrays.fill(kinds, 0, highest, UNSET);
    if (values.length != 0) {
      Arrays.fill(values, 0, highest, null);
      Arrays.fill(extras, 0, highest, null);
    }
    highest = 0;
  }

  public void setNull(int index, int sqlType) throws SQLException {
    put(index, NULL, sqlType, null, null);
  }

  public void setNull(int index, int sqlType, String typeName) throws SQLException {
    put(index, NULL_TYPED, sqlType, typeName, null);
  }

  public void setBoolean(int index, boolean x) throws SQLException {
    put(index, BOOLEAN, x ? 1 : 0, null, null);
  }

  public void setByte(int index, byte x) throws SQLException {
    put(index, BYTE, x, null, null);
  }

  public void setShort(int index, short x) throws SQLException {
    put(index, SHORT, x, null, null);
  }

  public void setInt(int index, int x) throws SQLException {
    put(index, INT, x, null, null);
  }

  public void setLong(int index, long x) throws SQLException {
    put(index, LONG, x, null, null);
  }

  public void setFloat(int index, float x) throws SQLException {
    put(index, FLOAT, Float.floatToRawIntBits(x), null, null);
  }

  public void setDouble(int index, double x) throws SQLException {
    put(index, DOUBLE, Double.doubleToRawLongBits(x), null, null);
  }

  public void setBigDecimal(int index, @Nullable BigDecimal x) throws SQLException {
    put(index, BIG_DECIMAL, 0, x, null);
  }

  public void setString(int index, @Nullable String x) throws SQLException {
    put(index, STRING, 0, x, null);
  }

  public void setNString(int index, @Nullable String x) throws SQLException {
    put(index, NSTRING, 0, x, null);
  }

  public void setBytes(int index, byte @Nullable [] x) throws SQLException {
    put(index, BYTES, 0, x, null);
  }

  public void setDate(int index, @Nullable Date x, @Nullable Calendar cal) throws SQLException {
    put(index, DATE, 0, x, cal);
  }

  public void setTime(int index, @Nullable Time x, @Nullable Calendar cal) throws SQLException {
    put(index, TIME, 0, x, cal);
  }

  public void setTimestamp(int index, @Nullable Timestamp x, @Nullable Calendar cal) throws SQLException {
    put(index, TIMESTAMP, 0, x, cal);
  }

  public void setObject(int index, @Nullable Object x) throws SQLException {
    put(index, OBJECT, 0, x, null);
  }

  public void setObject(int index, @Nullable Object x, int sqlType) throws SQLException {
    put(index, OBJECT_TYPED, sqlType, x, null);
  }

  public void setObject(int index, @Nullable Object x, int sqlType, int scale) throws SQLException {
    put(index, OBJECT_TYPED_SCALE, ((long) sqlType << 32) | (scale & 0xffffffffL), x, null);
  }

  public void setObject(int index, @Nullable Object x, SQLType sqlType) throws SQLException {
    put(index, OBJECT_SQLTYPE, 0, x, sqlType);
  }

  public void setObject(int index, @Nullable Object x, SQLType sqlType, int scale) throws SQLException {
    put(index, OBJECT_SQLTYPE_SCALE, scale, x, sqlType);
  }

  /** Streams: {@code length} is -1 when the application gave none. */
  public void setAsciiStream(int index, @Nullable InputStream x, long length) throws SQLException {
    put(index, ASCII_STREAM, length, x, null);
  }

  public void setBinaryStream(int index, @Nullable InputStream x, long length) throws SQLException {
    put(index, BINARY_STREAM, length, x, null);
  }

  public void setUnicodeStream(int index, @Nullable InputStream x, int length) throws SQLException {
    put(index, UNICODE_STREAM, length, x, null);
  }

  public void setCharacterStream(int index, @Nullable Reader x, long length) throws SQLException {
    put(index, CHARACTER_STREAM, length, x, null);
  }

  public void setNCharacterStream(int index, @Nullable Reader x, long length) throws SQLException {
    put(index, NCHARACTER_STREAM, length, x, null);
  }

  public void setBlob(int index, @Nullable Blob x) throws SQLException {
    put(index, BLOB, 0, x, null);
  }

  public void setBlob(int index, @Nullable InputStream x, long length) throws SQLException {
    put(index, BLOB_STREAM, length, x, null);
  }

  public void setClob(int index, @Nullable Clob x) throws SQLException {
    put(index, CLOB, 0, x, null);
  }

  public void setClob(int index, @Nullable Reader x, long length) throws SQLException {
    put(index, CLOB_READER, length, x, null);
  }

  public void setNClob(int index, @Nullable NClob x) throws SQLException {
    put(index, NCLOB, 0, x, null);
  }

  public void setNClob(int index, @Nullable Reader x, long length) throws SQLException {
    put(index, NCLOB_READER, length, x, null);
  }

  public void setRef(int index, @Nullable Ref x) throws SQLException {
    put(index, REF, 0, x, null);
  }

  public void setArray(int index, @Nullable Array x) throws SQLException {
    put(index, ARRAY, 0, x, null);
  }

  public void setURL(int index, @Nullable URL x) throws SQLException {
    put(index, URL_VALUE, 0, x, null);
  }

  public void setRowId(int index, @Nullable RowId x) throws SQLException {
    put(index, ROWID, 0, x, null);
  }

  public void setSQLXML(int index, @Nullable SQLXML x) throws SQLException {
    put(index, SQLXML_VALUE, 0, x, null);
  }

  /** Sets every recorded parameter on {@code ps}. */
  @SuppressWarnings("deprecation") // setUnicodeStream is replayed as the application called it
  public void replay(PreparedStatement ps) throws SQLException {
    replay(ps, 0);
  }

  /** Sets every recorded parameter on {@code ps}, each {@code shift} places later (after parameters of the driver's). */
  @SuppressWarnings("deprecation") // setUnicodeStream is replayed as the application called it
  public void replay(PreparedStatement ps, int shift) throws SQLException {
    boolean objects = values.length != 0;
    for (int i = 0; i < highest; i++) {
      int index = i + 1 + shift;
      long n = numbers[i];
      Object v = objects ? values[i] : null;
      Object x = objects ? extras[i] : null;
      switch (kinds[i]) {
        case UNSET -> { }
        case NULL -> ps.setNull(index, (int) n);
        case NULL_TYPED -> ps.setNull(index, (int) n, (String) v);
        case BOOLEAN -> ps.setBoolean(index, n != 0);
        case BYTE -> ps.setByte(index, (byte) n);
        case SHORT -> ps.setShort(index, (short) n);
        case INT -> ps.setInt(index, (int) n);
        case LONG -> ps.setLong(index, n);
        case FLOAT -> ps.setFloat(index, Float.intBitsToFloat((int) n));
        case DOUBLE -> ps.setDouble(index, Double.longBitsToDouble(n));
        case BIG_DECIMAL -> ps.setBigDecimal(index, (BigDecimal) v);
        case STRING -> ps.setString(index, (String) v);
        case NSTRING -> ps.setNString(index, (String) v);
        case BYTES -> ps.setBytes(index, (byte[]) v);
        case DATE -> ps.setDate(index, (Date) v, (Calendar) x);
        case TIME -> ps.setTime(index, (Time) v, (Calendar) x);
        case TIMESTAMP -> ps.setTimestamp(index, (Timestamp) v, (Calendar) x);
        case OBJECT -> ps.setObject(index, v);
        case OBJECT_TYPED -> ps.setObject(index, v, (int) n);
        case OBJECT_TYPED_SCALE -> ps.setObject(index, v, (int) (n >> 32), (int) n);
        case OBJECT_SQLTYPE -> ps.setObject(index, v, (SQLType) x);
        case OBJECT_SQLTYPE_SCALE -> ps.setObject(index, v, (SQLType) x, (int) n);
        case ASCII_STREAM -> {
          if (n < 0) {
            ps.setAsciiStream(index, (InputStream) v);
          } else {
            ps.setAsciiStream(index, (InputStream) v, n);
          }
        }
        case BINARY_STREAM -> {
          if (n < 0) {
            ps.setBinaryStream(index, (InputStream) v);
          } else {
            ps.setBinaryStream(index, (InputStream) v, n);
          }
        }
        case UNICODE_STREAM -> ps.setUnicodeStream(index, (InputStream) v, (int) n);
        case CHARACTER_STREAM -> {
          if (n < 0) {
            ps.setCharacterStream(index, (Reader) v);
          } else {
            ps.setCharacterStream(index, (Reader) v, n);
          }
        }
        case NCHARACTER_STREAM -> {
          if (n < 0) {
            ps.setNCharacterStream(index, (Reader) v);
          } else {
            ps.setNCharacterStream(index, (Reader) v, n);
          }
        }
        case BLOB -> ps.setBlob(index, (Blob) v);
        case BLOB_STREAM -> {
          if (n < 0) {
            ps.setBlob(index, (InputStream) v);
          } else {
            ps.setBlob(index, (InputStream) v, n);
          }
        }
        case CLOB -> ps.setClob(index, (Clob) v);
        case CLOB_READER -> {
          if (n < 0) {
            ps.setClob(index, (Reader) v);
          } else {
            ps.setClob(index, (Reader) v, n);
          }
        }
        case NCLOB -> ps.setNClob(index, (NClob) v);
        case NCLOB_READER -> {
          if (n < 0) {
            ps.setNClob(index, (Reader) v);
          } else {
            ps.setNClob(index, (Reader) v, n);
          }
        }
        case REF -> ps.setRef(index, (Ref) v);
        case ARRAY -> ps.setArray(index, (Array) v);
        case URL_VALUE -> ps.setURL(index, (URL) v);
        case ROWID -> ps.setRowId(index, (RowId) v);
        case SQLXML_VALUE -> ps.setSQLXML(index, (SQLXML) v);
        default -> throw new IllegalStateException("unknown parameter kind " + kinds[i]);
      }
    }
  }
}
