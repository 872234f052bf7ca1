package dev.ryow.jdbc.server;

/** What {@code WAIT_FOR_EXECUTED_GTID_SET} answered on a replica. */
public enum WaitOutcome {
  /** Returned 0: the replica has executed the whole set. */
  REACHED,
  /** Returned 1: the timeout passed first. */
  TIMED_OUT,
  /** Returned NULL or a (non-connection) error, e.g. the replica rejected the set. */
  FAILED,
  /** Ended early by {@link PhysicalConnection#cancelWait()} (another thread: cancel, close, abort). */
  CANCELLED,
  /** Not finished: the waiting thread was interrupted (the wait was not sent, or was cut short). */
  INTERRUPTED
}
