package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.cluster.wait.SharedWait;
import dev.ryow.jdbc.cluster.wait.Smoothed;
import dev.ryow.jdbc.config.HostSpec;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import dev.ryow.jdbc.server.ServerStatus;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * One server of a cluster (any host of the URL; whichever is not the current primary may serve
 * reads) and what the cluster knows of it: the GTIDs it has certainly executed, its health, its
 * applier lag and how many reads wait on it now. Shared by all threads; every field is safe to read
 * without a lock.
 *
 * <p>Its health, problem, lag, probe time and backoff are one {@link HealthState}, replaced as a whole
 * by one compare-and-set: the poller and every application thread that sees a failure may report at
 * once, and each change has one winner, the caller whose transition method returned the state it
 * replaced. That caller counts and logs the change ({@link Cluster}); the others changed nothing.
 */
public final class ReplicaEndpoint {
  public static final long FIRST_BACKOFF_NANOS = HealthState.FIRST_BACKOFF_NANOS;
  public static final long MAX_BACKOFF_NANOS = HealthState.MAX_BACKOFF_NANOS;

  private volatile HostSpec host;
  private final int index;
  private final AtomicReference<Position> knownExecuted = new AtomicReference<>(Positions.EMPTY);
  private final Semaphore waitPermits;
  /** The latest wait sent here that other reads may ride on ({@link SharedWait}), or null. */
  private final AtomicReference<@Nullable SharedWait> sharedWait = new AtomicReference<>();
  private volatile @Nullable String serverUuid;
  private final AtomicReference<HealthState> state = new AtomicReference<>(HealthState.INITIAL);
  /** Its progress as polls and waits saw it: whether it is predicted stalled ({@link StallRule}). */
  private final AtomicReference<Progress> progress = new AtomicReference<>(Progress.INITIAL);
  private volatile @Nullable PollSnapshot lastPoll;
  /** Reads this JVM ran on it as a replica (what {@link HomeTurns} balances). */
  /** Its successful waits ({@link Smoothed}): how long a wait on it normally takes. */
  private final java.util.concurrent.atomic.AtomicLong waits = new java.util.concurrent.atomic.AtomicLong(Smoothed.NONE);
  private final java.util.concurrent.atomic.LongAdder servedReads = new java.util.concurrent.atomic.LongAdder();
  /** Its last poll found it behind the primary's position of the round before (see {@link #behind()}). */
  private volatile boolean behind;
  /** The primary's position it was judged {@linkplain #behind() behind} against at the last poll. */
  private volatile Position behindOf = Positions.EMPTY;
  private final int maxWaiters;
  /** It took a vacant place because the primary's SHOW REPLICAS listed it ({@code ryow.discoverReplicas}). */
  private volatile boolean discovered;
  /** A discovered replica the primary's last SHOW REPLICAS did not list: out of rotation until listed again. */
  private volatile boolean unlisted;
  /** Bumped after every change of what a read plan reads here (not the waiter count). */
  private final StateVersion version;

  public ReplicaEndpoint(HostSpec host, int index, int maxWaiters) {
    this(host, index, maxWaiters, new StateVersion());
  }

  public ReplicaEndpoint(HostSpec host, int index, int maxWaiters, StateVersion version) {
    this.host = host;
    this.index = index;
    this.maxWaiters = maxWaiters;
    this.waitPermits = new Semaphore(maxWaiters);
    this.version = version;
  }

  /** A place for a group member not named in the URL ({@link Health#VACANT}); {@code placeholder} is never contacted. */
  static ReplicaEndpoint vacant(HostSpec placeholder, int index, int maxWaiters, StateVersion version) {
    ReplicaEndpoint e = new ReplicaEndpoint(placeholder, index, maxWaiters, version);
    e.state.set(HealthState.VACANT);
    return e;
  }

  /** The server's address as written in the URL (or as its group reported it, for a discovered member). */
  public HostSpec host() {
    return host;
  }

  /** Whether this is a place no server has taken yet ({@link Health#VACANT}). */
  public boolean vacant() {
    return health() == Health.VACANT;
  }

  /**
   * A discovered group member takes this vacant place: out of rotation until its first poll. Its address
   * is written before the state leaves {@link Health#VACANT}, so whoever sees the place taken sees the
   * member's address. Cluster only (the poller). Returns whether the place was vacant.
   */
  boolean occupy(HostSpec member) {
    if (!vacant()) {
      return false;
    }
    host = member;
    return change(HealthState::occupied) != null;
  }

