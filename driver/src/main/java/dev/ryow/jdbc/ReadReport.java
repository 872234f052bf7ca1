package dev.ryow.jdbc;

/**
 * How the last replica-eligible read of a connection went: where it ran, why, and how long it
 * waited for the watermark.
 *
 * @param placement where the read ran and why
 * @param waitNanos time spent in {@code WAIT_FOR_EXECUTED_GTID_SET} (0 when it did not wait)
 * @param role the kind of server that ran it
 * @param server {@code host:port} of that server, as written in the URL
 */
public record ReadReport(ReadPlacement placement, long waitNanos, ServerRole role, String server) {

  /** Whether the read waited for the watermark. */
  public boolean waited() {
    return waitNanos > 0;
  }

  /** Whether the read ran on the primary because its replica could not serve it consistently. */
  public boolean fellBack() {
    return placement == ReadPlacement.PRIMARY_FALLBACK;
  }

  /** Whether the read ran, without a wait, on a replica within the lag bound of an allow-stale scope. */
  public boolean staleAllowed() {
    return placement == ReadPlacement.REPLICA_STALE_ALLOWED;
  }

  /** Whether the read was knowingly served by a replica that may lack the watermark (a fallback). */
  public boolean stale() {
    return placement == ReadPlacement.REPLICA_STALE;
  }
}
