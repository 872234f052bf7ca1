package dev.ryow.jdbc.route;

/** Where the router sends a statement. */
public enum Target {
  /** The primary. */
  PRIMARY,
  /** The logical connection's replica, after the consistency gate. */
  REPLICA
}