  /** A replica found in the primary's {@code SHOW REPLICAS} took this place (poller only). */
  void discoveredReplica() {
    discovered = true;
    unlisted = false;
  }

  /** Whether a replica found in the primary's {@code SHOW REPLICAS} holds this place. */
  public boolean discovered() {
    return discovered;
  }

  /** A discovered replica is listed by the primary's last {@code SHOW REPLICAS}, or not (poller only). */
  void listed(boolean listed) {
    unlisted = !listed;
  }

  /** Whether this is a discovered replica the primary no longer lists. */
  boolean unlisted() {
    return discovered && unlisted;
  }

  /** Its position in the cluster's server list (0 = the URL's first host; then the URL's order, then discovered members). */
  public int index() {
    return index;
  }

  /** A set the server has certainly executed (it only lags behind the truth). */
  public Position knownExecuted() {
    return Objects.requireNonNull(knownExecuted.get());  // never set to null
  }

  /**
   * Whether it is predicted stalled ({@link StallRule}): found not advancing while the primary advanced,
   * and without what it lacked since. A read it lacks the watermark of skips it instead of waiting there.
   */
  // Progress records are immutable: identity is "unchanged since read".
  @SuppressWarnings("ReferenceEquality")
  public boolean stalled() {
    Progress p = Objects.requireNonNull(progress.get());
    if (p.stalledAt() == null) {
      return false;
    }
    if (StallRule.stalled(p.stalledAt(), p.lacked(), p.stalledSinceNanos(), knownExecuted(), System.nanoTime())) {
      return true;
    }
    changeProgress(q -> q == p ? p.released() : q); // later calls take the first branch
    return false;
  }

  /** When its current stall began ({@link System#nanoTime()}), 0 when it is not stalled. */
  public long stalledSinceNanos() {
    Progress p = Objects.requireNonNull(progress.get());
    return stalled() ? p.stalledSinceNanos() : 0;
  }

  /**
   * A wait on it for {@code lacked} did not reach it ({@code timedOut}: it returned 1): found stalled at its
   * known position, until it has {@code lacked} ({@link StallRule}). Returns whether it is stalled now.
   */
  public boolean waitMissed(boolean timedOut, Position lacked) {
    if (!StallRule.stalledByWait(timedOut)) {
      return false;
    }
    Position known = knownExecuted();
    long now = System.nanoTime();
    changeProgress(p -> p.stalled(known, lacked, now));
    return stalled();
  }

  // Known positions and progress records are immutable: identity is "unchanged", and compareAndSet compares identities.
  @SuppressWarnings("ReferenceEquality")
  private void changeProgress(UnaryOperator<Progress> transition) {
    while (true) {
      Progress current = Objects.requireNonNull(progress.get());
      Progress next = transition.apply(current);
      if (next == current) {
        return;
      }
      if (progress.compareAndSet(current, next)) {
        version.bump();
        return;
      }
    }
  }

  /** The {@code server_uuid} the known position belongs to, null before the first poll. */
  public @Nullable String serverUuid() {
    return serverUuid;
  }

  /**
   * A connection to this server reported {@code uuid} before any poll did: the server is known by it
   * from now on (reads recorded by uuid find their server before the first poll). Ignored once known.
   */
  public void identified(@Nullable String uuid) {
    if (serverUuid == null && uuid != null) {
      serverUuid = uuid;
      version.bump();
    }
  }

  /** The last successful poll of this server, or null before the first. */
  public @Nullable PollSnapshot lastPoll() {
    return lastPoll;
  }

  /**
   * Whether the last poll found this server without everything the primary had executed one poll
   * round earlier (it lags by more than {@code ryow.pollInterval}).
   */
  public boolean behind() {
    return behind;
  }

  /**
   * Whether the last poll found it {@linkplain #behind() behind}, and the primary's position of the round
   * before ({@code primaryBefore}): what it lacks when that poll also finds it quiet ({@link StallRule}).
   */
  public void behind(boolean value, Position primaryBefore) {
    behindOf = primaryBefore;
    if (behind != value) {
      behind = value;
      version.bump();
    }
  }

  /**
   * Its health, problem, lag and probe backoff as one state: what a reader that needs more than one of
   * them reads (one volatile read; they always belong together).
   */
  public HealthState healthState() {
    return Objects.requireNonNull(state.get());  // never set to null
  }

  /** Current health. */
  public Health health() {
    return healthState().health();
  }

