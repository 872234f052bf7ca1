package dev.ryow.jdbc;

/** Which kind of server ran a statement. */
public enum ServerRole {
  /** The writable server (first host of the URL). */
  PRIMARY,
  /** A read replica. */
  REPLICA
}
