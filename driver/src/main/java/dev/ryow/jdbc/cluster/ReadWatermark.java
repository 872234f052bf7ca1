package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.server.ServerPosition;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jspecify.annotations.Nullable;

/**
 * What the reads of one scope (a connection, a {@code ConsistencyScope}, a cluster's JVM) have seen,
 * as a sound upper bound, learned without a round trip of its own: a read that a server answered
 * saw no more than that server's {@code gtid_owned} ∪ {@code gtid_executed} read by any poll <em>sent
 * after the read completed</em> (the server only moves forward; see docs/architecture/monotonic-reads.md).
 *
 * <p>Until such a poll arrives the read is <em>pending</em> on its server: {@link #observed} records
 * per server the completion time of its latest read. {@link #resolve} turns pending reads into the
 * {@link ReadBound} as polls arrive; {@link #resolveBy} does the same with a position read on demand.
 * A later read in the scope may run on a server with pending reads only if it is that very server.
 *
 * <p>Lock-free, allocation-free on {@link #observed}; safe for many threads.
 */
public final class ReadWatermark {
  /** Servers a watermark tracks separately; reads of any further server share {@link #ANY_SERVER}. */
  public static final int SLOTS = 8;
  /** Pending reads of servers beyond the slots, or of unknown servers: only the primary's position bounds them. */
  public static final String ANY_SERVER = "*";

  private final AtomicReferenceArray<@Nullable String> servers = new AtomicReferenceArray<>(SLOTS);
  /** Per slot: {@link System#nanoTime()} (odd) when its latest unresolved read completed; 0: none. */
  private final AtomicLongArray pending = new AtomicLongArray(SLOTS);
  private final AtomicReference<ReadBound> bound = new AtomicReference<>(ReadBound.EMPTY);
  /** When {@link #bound} last grew ({@link System#nanoTime()}). */
  private volatile long grewAtNanos = System.nanoTime();
  /**
   * Bumped after the bound changes and after a server's slot starts or stops having a pending read (not
   * when a server with a pending read is read again): a plan made from this watermark holds while it is the same.
   */
  private final StateVersion version = new StateVersion();
  /** GTIDs of the bound the primary was found to lack, not yet taken as lost ({@link LostGtidRule}). */
  private final LostGtidSuspicion lostGtids = new LostGtidSuspicion();

  /** GTIDs of the bound the primary was found to lack, and since when ({@link LostGtidRule}). */
  public LostGtidSuspicion lostGtids() {
    return lostGtids;
  }

  /** The version of the bound and of the set of servers with pending reads ({@link StateVersion}). */
  public long version() {
    return version.current();
  }

  /** The resolved bound. */
  public ReadBound bound() {
    return Objects.requireNonNull(bound.get());  // never set to null
  }

  /** When the bound last grew ({@link System#nanoTime()}). */
  public long grewAtNanos() {
    return grewAtNanos;
  }

  /** Whether nothing was seen. */
  public boolean isEmpty() {
    if (!bound().isEmpty()) {
      return false;
    }
    for (int i = 0; i < SLOTS; i++) {
      if (pending.get(i) != 0) {
        return false;
      }
    }
    return true;
  }

  /** A read answered by the server {@code serverUuid} completed at {@code completedNanos}. */
  public void observed(String serverUuid, long completedNanos) {
    long t = completedNanos | 1;
    int i = slot(serverUuid);
    long prev;
    do {
      prev = pending.get(i);
      if (prev != 0 && prev - t >= 0) {
        return;
      }
    } while (!pending.compareAndSet(i, prev, t));
    if (prev == 0) {
      version.bump();
    }
  }

  private int slot(String uuid) {
    for (int i = 0; i < SLOTS - 1; i++) {
      String s = servers.get(i);
      if (s == null) {
        if (servers.compareAndSet(i, null, uuid)) {
          return i;
        }
        s = servers.get(i);
      }
      if (uuid.equals(s)) {
        return i;
      }
    }
    servers.compareAndSet(SLOTS - 1, null, ANY_SERVER);
    return SLOTS - 1;
  }

  /**
   * Copies every pending read (server and completion time) into {@code uuids} and {@code times} from
   * {@code at}; returns the new count. A server's slot holds only its latest read, which may have
   * completed after the caller's read began: it still stands for the earlier reads it replaced, so every
   * slot counts.
   */
  public int pending(String[] uuids, long[] times, int at) {
    int n = at;
    for (int i = 0; i < SLOTS; i++) {
      long t = pending.get(i);
      if (t == 0) {
        continue;
      }
      String s = servers.get(i);
      if (s != null) {
        uuids[n] = s;
        times[n] = t;
        n++;
      }
    }
    return n;
  }

