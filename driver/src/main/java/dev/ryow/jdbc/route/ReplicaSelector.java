package dev.ryow.jdbc.route;

import dev.ryow.jdbc.config.SelectionStrategy;
import dev.ryow.jdbc.gtid.GtidSet;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * "Which replica?" Orders the servers a read may try, best first:
 *
 * <ol>
 *   <li>in rotation and already known to have the watermark (no wait round trip);
 *   <li>out of rotation but reachable and known to have the watermark (correct without a wait);
 *   <li>{@link Health#UP} (the read waits there);
 *   <li>{@link Health#PAUSED}: replication stopped for a moment (the read waits there, for it may resume).
 * </ol>
 *
 * Unreachable servers, the primary, and out-of-rotation servers without the watermark are left out.
 * Within a tier the {@link SelectionStrategy} decides.
 */
public final class ReplicaSelector {
  private ReplicaSelector() {}

  /**
   * Fills {@code out} with the candidates in order and returns how many there are.
   *
   * @param servers all servers of the cluster
   * @param watermark the read's watermark
   * @param strategy how to order within a tier
   * @param start the connection's round-robin start
   * @param out at least {@code servers.size()} long
   * @param keys scratch space, at least {@code servers.size()} long (reused: no allocation per read)
   */
  public static int order(
      List<ReplicaEndpoint> servers,
      GtidSet watermark,
      SelectionStrategy strategy,
      int start,
      ReplicaEndpoint[] out,
      long[] keys) {
    int n = servers.size();
    int count = 0;
    for (int i = 0; i < n; i++) {
      ReplicaEndpoint e = servers.get(i);
      Health h = e.health();
      if (!h.reachable()) {
        continue;
      }
      boolean has = e.knownExecuted().contains(watermark);
      int tier;
      if (has) {
        tier = h.inRotation() ? 0 : 1;
      } else if (h.inRotation()) {
        tier = h == Health.UP ? 2 : 3;
      } else {
        continue;
      }
      long rotation = Math.floorMod(e.index() - start, n);
      long within =
          switch (strategy) {
            case LEAST_WAITS -> ((long) e.waiters() << 16) | rotation;
            case ROUND_ROBIN -> rotation;
            case RANDOM -> ThreadLocalRandom.current().nextInt(1 << 20);
          };
      long key = ((long) tier << 48) | within;
      // insertion sort: a handful of servers
      int j = count;
      while (j > 0 && keys[j - 1] > key) {
        keys[j] = keys[j - 1];
        out[j] = out[j - 1];
        j--;
      }
      keys[j] = key;
      out[j] = e;
      count++;
    }
    return count;
  }
}
