package dev.ryow.jdbc.server;

import dev.ryow.jdbc.gtid.PositionKind;

/**
 * What a server said about itself when a physical connection was opened.
 *
 * @param serverUuid {@code @@server_uuid}; on MariaDB, which has none, a name-based UUID of its host name,
 *     port and server id (see {@code MariaDbServer})
 * @param port {@code @@port}
 * @param readOnly {@code @@global.read_only} or {@code @@global.super_read_only} was on
 * @param flavor MySQL or MariaDB, from the version in the handshake
 * @param gtids whether it runs with GTIDs (MySQL {@code gtid_mode=ON}, or MariaDB); false for a MySQL server with
 *     {@code gtid_mode=OFF}, whose replicas are waited on with binary-log positions
 */
public record ServerIdentity(String serverUuid, int port, boolean readOnly, ServerFlavor flavor, boolean gtids) {

  /** A MySQL server's identity, with GTIDs. */
  public ServerIdentity(String serverUuid, int port, boolean readOnly) {
    this(serverUuid, port, readOnly, ServerFlavor.MYSQL, true);
  }

  /**
   * A primary that let a user whose password expired in, in the server's sandbox mode (Connector/J's
   * {@code disconnectOnExpiredPasswords=false}): it answers nothing but {@code SET} and
   * {@code ALTER USER}, so the connect-time probe could not ask who it is. Its UUID is unknown (empty),
   * it is taken as writable (the URL's primary, which the cluster's poller checks apart), with GTIDs.
   */
  static ServerIdentity passwordExpired(int port, ServerFlavor flavor) {
    return new ServerIdentity("", port, false, flavor, true);
  }

  /** Whether the probe found the session in sandbox mode ({@link #passwordExpired}): who the server is is unknown. */
  public boolean passwordExpired() {
    return serverUuid.isEmpty();
  }

  /** The kind of its positions: a MySQL GTID set, a MariaDB GTID position or a binary-log position. */
  public PositionKind positionKind() {
    if (flavor == ServerFlavor.MARIADB) {
      return PositionKind.MARIADB_GTID;
    }
    return gtids ? PositionKind.GTID_SET : PositionKind.BINLOG_POSITION;
  }

  /** What a URL must not mix ({@code MySQL}, {@code MariaDB}, {@code MySQL without GTIDs}), for messages. */
  public String replicationLabel() {
    return gtids ? flavor.displayName() : flavor.displayName() + " without GTIDs";
  }
}
