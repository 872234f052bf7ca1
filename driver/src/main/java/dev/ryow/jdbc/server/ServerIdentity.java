package dev.ryow.jdbc.server;

/**
 * What a server said about itself when a physical connection was opened.
 *
 * @param serverUuid {@code @@server_uuid}; on MariaDB, which has none, a name-based UUID of its host name,
 *     port and server id (see {@code MariaDbServer})
 * @param port {@code @@port}
 * @param readOnly {@code @@global.read_only} or {@code @@global.super_read_only} was on
 * @param flavor MySQL or MariaDB, from the version in the handshake
 */
public record ServerIdentity(String serverUuid, int port, boolean readOnly, ServerFlavor flavor) {

  /** A MySQL server's identity. */
  public ServerIdentity(String serverUuid, int port, boolean readOnly) {
    this(serverUuid, port, readOnly, ServerFlavor.MYSQL);
  }
}
