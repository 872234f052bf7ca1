package dev.ryow.jdbc.config;

import java.sql.SQLNonTransientConnectionException;

/** A {@code jdbc:ryow:} URL or property that cannot be used; the message names the part and the fix. */
public final class ConfigException extends SQLNonTransientConnectionException {
  private static final long serialVersionUID = 1L;

  /** SQLState for "client unable to establish connection" (bad connection specification). */
  private static final String SQL_STATE = "08001";

  ConfigException(String message) {
    super(message, SQL_STATE);
  }

  ConfigException(String message, Throwable cause) {
    super(message, SQL_STATE, cause);
  }
}
