package dev.ryow.jdbc.route;

import dev.ryow.jdbc.cluster.Health;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.cluster.StallRule;
import dev.ryow.jdbc.config.SelectionStrategy;
import dev.ryow.jdbc.gtid.Position;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * "Which replica?" Orders the servers a read may try, best first:
 *
 * <ol>
 *   <li>in rotation and already known to have the watermark (no wait round trip);
 *   <li>out of rotation but reachable and known to have the watermark (correct without a wait);
 *   <li>{@link Health#UP} (the read waits there);
 *   <li>{@link Health#PAUSED}: replication stopped for a moment (the read waits there, for it may resume);
 *   <li>in rotation but {@linkplain StallRule stalled}: listed last, so that the read waits on a replica that
 *       advances if there is one ({@link ReadAdmission} skips it without a wait).
 * </ol>
 *
 * Unreachable servers, the primary, out-of-rotation servers without the watermark, and servers the
 * {@link ReadRequirement} does not allow (a monotonic read bound to one server) are left out. Within a
 * tier, for monotonic reads, replicas {@linkplain ReplicaEndpoint#behind() behind} the primary come
 * after the others (the scope's next reads stay where this one runs, so it should be the one furthest
 * ahead); then the {@link SelectionStrategy} decides.
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
      Position watermark,
      SelectionStrategy strategy,
      int start,
      ReplicaEndpoint[] out,
      long[] keys) {
    return order(servers, ReadRequirement.of(watermark), strategy, start, out, keys);
  }

  /**
   * Fills {@code out} with the candidates for {@code required} in order and returns how many there are.
   *
   * @param servers all servers of the cluster
   * @param required what the read needs (per server), and where it may run
   * @param strategy how to order within a tier
   * @param start the connection's round-robin start
   * @param out at least {@code servers.size()} long
   * @param keys scratch space, at least {@code servers.size()} long (reused: no allocation per read)
   */
  public static int order(
      List<ReplicaEndpoint> servers,
      ReadRequirement required,
      SelectionStrategy strategy,
      int start,
      ReplicaEndpoint[] out,
      long[] keys) {
    int n = servers.size();
    // Vacant places (group members not found yet) are always the tail: rotate over the servers before them.
    int live = n;
    while (live > 1 && servers.get(live - 1).vacant()) {
      live--;
    }
    int count = 0;
    boolean preferAhead = required.preferAhead();
    for (int i = 0; i < n; i++) {
      ReplicaEndpoint e = servers.get(i);
      Health h = e.health();
      if (!h.reachable() || !required.allows(e)) {
        continue;
      }
      boolean has = e.knownExecuted().contains(required.of(e));
      int tier;
      if (has) {
        tier = h.inRotation() ? 0 : 1;
      } else if (h.inRotation()) {
        tier = e.stalled() ? 4 : h == Health.UP ? 2 : 3;
      } else {
        continue;
      }
      long rotation = Math.floorMod(e.index() - start, live);
      long within =
          switch (strategy) {
            case LEAST_WAITS -> ((long) e.waiters() << 16) | rotation;
            case ROUND_ROBIN -> rotation;
            case RANDOM -> ThreadLocalRandom.current().nextInt(1 << 20);
          };
      if (preferAhead && e.behind()) {
        within |= 1L << 44;
      }
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
