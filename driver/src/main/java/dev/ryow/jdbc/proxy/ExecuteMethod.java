package dev.ryow.jdbc.proxy;

/**
 * Which {@code execute*} method of JDBC an execution calls on its physical statement
 * ({@link RoutingStatement#run}, which switches on it): {@code execute}, {@code executeQuery},
 * {@code executeUpdate} or {@code executeLargeUpdate}, with the generated keys asked for by flag
 * ({@code _KEYS}), by column index or by column name. A prepared statement's executions take no SQL
 * and no keys: {@link #EXECUTE}, {@link #QUERY}, {@link #UPDATE}, {@link #LARGE_UPDATE}.
 */
enum ExecuteMethod {
  EXECUTE,
  EXECUTE_KEYS,
  EXECUTE_COLUMN_INDEXES,
  EXECUTE_COLUMN_NAMES,
  QUERY,
  UPDATE,
  UPDATE_KEYS,
  UPDATE_COLUMN_INDEXES,
  UPDATE_COLUMN_NAMES,
  LARGE_UPDATE,
  LARGE_UPDATE_KEYS,
  LARGE_UPDATE_COLUMN_INDEXES,
  LARGE_UPDATE_COLUMN_NAMES
}