  /** Applier lag at the last poll, in milliseconds. */
  public long lagMillis() {
    return healthState().lagMillis();
  }

  /** Why it is out of rotation, empty when it is not. */
  public String problem() {
    return healthState().problem();
  }

  /** A read of this JVM ran on it as a replica. */
  public void served() {
    servedReads.increment();
  }

  /** How many reads of this JVM ran on it as a replica. */
  public long servedReads() {
    return servedReads.sum();
  }

  /** Reads waiting on it now. */
  public int waiters() {
    return maxWaiters - waitPermits.availablePermits();
  }

  /** Whether a read could take a waiter slot here now ({@link #tryEnterWait()} may still lose a race). */
  public boolean hasWaitRoom() {
    return waitPermits.availablePermits() > 0;
  }

  /**
   * Takes a waiter slot if fewer than {@code ryow.maxWaitersPerReplica} reads wait here now; never
   * blocks. A true answer must be paired with {@link #exitWait()}.
   */
  public boolean tryEnterWait() {
    return waitPermits.tryAcquire();
  }

  /** Gives back a waiter slot. */
  public void exitWait() {
    waitPermits.release();
  }

  /**
   * The wait sent here that a read needing {@code needed} may ride on instead of sending its own
   * ({@link SharedWait#covers}), or null.
   */
  public @Nullable SharedWait sharedWaitCovering(Position needed, long nowNanos) {
    SharedWait w = sharedWait.get();
    return w != null && w.covers(needed, nowNanos) ? w : null;
  }

  /** A read sends {@code wait} here: later reads that need no more ride on it. */
  public void sharedWaitStarted(SharedWait wait) {
    sharedWait.set(wait);
  }

  /**
   * {@code wait} ended ({@code reached}: what it waited for was {@linkplain #learn learned} first): its riders go
   * on, and no read joins it any more.
   */
  public void sharedWaitEnded(SharedWait wait, boolean reached) {
    sharedWait.compareAndSet(wait, null);
    wait.end(reached);
  }

  /** A wait on it reached its set in {@code nanos} (the wait, with the query it was sent with). */
  public void waited(long nanos) {
    Smoothed.add(waits, nanos);
  }

  /**
   * A wait on it was cut by its {@link dev.ryow.jdbc.cluster.wait.WaitBound}: its next bound is twice as long,
   * until a wait on it succeeds.
   */
  public void waitCut() {
    Smoothed.backOff(waits);
  }

  /** Its successful waits, smoothed ({@link Smoothed}; {@link Smoothed#NONE} before the first). */
  public long smoothedWait() {
    return waits.get();
  }

  /**
   * Records that the server whose uuid is {@code uuid} executed {@code executed} (a successful wait
   * on a connection to it). Ignored when the uuid is not the one the known position belongs to.
   */
  // Union returns the same set when it adds nothing: identity is "unchanged", and compareAndSet compares identities.
  @SuppressWarnings("ReferenceEquality")
  public void learn(Position executed, @Nullable String uuid) {
    String current = serverUuid;
    if (current != null && uuid != null && !current.equals(uuid)) {
      return;
    }
    Position prev;
    Position next;
    do {
      prev = knownExecuted();
      next = prev.union(executed);
      if (next == prev) {
        return;
      }
    } while (!knownExecuted.compareAndSet(prev, next));
    version.bump();
  }

  /**
   * Takes in a poll. The known position only grows, except when the server is not the one it was
   * ({@code server_uuid} changed: rebuilt or replaced) or its {@code gtid_executed} no longer contains
   * what was known before the poll was sent (reset): then the polled set replaces it. What waits
   * learned while the poll was under way may be newer than the poll; it does not count as a reset.
   *
   * @param knownBefore {@link #knownExecuted()} read just before the poll's query was sent
   * @param startedNanos {@link ReadClock#start()} just before the poll's query was sent
   * @return true when the known position was reset
   */
  // Known positions and progress records are immutable: identity is "unchanged", and compareAndSet compares identities.
  @SuppressWarnings("ReferenceEquality")
  public boolean observe(ServerStatus status, Position knownBefore, long startedNanos) {
    String previousUuid = serverUuid;
    boolean reset = (previousUuid != null && !previousUuid.equals(status.serverUuid()))
        || !status.gtidExecuted().contains(knownBefore);
    serverUuid = status.serverUuid();
    if (reset) {
      knownExecuted.set(status.gtidExecuted());
    } else {
      learn(status.gtidExecuted(), status.serverUuid());
    }
    PollSnapshot previous = lastPoll;
    boolean everReset = reset || (previous != null && previous.everReset());
    long resetAt = reset ? startedNanos : previous != null ? previous.resetStartedNanos() : 0;
    lastPoll = new PollSnapshot(startedNanos, status.serverUuid(), status.position(), resetAt, everReset);
    Position known = knownExecuted();
    boolean inRotation = health().inRotation();
    boolean wasBehind = behind;
    Position lacked = behindOf;
    if (reset) {
      changeProgress(Progress::released);
    }
    changeProgress(p -> p.polled(known, StallRule.stalledByPoll(known != p.polledKnown(), wasBehind, inRotation),
        lacked, startedNanos));
    version.bump();
    return reset;
  }

