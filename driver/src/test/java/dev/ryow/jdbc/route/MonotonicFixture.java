package dev.ryow.jdbc.route;

import dev.ryow.jdbc.cluster.Cluster;
import dev.ryow.jdbc.cluster.ReplicaEndpoint;
import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.server.ConnectorJ;
import dev.ryow.jdbc.server.ServerStatus;
import java.util.Properties;

/**
 * A cluster of a primary and three replicas whose polls the tests write by hand: what the poller
 * would have read, and when its query was sent.
 */
public final class MonotonicFixture {
  public static final String P = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  public static final String U1 = "11111111-1111-1111-1111-111111111111";
  public static final String U2 = "22222222-2222-2222-2222-222222222222";
  public static final String U3 = "33333333-3333-3333-3333-333333333333";

  final Cluster cluster;
  final ReplicaEndpoint primary;
  final ReplicaEndpoint r1;
  final ReplicaEndpoint r2;
  final ReplicaEndpoint r3;
  /** A clock the tests move by hand ({@link System#nanoTime()} units). */
  long now = 1_000_000_000L;

  MonotonicFixture() throws Exception {
    cluster = new Cluster(
        RyowConfig.from("jdbc:ryow:mysql://p:3306,r1:3307,r2:3308,r3:3309/db", new Properties()), new ConnectorJ());
    primary = cluster.servers().get(0);
    r1 = cluster.servers().get(1);
    r2 = cluster.servers().get(2);
    r3 = cluster.servers().get(3);
    pollPrimary("1-100", "");
    poll(r1, U1, "1-100", "");
    poll(r2, U2, "1-100", "");
    poll(r3, U3, "1-100", "");
  }

  /** The primary's uuid, intervals {@code n-m}. */
  public static GtidSet gtids(String intervals) {
    return intervals.isEmpty() ? GtidSet.EMPTY : GtidSet.parse(P + ":" + intervals);
  }

  long tick() {
    return now += 1_000_000;
  }

  /** A poll of {@code e} sent now: {@code gtid_executed} and {@code gtid_owned} (intervals of the primary's uuid). */
  void poll(ReplicaEndpoint e, String uuid, String executed, String owned) {
    tick();
    e.observe(new ServerStatus(uuid, gtids(executed), gtids(owned), true, 1, true, true, 0, "", true, ""),
        e.knownExecuted(), now);
    tick();
  }

  /** A poll of {@code e} sent now whose {@code gtid_executed} is {@code executed} (any UUIDs). */
  void poll(ReplicaEndpoint e, String uuid, GtidSet executed) {
    tick();
    e.observe(new ServerStatus(uuid, executed, GtidSet.EMPTY, true, 1, true, true, 0, "", true, ""),
        e.knownExecuted(), now);
    tick();
  }

  /** A poll of the primary sent now whose {@code gtid_executed} also holds {@code more} (another uuid's). */
  void pollPrimaryNaming(String more) {
    tick();
    long ticket = cluster.tracker().primaryPollTicket();
    cluster.primaryPolled(primary, primary.observePrimary(new ServerStatus(P,
        gtids("1-95").union(GtidSet.parse(more)), gtids(""), false, 0, true, true, 0, "", true, ""),
        now), ticket);
    tick();
  }

  void pollPrimary(String executed, String owned) {
    tick();
    long ticket = cluster.tracker().primaryPollTicket();
    cluster.primaryPolled(primary, primary.observePrimary(
        new ServerStatus(P, gtids(executed), gtids(owned), false, 0, true, true, 0, "", true, ""), now), ticket);
    tick();
  }
}
