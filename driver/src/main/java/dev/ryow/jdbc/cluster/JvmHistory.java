package dev.ryow.jdbc.cluster;

/**
 * What this JVM's connections wrote to one set of servers and what their reads saw there: the state
 * behind {@code ryow.consistency=jvm} and JVM-wide monotonic reads. It belongs to the servers, not to a
 * URL: every cluster whose primary is the same server (by {@code server_uuid}) shares one, whatever its
 * URL's replica order, host names or settings ({@link JvmHistories}). A cluster that has not logged in
 * yet holds a private one, which it hands over when it joins.
 *
 * @param writes every GTID a connection of these clusters wrote, in this JVM
 * @param reads what every read through these clusters in this JVM saw (monotonic reads)
 * @param shared whether it is the one registered for its servers (false: a cluster's private one)
 */
public record JvmHistory(Watermark writes, ReadWatermark reads, boolean shared) {
  /** An empty history: private to one cluster until it joins, or shared, registered for its servers. */
  static JvmHistory empty(boolean shared) {
    return new JvmHistory(new Watermark(), new ReadWatermark(), shared);
  }
}
