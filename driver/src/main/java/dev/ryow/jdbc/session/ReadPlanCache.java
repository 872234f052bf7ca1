package dev.ryow.jdbc.session;

import dev.ryow.jdbc.ConsistencyMode;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import org.jspecify.annotations.Nullable;

/**
 * "Did anything the last read was planned from change?" Remembers the home server of the last
 * monotonic replica read that ran there without a wait, with what its plan was made from: the
 * consistency mode, the connection's and the JVM's write watermarks (immutable sets, compared by
 * identity) and the versions of the cluster's state and of the read watermarks
 * ({@link dev.ryow.jdbc.cluster.StateVersion}). While all are the same, planning again would choose the
 * same server and the same no-wait admission, so the read goes there at once.
 *
 * <p>The key is taken {@linkplain #begin before} the plan reads any state, and kept only if the plan
 * needed no round trip and changed nothing ({@link #unstable}). One per logical connection; not thread-safe.
 */
final class ReadPlanCache {
  private @Nullable ReplicaEndpoint home;
  private @Nullable ConsistencyMode mode;
  private Position own = Positions.EMPTY;
  private Position jvmWrites = Positions.EMPTY;
  private long clusterVersion;
  private long readsVersion;
  private long jvmReadsVersion;

  private @Nullable ConsistencyMode nextMode;
  private Position nextOwn = Positions.EMPTY;
  private Position nextJvmWrites = Positions.EMPTY;
  private long nextClusterVersion;
  private long nextReadsVersion;
  private long nextJvmReadsVersion;
  private boolean unstable = true;

  /** The remembered home if the plan's inputs are these, else null. */
  // A cache keyed on identity: the same immutable sets mean the same plan (an equal copy only misses).
  @SuppressWarnings("ReferenceEquality")
  @Nullable ReplicaEndpoint home(ConsistencyMode mode, Position own, Position jvmWrites, long clusterVersion,
      long readsVersion, long jvmReadsVersion) {
    ReplicaEndpoint h = home;
    return h != null
        && mode == this.mode
        && own == this.own
        && jvmWrites == this.jvmWrites
        && clusterVersion == this.clusterVersion
        && readsVersion == this.readsVersion
        && jvmReadsVersion == this.jvmReadsVersion
        ? h : null;
  }

  /** A plan starts from these inputs (read before anything else the plan reads). */
  void begin(ConsistencyMode mode, Position own, Position jvmWrites, long clusterVersion, long readsVersion,
      long jvmReadsVersion) {
    nextMode = mode;
    nextOwn = own;
    nextJvmWrites = jvmWrites;
    nextClusterVersion = clusterVersion;
    nextReadsVersion = readsVersion;
    nextJvmReadsVersion = jvmReadsVersion;
    unstable = false;
  }

  /** The plan begun last cannot be reused: it read or changed state beyond its inputs, or made a round trip. */
  void unstable() {
    unstable = true;
  }

  /**
   * The plan begun last ran its read at {@code server} without a wait: remembered, unless it was
   * {@linkplain #unstable unstable}.
   */
  void ranAtHome(ReplicaEndpoint server) {
    if (unstable) {
      home = null;
      return;
    }
    home = server;
    mode = nextMode;
    own = nextOwn;
    jvmWrites = nextJvmWrites;
    clusterVersion = nextClusterVersion;
    readsVersion = nextReadsVersion;
    jvmReadsVersion = nextJvmReadsVersion;
  }

  /** Forgets the remembered plan (a new primary connection, a read that went elsewhere). */
  void clear() {
    home = null;
  }
}
