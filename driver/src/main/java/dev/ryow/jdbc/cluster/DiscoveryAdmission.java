package dev.ryow.jdbc.cluster;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * "May a replica the primary reports ({@code SHOW REPLICAS}) serve reads?" ({@code ryow.discoverReplicas}).
 * Only when the driver reached it at the reported address with the URL's credentials, it is the server the
 * primary reported (same {@code server_uuid}: a reused address or a stale row is not), and it replicates
 * from this very primary (a replica the primary lists but that now replicates from elsewhere is not
 * admitted). A server that is one of the cluster's already, under any name, is never a second place: host
 * aliases stay refused ({@link DistinctServers}).
 *
 * @param admitted whether it takes a place in the cluster
 * @param why why it is refused, empty when admitted
 */
record DiscoveryAdmission(boolean admitted, String why) {
  static final DiscoveryAdmission ADMITTED = new DiscoveryAdmission(true, "");

  /**
   * @param reportedUuid the {@code Replica_UUID} the primary reports
   * @param primaryUuid the primary's {@code server_uuid}
   * @param reachedUuid the {@code server_uuid} of the server reached at the reported address, null when it
   *     could not be reached (or refused the URL's credentials)
   * @param unreachableWhy why it could not be reached (when {@code reachedUuid} is null)
   * @param reachedSources the {@code SOURCE_UUID}s of the reached server's channels
   */
  static DiscoveryAdmission of(String reportedUuid, String primaryUuid, @Nullable String reachedUuid,
      String unreachableWhy, List<String> reachedSources) {
    if (reachedUuid == null) {
      return new DiscoveryAdmission(false, "not reachable with the URL's credentials: " + unreachableWhy);
    }
    if (!reachedUuid.equals(reportedUuid)) {
      return new DiscoveryAdmission(false, "the server at that address has server_uuid " + reachedUuid
          + ", the primary reports " + reportedUuid);
    }
    if (reachedUuid.equals(primaryUuid)) {
      return new DiscoveryAdmission(false, "it is the primary itself");
    }
    if (!reachedSources.contains(primaryUuid)) {
      return new DiscoveryAdmission(false, "it replicates from " + (reachedSources.isEmpty() ? "nobody"
          : String.join(", ", reachedSources)) + ", not from the primary " + primaryUuid);
    }
    return ADMITTED;
  }
}
