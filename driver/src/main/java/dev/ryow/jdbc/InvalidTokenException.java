package dev.ryow.jdbc;

import java.sql.SQLDataException;

/**
 * A consistency token that is malformed, too large, unsigned or wrongly signed. The message says
 * which, and quotes at most a short, escaped part of the token.
 */
public final class InvalidTokenException extends SQLDataException {
  private static final long serialVersionUID = 1L;

  InvalidTokenException(String message) {
    super(message, "22023");
  }

  InvalidTokenException(String message, Throwable cause) {
    super(message, "22023", cause);
  }
}
