package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.Positions;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The resolved part of a {@link ReadWatermark}: a GTID set that contains everything the reads it
 * stands for saw. Immutable.
 *
 * <p>Each read's share comes from one server's position read after the read completed: its
 * {@code gtid_executed} ({@link #executed()}) and the GTIDs it was committing at that moment
 * ({@link #inFlight()}, from {@code gtid_owned}). A later read on another server must have all of
 * {@link #full()}. On the server the in-flight GTIDs came from, a later read needs only
 * {@link #executed()}: that server's state only grows, so it still shows whatever the earlier read
 * saw, committed or not when the position was read. {@link #inFlightSource()} names that server while
 * every in-flight GTID came from one server, and is null once they came from several.
 */
public final class ReadBound {
  /** No reads. */
  public static final ReadBound EMPTY = new ReadBound(Positions.EMPTY, Positions.EMPTY, null, Positions.EMPTY);

  private final Position executed;
  private final Position inFlight;
  private final @Nullable String inFlightSource;
  private final Position unverified;
  private final Position full;

  ReadBound(Position executed, Position inFlight, @Nullable String inFlightSource, Position unverified) {
    this.executed = executed;
    this.inFlight = inFlight;
    this.inFlightSource = inFlight.isEmpty() ? null : inFlightSource;
    this.unverified = unverified;
    this.full = executed.union(inFlight);
  }

  /** Executed positions (and sets from tokens) the reads are bounded by. */
  public Position executed() {
    return executed;
  }

  /** GTIDs that were being committed when a position was read, not in {@link #executed()}. */
  public Position inFlight() {
    return inFlight;
  }

  /** The server (its {@code server_uuid}) every in-flight GTID came from, or null (none, or several). */
  public @Nullable String inFlightSource() {
    return inFlightSource;
  }

  /** The part that came from tokens and is not yet known to have been executed by the primary. */
  public Position unverified() {
    return unverified;
  }

  /** What a later read must see on a server other than {@link #inFlightSource()}. */
  public Position full() {
    return full;
  }

  /** Whether there is nothing. */
  public boolean isEmpty() {
    return full.isEmpty();
  }

  /**
   * This bound plus one server's position. In-flight GTIDs are filled from {@code fill} (GTIDs the
   * primary is known to have executed, see {@link GtidSet#filledFrom}) so that the set stays a few
   * intervals long: the filled GTIDs were committed before them on the primary and replicas apply in
   * its commit order, so requiring them costs nothing more.
   */
  public ReadBound plus(Position serverExecuted, Position serverOwned, @Nullable String source, Position fill) {
    Position e = executed.union(serverExecuted);
    Position f = inFlight;
    String s = inFlightSource;
    if (!e.contains(serverOwned)) {
      Position owned = serverOwned.filledFrom(fill);
      s = f.isEmpty() ? source : Objects.equals(s, source) ? s : null;
      f = f.union(owned);
    }
    return with(e, f, s, unverified);
  }

  /** This bound plus another. */
  public ReadBound plus(ReadBound other) {
    Position e = executed.union(other.executed);
    Position f = inFlight.union(other.inFlight);
    String s;
    if (inFlight.isEmpty()) {
      s = other.inFlightSource;
    } else if (other.inFlight.isEmpty()) {
      s = inFlightSource;
    } else {
      s = Objects.equals(inFlightSource, other.inFlightSource) ? inFlightSource : null;
    }
    return with(e, f, s, unverified.union(other.unverified));
  }

  /** This bound plus a set from a token (unverified until the primary is known to have it). */
  ReadBound plusImported(Position imported) {
    return with(executed.union(imported), inFlight, inFlightSource, unverified.union(imported));
  }

  /** The same bound, its token part now known to be executed by the primary. */
  ReadBound verified(Position set) {
    return set.contains(unverified) ? with(executed, inFlight, inFlightSource, Positions.EMPTY) : this;
  }

  // Identity is "unchanged" (the sets are immutable): then this bound is returned, and a compareAndSet does nothing.
  @SuppressWarnings("ReferenceEquality")
  private ReadBound with(Position e, Position f, @Nullable String s, Position u) {
    if (e.contains(f)) {
      f = Positions.EMPTY;
      s = null;
    }
    if (e == executed && f == inFlight && Objects.equals(s, inFlightSource) && u == unverified) {
      return this;
    }
    return new ReadBound(e, f, s, u);
  }

  @Override
  public String toString() {
    return full.toString() + (inFlightSource == null ? "" : " (in flight on " + inFlightSource + ": " + inFlight + ")");
  }
}
