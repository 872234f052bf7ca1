package dev.ryow.jdbc.it;

import static dev.ryow.jdbc.it.Topology.PRIMARY_PORT;
import static dev.ryow.jdbc.it.Topology.REPLICA_PORTS;

import java.sql.SQLException;

/**
 * How many statements whose digest contains a fragment each server executed, as counted by the
 * servers themselves ({@code performance_schema} digests): take one before, one after, subtract.
 */
record ServerCounts(String digestFragment, long primary, long replicas) {

  static ServerCounts of(String digestFragment) throws SQLException {
    long replicas = 0;
    for (int port : REPLICA_PORTS) {
      replicas += Topology.statementsLike(port, digestFragment);
    }
    return new ServerCounts(digestFragment, Topology.statementsLike(PRIMARY_PORT, digestFragment), replicas);
  }

  /** The statements run since {@code before}. */
  ServerCounts since(ServerCounts before) {
    return new ServerCounts(digestFragment, primary - before.primary, replicas - before.replicas);
  }

  /** Counts again now and returns the statements run since this snapshot. */
  ServerCounts delta() throws SQLException {
    return of(digestFragment).since(this);
  }

  long total() {
    return primary + replicas;
  }

  double replicaShare() {
    return total() == 0 ? 0 : (double) replicas / total();
  }

  @Override
  public String toString() {
    return String.format("'%s': primary %d, replicas %d (%.1f%% on replicas)",
        digestFragment, primary, replicas, 100 * replicaShare());
  }
}
