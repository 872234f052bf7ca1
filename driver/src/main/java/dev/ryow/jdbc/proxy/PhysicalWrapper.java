package dev.ryow.jdbc.proxy;

import java.sql.SQLException;
import java.sql.Wrapper;

/**
 * The base of the generated {@code Delegating*} wrappers: the physical object each call goes to
 * ({@link #delegate}), the one exception hook ({@link #failed}), and {@link Wrapper}'s two methods, which
 * answer for the wrapper itself first (so that {@code unwrap(RyowConnection.class)} finds the logical
 * connection) and ask the physical object only for what the wrapper is not. Hand-written: the generator
 * writes no decision, only calls. Not final: javac then bridges them into the public {@code LogicalConnection},
 * so that reflection through its class reaches them from any package.
 */
abstract class PhysicalWrapper implements Wrapper {
  /** The physical object the next call goes to, after the wrapper's checks (open, still current). */
  abstract Wrapper delegate() throws SQLException;

  /** Sees every {@code SQLException} of the delegate (a broken connection, for one); returns what to throw. */
  abstract SQLException failed(SQLException e);

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    Wrapper d = delegate();
    try {
      return d.unwrap(iface);
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return true;
    }
    Wrapper d = delegate();
    try {
      return d.isWrapperFor(iface);
    } catch (SQLException e) {
      throw failed(e);
    }
  }
}
