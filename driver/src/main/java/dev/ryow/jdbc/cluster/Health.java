package dev.ryow.jdbc.cluster;

/** What the cluster knows of one server's ability to serve replica reads. */
public enum Health {
  /** Reachable, both replication threads running, applier lag within {@code ryow.maxReplicaLag}: in rotation. */
  UP,
  /**
   * Replication stopped without an error less than {@code ryow.applierStopGrace} ago (a short
   * {@code STOP REPLICA}, a restart): ordinary lag, still in rotation; reads prefer replicas that are
   * {@link #UP} and wait here only when none is.
   */
  PAUSED,
  /** Reachable but not yet polled since it stopped being the primary: out of rotation until the next poll. */
  UNKNOWN,
  /** Applier lag beyond {@code ryow.maxReplicaLag}. */
  LAGGING,
  /**
   * A delayed replica ({@code SOURCE_DELAY} > 0 on a channel): by design behind the primary, so never waited
   * on; reads it is already known to have executed may still go there.
   */
  DELAYED,
  /**
   * Without GTIDs: a replica that does not replicate directly from the primary over one channel (a chained
   * replica, a multi-source one, one whose source is not known yet): a binary-log position of the primary means
   * nothing there, so it is never waited on and serves no read that must see anything ({@code PositionWaitRule}).
   */
  INDIRECT,
  /**
   * Without GTIDs: a multithreaded applier whose executed position advances only at checkpoints
   * ({@code replica_checkpoint_period}) no sooner than {@code ryow.waitTimeout}: a {@code SOURCE_POS_WAIT} there
   * could not succeed in time, so it is never waited on; reads it is known to have executed (from the polls) may
   * still go there, as on a {@link #DELAYED} one.
   */
  CHECKPOINTED,
  /** A replication thread is stopped (or the server replicates from nobody). */
  REPLICATION_STOPPED,
  /** A replication thread stopped on an error. */
  REPLICATION_ERROR,
  /** Connections to it fail; probed again with backoff. */
  UNREACHABLE,
  /** It is the cluster's current primary. */
  PRIMARY,
  /**
   * A place kept for a Group Replication member the URL does not name, not taken yet: no server behind it,
   * never polled, read from or written to until a member found in {@code replication_group_members} takes it.
   */
  VACANT;

  /** Whether reads may wait on it. */
  public boolean inRotation() {
    return this == UP || this == PAUSED;
  }

  /** Whether a read may be sent to it at all (only reads it is known to be able to answer, when out of rotation). */
  public boolean reachable() {
    return this != UNREACHABLE && this != PRIMARY && this != VACANT && this != INDIRECT;
  }
}