  /** Takes in a poll of this server while it is the primary (its position only; see {@link Cluster}). */
  public PollSnapshot observePrimary(ServerStatus status, long startedNanos) {
    serverUuid = status.serverUuid();
    PollSnapshot previous = lastPoll;
    PollSnapshot poll = new PollSnapshot(startedNanos, status.serverUuid(), status.position(),
        previous != null ? previous.resetStartedNanos() : 0, previous != null && previous.everReset());
    lastPoll = poll;
    version.bump();
    return poll;
  }

  /**
   * A poll's verdict (see {@link HealthState#polled}); reaching {@link Health#UP} resets the probe backoff.
   *
   * @return the state this call replaced, null when it changed nothing (the same verdict again, or the
   *     server is the primary or a vacant place)
   */
  public @Nullable HealthState health(Health next, long lag, String why) {
    return change(s -> s.polled(next, lag, why));
  }

  /**
   * Takes the server out of rotation because connecting to it or using a connection failed; the next
   * probe is due after a backoff that doubles up to 5 s. Of many threads reporting failures at once,
   * one changes the state; a failure reported while it is unreachable and its probe is not due changes
   * nothing (see {@link HealthState#unreachable}).
   *
   * @return the state this call replaced, null when it changed nothing
   */
  public @Nullable HealthState unreachable(String why, long nowNanos) {
    return change(s -> s.unreachable(why, nowNanos));
  }

  /** It became the cluster's primary; returns the state replaced, null when it changed nothing. Cluster only. */
  @Nullable HealthState promote() {
    return change(HealthState::primary);
  }

  /** It stopped being the primary ({@code why}); returns the state replaced, null when it was not the primary. */
  @Nullable HealthState demote(String why) {
    return change(s -> s.formerPrimary(why));
  }

  /**
   * The poller starts again after the cluster was idle: what it knew of this server's health may be
   * long out of date. Back to the optimistic state of a new cluster (in rotation), or, for an
   * unreachable server, probed at the first poll.
   */
  public void forgetHealth(long nowNanos) {
    change(s -> s.forgotten(nowNanos));
  }

  /**
   * How long replication has been seen stopped without an error, as of {@code nowNanos}; starts the
   * clock on the first call after it ran. Called by the poller only.
   */
  long stoppedForNanos(long nowNanos) {
    change(s -> s.stoppedAt(nowNanos));
    return nowNanos - healthState().stoppedSinceNanos();
  }

  /** Replication runs (or failed with an error): the stop clock starts again at the next stop. Poller only. */
  void replicationRunning() {
    change(HealthState::running);
  }

  /** Whether the poll should try an unreachable server again now. */
  public boolean probeDue(long nowNanos) {
    return healthState().probeDue(nowNanos);
  }

  /**
   * Installs what {@code transition} makes of the current state, by one compare-and-set (computed again
   * from the new current state when another thread changed it first).
   *
   * @return the state replaced, or null when the transition returned the current state (nothing to do)
   */
  // A transition returns the same state when it changes nothing; compareAndSet compares identities.
  @SuppressWarnings("ReferenceEquality")
  private @Nullable HealthState change(UnaryOperator<HealthState> transition) {
    while (true) {
      HealthState current = healthState();
      HealthState next = transition.apply(current);
      if (next == current) {
        return null;
      }
      if (state.compareAndSet(current, next)) {
        version.bump();
        return current;
      }
    }
  }

  /** One line for logs and {@code MetricsSnapshot.replicaStates}. */
  String describe() {
    HealthState s = healthState();
    return host + "=" + s.health() + " lag=" + s.lagMillis() + "ms waiters=" + waiters()
        + (s.problem().isEmpty() ? "" : " (" + s.problem() + ")");
  }

  @Override
  public String toString() {
    return host.toString();
  }
}
