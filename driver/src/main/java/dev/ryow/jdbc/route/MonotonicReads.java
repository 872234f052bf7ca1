package dev.ryow.jdbc.route;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.Health;
import dev.ryow.jdbc.cluster.HomeTurns;
import dev.ryow.jdbc.cluster.PollSnapshot;
import dev.ryow.jdbc.cluster.ReadBound;
import dev.ryow.jdbc.cluster.ReadWatermark;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.server.ServerPosition;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * "Where may this read run so that it shows no less than any earlier read of its scope?" Turns the
 * scope's {@link ReadWatermark}s and the writes the read must see into a {@link ReadRequirement}.
 *
 * <p>Reads the polls have bounded are in the watermarks' {@link ReadBound}: a server may run the read
 * once it has executed the bound (known, or after a wait). Reads no poll has bounded yet are pending on
 * their server: only that server may run the read (its state only grows), so it becomes the read's
 * <em>home</em>; the scope's reads thus stay on one replica while it serves them without trouble. The
 * read leaves its home, after reading the home's position on demand (one round trip on that server,
 * {@link #probes}), when the home is out of rotation, when it is {@linkplain ReplicaEndpoint#behind()
 * behind} while another replica is not, or when it would have to wait for the read's writes while
 * another replica already has them or while its waiter cap ({@code ryow.maxWaitersPerReplica}) is reached
 * and another replica in rotation has room (a read beyond the cap tries another replica). Reads pending on
 * several servers (reads of other threads that ran at the same time) keep the best of them as home and
 * have the others' positions read. A home that would wait while it is
 * {@linkplain ReplicaEndpoint#stalled() stalled} is left too when another replica in rotation is not.
 * Reads pending on the primary (a read that fell back there) leave it, after reading the primary's
 * position, as soon as some replica in rotation is not stalled; while none is, the read stays on the
 * primary ({@link ReadRequirement#primaryOnly()}) and no position is read, unless the primary is lost (then its
 * position is asked for, and what the replicas received from it stands in: {@code ReadConsistency}). A position
 * that could not be read leaves the read to the primary, whose state contains every replica's.
 *
 * <p>One per logical connection; not thread-safe; no allocation on the way through (scratch arrays).
 */
public final class MonotonicReads {
  private final Cluster cluster;
  private final String[] uuids;
  private final long[] times;
  /** Which of the plan's watermarks each pending read is in. */
  private final int[] stateOf;
  private final @Nullable ReplicaEndpoint[] pendingOn;
  private final @Nullable ReplicaEndpoint[] probeTarget;
  private final ReplicaEndpoint[] probes;
  private final boolean[] probed;
  /** Per server index: its position was read for this plan. */
  private final boolean[] answered;
  private int probeCount;

  /** Scratch space for the servers of {@code cluster}. */
  public MonotonicReads(Cluster cluster) {
    this.cluster = cluster;
    int n = ReadWatermark.SLOTS * 3;
    this.uuids = new String[n];
    this.times = new long[n];
    this.stateOf = new int[n];
    this.pendingOn = new ReplicaEndpoint[n];
    this.probeTarget = new ReplicaEndpoint[n];
    this.probes = new ReplicaEndpoint[cluster.servers().size()];
    this.probed = new boolean[cluster.servers().size()];
    this.answered = new boolean[cluster.servers().size()];
  }

  /**
   * Plans a read that must see {@code writes} and everything the reads of {@code states} saw. Fills
   * {@code out} and returns how many servers must have their position read first ({@link #probe(int)});
   * after reading them ({@link #probed}) call {@link #finish}.
   */
  public int plan(Position writes, ReadWatermark[] states, int stateCount, ReadRequirement out) {
    probeCount = 0;
    java.util.Arrays.fill(probed, false);
    java.util.Arrays.fill(answered, false);
    int pending = snapshot(states, stateCount);
    ReadBound bound = bound(states, stateCount);
    Position all = writes.union(bound.full());
    Position ofSource = writes.union(bound.executed());
    String source = bound.inFlightSource();
    if (!all.contains(writes)) {
      // Positions in two primaries' binary logs (no GTIDs: the read's writes on a new primary, earlier reads
      // on the old one): no one position says both, and the union kept the reads' one. Only the primary has
      // both; the reads' old position is forgotten once the primary is asked (LostGtidRule).
      out.set(writes, writes, null, null, null, true);
      return 0;
    }
    if (pending == 0) {
      out.set(all, ofSource, source, null, null, false);
      return 0;
    }
    ReplicaEndpoint primary = cluster.primaryEndpoint();
    ReplicaEndpoint home = null;
    boolean onPrimary = false;
    for (int i = 0; i < pending; i++) {
      ReplicaEndpoint e = pendingOn[i];
      if (e == null || e == primary) {
        onPrimary = true;
        continue;
      }
      if (keepable(e, all, ofSource, source) && better(e, home, all, ofSource, source)) {
        home = e;
      }
    }
    if (home != null && leaveWorthy(home, all, ofSource, source)) {
      home = null;
    }
    ReplicaEndpoint left = null;
    if (home != null && cluster.rounds().pollRounds() > 0) {
      ReplicaEndpoint turn = turn();
      if (turn != null && turn != home) {
        // The JVM's turn moved on: the old home's position is read, the read bound to the new one; if that
        // one cannot serve it, the old home still may, without a wait (ReadRequirement.left).
        left = home;
        home = turn;
      }
    }
    if (home == null && onPrimary && onlyPrimary(pending) && !anyCanServe() && !cluster.primary().lost()) {
      out.set(all, ofSource, source, null, null, true);
      return 0;
    }
    for (int i = 0; i < pending; i++) {
      ReplicaEndpoint e = pendingOn[i];
      if (home != null && e == home) {
        probeTarget[i] = null;
        continue;
      }
      ReplicaEndpoint target = e == null ? primary : e;
      probeTarget[i] = target;
      if (!probed[target.index()]) {
        probed[target.index()] = true;
        probes[probeCount++] = target;
      }
    }
    out.set(all, ofSource, source, home, left, false);
    return probeCount;
  }

  /** The {@code i}-th server whose position must be read before the read ({@code i < plan(...)}). */
  public ReplicaEndpoint probe(int i) {
    return probes[i];
  }

  /**
   * Takes in the position of {@code server} (a {@linkplain #probe(int) probe} of the last plan), read
   * on demand starting at {@code readStartedNanos}: it bounds the planned reads pending on that server,
   * or, for the primary, those the plan had the primary bound. Only the cluster's part of the position
   * counts ({@link dev.ryow.jdbc.cluster.ForeignGtids#ofCluster}): while that is undecided (a UUID no later
   * poll of the primary has named or ruled out), the position counts as not read and only the primary may
   * run the read.
   */
  public void probed(ReplicaEndpoint server, String serverUuid, ServerPosition position, long readStartedNanos,
      ReadWatermark[] states, int stateCount) {
    ServerPosition seen = cluster.foreign().ofCluster(position, readStartedNanos, server == cluster.primaryEndpoint());
    if (seen == null) {
      return;
    }
    Position fill = cluster.knownOnPrimary();
    answered[server.index()] = true;
    for (int i = 0; i < lastPending; i++) {
      if (probeTarget[i] == server && stateOf[i] < stateCount) {
        states[stateOf[i]].resolveBy(uuids[i], times[i], serverUuid, seen, readStartedNanos, fill);
      }
    }
  }

  /**
   * After the probes: recomputes {@code out} from the watermarks. When a planned position could not be
   * read, the reads it was to bound are still unbounded and only the primary may run the read. Reads that
   * became pending since the plan completed after this read began: they need not be seen.
   */
  public void finish(Position writes, ReadWatermark[] states, int stateCount, ReadRequirement out) {
    boolean stuck = false;
    for (int i = 0; i < probeCount; i++) {
      if (!answered[probes[i].index()]) {
        stuck = true;
        break;
      }
    }
    ReadBound bound = bound(states, stateCount);
    Position all = writes.union(bound.full());
    if (!all.contains(writes)) {
      out.set(writes, writes, null, null, null, true); // as in plan: positions in two primaries' logs
      return;
    }
    out.set(all, writes.union(bound.executed()), bound.inFlightSource(), out.home(), out.left(), stuck);
  }

  private int lastPending;

  private int snapshot(ReadWatermark[] states, int stateCount) {
    int n = 0;
    for (int s = 0; s < stateCount; s++) {
      states[s].resolve(cluster);
      int from = n;
      n = states[s].pending(uuids, times, n);
      for (int i = from; i < n; i++) {
        stateOf[i] = s;
      }
    }
    ReplicaEndpoint primary = cluster.primaryEndpoint();
    for (int i = 0; i < n; i++) {
      String u = uuids[i];
      ReplicaEndpoint e = ReadWatermark.ANY_SERVER.equals(u) ? null : cluster.members().serverByUuid(u);
      if (e != null && e != primary) {
        PollSnapshot p = e.lastPoll();
        boolean resetSince = p != null && p.everReset() && p.resetStartedNanos() - times[i] > 0;
        if (resetSince || e.health() == Health.UNREACHABLE) {
          e = null;
        }
      }
      pendingOn[i] = e;
    }
    lastPending = n;
    return n;
  }

  private static ReadBound bound(ReadWatermark[] states, int stateCount) {
    ReadBound b = states[0].bound();
    for (int s = 1; s < stateCount; s++) {
      ReadBound other = states[s].bound();
      if (other != b && !other.isEmpty()) {
        b = b.isEmpty() ? other : b.plus(other);
      }
    }
    return b;
  }

  private boolean onlyPrimary(int pending) {
    ReplicaEndpoint primary = cluster.primaryEndpoint();
    for (int i = 0; i < pending; i++) {
      if (pendingOn[i] != null && pendingOn[i] != primary) {
        return false;
      }
    }
    return true;
  }

  private static Position required(ReplicaEndpoint e, Position all, Position ofSource, @Nullable String source) {
    return source != null && source.equals(e.serverUuid()) ? ofSource : all;
  }

  private static boolean has(ReplicaEndpoint e, Position all, Position ofSource, @Nullable String source) {
    return e.knownExecuted().contains(required(e, all, ofSource, source));
  }

  /** May stay home: reachable, and in rotation (may wait there) or already known to have what is needed. */
  private static boolean keepable(ReplicaEndpoint e, Position all, Position ofSource, @Nullable String source) {
    Health h = e.health();
    return h.reachable() && (h.inRotation() || has(e, all, ofSource, source));
  }

  /** Prefers a home that needs no wait, then one not behind, then the server listed first. */
  private static boolean better(ReplicaEndpoint e, @Nullable ReplicaEndpoint than, Position all, Position ofSource,
      @Nullable String source) {
    if (than == null) {
      return true;
    }
    boolean eHas = has(e, all, ofSource, source);
    boolean tHas = has(than, all, ofSource, source);
    if (eHas != tHas) {
      return eHas;
    }
    if (e.behind() != than.behind()) {
      return !e.behind();
    }
    // A tie goes to the server listed first, so that every connection of the scope picks the same home:
    // were each to keep the server of its own last read, the scope's reads would stay split across
    // replicas, and every read would have the other replica's position read first.
    return e.index() < than.index();
  }

  private boolean leaveWorthy(ReplicaEndpoint home, Position all, Position ofSource, @Nullable String source) {
    if (!home.health().inRotation() && !has(home, all, ofSource, source)) {
      return true;
    }
    if (home.behind() && anyCurrent(home)) {
      return true;
    }
    if (!has(home, all, ofSource, source)) {
      boolean homeFull = !home.hasWaitRoom();
      boolean homeStalled = home.stalled();
      for (ReplicaEndpoint e : cluster.servers()) {
        if (e != home && e.health().inRotation()
            && (e.knownExecuted().contains(all)
                || ((homeFull || homeStalled) && e.hasWaitRoom() && e != cluster.primaryEndpoint() && !e.stalled()))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The replica whose turn it is to be the home of the JVM's monotonic reads, or null when none may be:
   * the poller moves the turn once a round ({@link dev.ryow.jdbc.cluster.PollRounds#homeTurn()}), to the replica that served the
   * fewest reads ({@link dev.ryow.jdbc.cluster.TurnRule}), so every replica takes its share. Every connection of the JVM sees
   * the same turn, so its reads stay on one replica within a round (no position reads between
   * connections); moving costs reading the old home's position once a round. When the replica whose turn
   * it is cannot serve now (out of rotation, {@linkplain ReplicaEndpoint#behind() behind},
   * {@linkplain ReplicaEndpoint#stalled() stalled}, at its waiter cap), the next one in index order that
   * can takes it. Before the first round (no poll yet) nobody's turn comes: a home stays.
   */
  private @Nullable ReplicaEndpoint turn() {
    List<ReplicaEndpoint> servers = cluster.servers();
    ReplicaEndpoint primary = cluster.primaryEndpoint();
    int n = servers.size();
    int from = Math.max(cluster.rounds().homeTurn(), 0);
    for (int k = 0; k < n; k++) {
      ReplicaEndpoint e = servers.get((from + k) % n);
      if (HomeTurns.mayTakeTurn(e, primary) && e.hasWaitRoom()) {
        return e;
      }
    }
    return null;
  }

  /**
   * Some replica may serve a read now: in rotation and not {@linkplain ReplicaEndpoint#stalled() stalled}
   * (it advances, so a wait there is worth trying). Reads pending on the primary leave it then, after
   * reading its position; while every replica is stalled or out of rotation they stay there without it.
   */
  private boolean anyCanServe() {
    ReplicaEndpoint primary = cluster.primaryEndpoint();
    for (ReplicaEndpoint e : cluster.servers()) {
      if (e != primary && e.health().inRotation() && !e.stalled()) {
        return true;
      }
    }
    return false;
  }

  /** Some replica other than {@code except} is in rotation and not behind. */
  private boolean anyCurrent(@Nullable ReplicaEndpoint except) {
    for (ReplicaEndpoint e : cluster.servers()) {
      if (e != except && e.health().inRotation() && !e.behind()) {
        return true;
      }
    }
    return false;
  }
}
