package dev.ryow.jdbc.config;

/** What a read does when its watermark names GTIDs the primary has never executed ({@code ryow.unknownGtids}). */
public enum UnknownGtidPolicy {
  /** Read on the primary without waiting (always correct; counted). */
  PRIMARY,
  /** Fail the read with a {@link java.sql.SQLDataException} that names the unknown GTIDs. */
  ERROR
}
