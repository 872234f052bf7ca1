package dev.ryow.jdbc.server;

/**
 * One row of {@code SHOW REPLICAS} on a source: a replica connected to it now, as the replica reports itself.
 *
 * @param uuid {@code Replica_UUID} (the replica's {@code server_uuid})
 * @param host {@code Host}: the replica's {@code report_host}
 * @param port {@code Port}: the replica's {@code report_port} (its SQL port unless set otherwise)
 */
public record ReportedReplica(String uuid, String host, int port) {}
