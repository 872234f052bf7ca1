package dev.ryow.jdbc.cluster;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The {@link JvmHistory} of each set of servers this JVM's clusters reach, by the {@code server_uuid}
 * of their primary: one guarantee per set of servers, not per URL text. Two pools whose URLs differ only
 * in the replicas' order, a host alias or a {@code ryow.*} setting make two clusters (their settings stay
 * their own) that share one history, so that a read through either sees the writes made through both.
 *
 * <p>A cluster joins at its first login to the primary ({@link JvmLedger#primaryIdentified}); after a
 * failover its next login registers the new primary under the same history, so that clusters created
 * later, which find the new primary first, join it too. Two histories that met only after both had
 * started are not merged: each still holds what its clusters wrote. Histories are kept for the life of
 * the class loader (one small entry per primary ever seen), so that a cluster released and created again
 * finds what the JVM wrote before.
 */
public final class JvmHistories {
  private final ConcurrentMap<String, JvmHistory> byPrimary = new ConcurrentHashMap<>();

  /**
   * The shared history of the servers whose primary is {@code primaryUuid}, created if there is none, with
   * what {@code own} (a cluster's private history) holds added to it.
   */
  JvmHistory join(String primaryUuid, JvmHistory own) {
    JvmHistory shared = byPrimary.computeIfAbsent(primaryUuid, k -> JvmHistory.empty(true));
    shared.writes().advance(own.writes().current());
    return shared;
  }

  /** {@code history} also stands for the servers whose primary is now {@code primaryUuid} (after a failover). */
  void alias(String primaryUuid, JvmHistory history) {
    if (byPrimary.get(primaryUuid) == null) {
      byPrimary.putIfAbsent(primaryUuid, history);
    }
  }

  /** How many primaries have a history. */
  int size() {
    return byPrimary.size();
  }
}
