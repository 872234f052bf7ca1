package dev.ryow.jdbc.cluster;

/** For tests of other packages: a discovery round that found no writable server, as the cluster records it. */
public final class PrimaryLoss {
  private PrimaryLoss() {}

  /** The cluster's primary is lost from now on (until it is found writable again). */
  public static void mark(Cluster cluster) {
    cluster.tracker().lost(cluster.primaryEndpoint(), System.nanoTime(), "a test", "no host answered");
  }
}