  /**
   * Resolves the pending reads that polls now bound: a server's own poll sent after the read, or
   * (when the server is unknown, unreachable or was reset since the read) the primary's. Returns
   * whether any read is still pending.
   */
  @SuppressWarnings("ReferenceEquality") // identity: whether the bounding poll is the primary's last one
  public boolean resolve(Cluster cluster) {
    boolean left = false;
    for (int i = 0; i < SLOTS; i++) {
      long t = pending.get(i);
      if (t == 0) {
        continue;
      }
      String uuid = servers.get(i);
      if (uuid == null) {
        continue;
      }
      PollSnapshot by = cluster.rounds().pollBounding(uuid, t);
      if (by == null) {
        left = true;
        continue;
      }
      boolean byPrimary = cluster.tracker().primaryPoll() == by;
      ServerPosition seen = cluster.foreign().ofCluster(by.position(), by.startedNanos(), byPrimary);
      if (seen == null) {
        left = true; // a UUID no poll of the primary has named or ruled out yet: the read stays pending
        continue;
      }
      String source = by.serverUuid().equals(uuid) ? uuid : null;
      advance(seen, source, cluster.knownOnPrimary());
      if (pending.compareAndSet(i, t, 0)) {
        version.bump();
      }
    }
    return left;
  }

  /**
   * Resolves the read pending on {@code pendingUuid} that completed at {@code completedNanos} (as
   * {@link #pending} reported it) with a position read on demand, sent at {@code readStartedNanos}
   * (after that read completed): {@code position} of {@code positionUuid}, the same server or the
   * primary, whose position bounds every replica's. A read of that server that completed since stays
   * pending; the bound grows in any case. {@code position} is the cluster's part of what was read
   * ({@link ForeignGtids#ofCluster}).
   */
  public void resolveBy(String pendingUuid, long completedNanos, String positionUuid, ServerPosition position,
      long readStartedNanos, Position fill) {
    if (readStartedNanos - completedNanos <= 0) {
      throw new IllegalArgumentException("the position was read before the read completed");
    }
    advance(position, pendingUuid.equals(positionUuid) ? positionUuid : null, fill);
    for (int i = 0; i < SLOTS; i++) {
      if (pendingUuid.equals(servers.get(i))) {
        if (pending.compareAndSet(i, completedNanos, 0)) {
          version.bump();
        }
        return;
      }
    }
  }

  private void advance(ServerPosition position, @Nullable String source, Position fill) {
    ReadBound prev;
    ReadBound next;
    do {
      prev = bound();
      next = prev.plus(position.executed(), position.owned(), source, fill);
      if (next == prev) {
        return;
      }
    } while (!bound.compareAndSet(prev, next));
    grewAtNanos = System.nanoTime();
    version.bump();
  }

  /** Adds what another watermark holds (a nested scope handing back its reads). */
  public void advance(ReadWatermark other) {
    ReadBound add = other.bound();
    ReadBound prev;
    ReadBound next;
    do {
      prev = bound();
      next = prev.plus(add);
      if (next == prev) {
        break;
      }
    } while (!bound.compareAndSet(prev, next));
    if (next != prev) {
      grewAtNanos = System.nanoTime();
      version.bump();
    }
    for (int i = 0; i < SLOTS; i++) {
      long t = other.pending.get(i);
      String s = other.servers.get(i);
      if (t != 0 && s != null) {
        observed(s, t);
      }
    }
  }

  /**
   * Takes in the read part of a consistency token received now: {@code reads} joins the bound (to be
   * verified against the primary before it is waited on), and each server in {@code pendingServers}
   * had a read the sender could not bound yet: it is pending here from now on (any poll sent after
   * the token arrived was sent after that read).
   */
  public void imported(Position reads, List<String> pendingServers, long receivedNanos) {
    if (!reads.isEmpty()) {
      ReadBound prev;
      ReadBound next;
      do {
        prev = bound();
        next = prev.plusImported(reads);
      } while (next != prev && !bound.compareAndSet(prev, next));
      grewAtNanos = System.nanoTime();
      version.bump();
    }
    for (String s : pendingServers) {
      observed(s, receivedNanos);
    }
  }

  /** The bound's token part is known to be executed by the primary ({@code set} contains it). */
  public void verified(Position set) {
    ReadBound prev;
    ReadBound next;
    do {
      prev = bound();
      next = prev.verified(set);
    } while (next != prev && !bound.compareAndSet(prev, next));
    if (next != prev) {
      version.bump();
    }
  }

  /**
   * Replaces the bound {@code expected} by {@code kept} (GTIDs the primary has never executed are
   * forgotten, as for the write watermark). Returns false when the bound changed meanwhile.
   */
  public boolean forget(ReadBound expected, Position kept) {
    boolean forgot = bound.compareAndSet(expected, new ReadBound(kept, Positions.EMPTY, null, Positions.EMPTY));
    if (forgot) {
      version.bump();
    }
    return forgot;
  }

  /** Adds the servers with pending reads to {@code out} (for a token). */
  public void pendingServers(List<String> out) {
    for (int i = 0; i < SLOTS; i++) {
      String s = servers.get(i);
      if (s != null && pending.get(i) != 0 && !out.contains(s)) {
        out.add(s);
      }
    }
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("ReadWatermark[").append(bound());
    for (int i = 0; i < SLOTS; i++) {
      String s = servers.get(i);
      if (s != null && pending.get(i) != 0) {
        b.append(", pending on ").append(s);
      }
    }
    return b.append(']').toString();
  }
}
