package dev.ryow.jdbc.route;

import dev.ryow.jdbc.cluster.ReadBound;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import org.jspecify.annotations.Nullable;

/**
 * What one replica read needs from the server that runs it: the GTID set it must have executed
 * (which may differ for the one server whose own in-flight transactions a {@link ReadBound} names),
 * and, for monotonic reads, which server may run it at all. One per logical connection, refilled for
 * each read (no allocation).
 */
public final class ReadRequirement {
  private Position forAll = Positions.EMPTY;
  private Position forSource = Positions.EMPTY;
  private @Nullable String source;
  private @Nullable ReplicaEndpoint home;
  private @Nullable ReplicaEndpoint left;
  private boolean primaryOnly;
  private boolean preferAhead;
  private long maxLagMillis = Long.MAX_VALUE;

  /** A requirement for plain read-your-writes: any replica with {@code watermark}. */
  public static ReadRequirement of(Position watermark) {
    return new ReadRequirement().plain(watermark);
  }

  /** Read-your-writes only: any replica that has executed {@code watermark}. */
  public ReadRequirement plain(Position watermark) {
    forAll = watermark;
    forSource = watermark;
    source = null;
    home = null;
    left = null;
    primaryOnly = false;
    preferAhead = false;
    maxLagMillis = Long.MAX_VALUE;
    return this;
  }

  /**
   * Only servers whose applier lag at the last poll ({@link ReplicaEndpoint#lagMillis()}) is at most
   * {@code maxLag} milliseconds may run the read (a scope that allows stale reads).
   */
  public ReadRequirement lagAtMost(long maxLag) {
    maxLagMillis = maxLag;
    return this;
  }

  void set(Position all, Position ofSource, @Nullable String sourceUuid, @Nullable ReplicaEndpoint homeServer,
      @Nullable ReplicaEndpoint leftServer, boolean onlyThePrimary) {
    forAll = all;
    forSource = ofSource;
    source = sourceUuid;
    home = homeServer;
    left = leftServer;
    primaryOnly = onlyThePrimary;
    preferAhead = true;
    maxLagMillis = Long.MAX_VALUE;
  }

  /** The set {@code server} must have executed before it runs the read. */
  public Position of(ReplicaEndpoint server) {
    String s = source;
    return s != null && s.equals(server.serverUuid()) ? forSource : forAll;
  }

  /** The set any server but the in-flight source must have: the most any server needs. */
  public Position forAll() {
    return forAll;
  }

  /**
   * Whether {@code server} may run the read: monotonic reads may be bound to one server, and stale reads
   * to servers within a lag bound.
   */
  public boolean allows(ReplicaEndpoint server) {
    ReplicaEndpoint h = home;
    return !primaryOnly && (h == null || h == server)
        && (maxLagMillis == Long.MAX_VALUE || server.lagMillis() <= maxLagMillis);
  }

  /** The largest applier lag a server may have to run the read, in milliseconds ({@link Long#MAX_VALUE}: any). */
  public long maxLagMillis() {
    return maxLagMillis;
  }

  /** The one replica that may run the read, or null (any). */
  public @Nullable ReplicaEndpoint home() {
    return home;
  }

  /**
   * The home the read leaves for the {@linkplain #home() home} whose turn it is, or null: when the new home
   * cannot serve the read (a wait there failed, or it was skipped), the read runs here instead of on the
   * primary, but only without a wait (the server is known to have {@link #of} it). A stand-by, never a
   * candidate of its own: {@link #allows} does not name it, so the turn still moves when the new home must wait.
   */
  public @Nullable ReplicaEndpoint left() {
    return left;
  }

  /** No replica may run it: a read in the scope went to the primary and no replica is known to be current. */
  public boolean primaryOnly() {
    return primaryOnly;
  }

  /** Whether replicas found {@linkplain ReplicaEndpoint#behind() behind} come last (monotonic reads). */
  public boolean preferAhead() {
    return preferAhead;
  }

  @Override
  public String toString() {
    return "ReadRequirement[" + forAll + (source == null ? "" : ", on " + source + ": " + forSource)
        + (home == null ? "" : ", only on " + home) + (left == null ? "" : ", else without a wait on " + left)
        + (primaryOnly ? ", primary only" : "")
        + (maxLagMillis == Long.MAX_VALUE ? "" : ", lag <= " + maxLagMillis + " ms") + "]";
  }
}
