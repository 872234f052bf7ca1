package dev.ryow.jdbc.server;

/**
 * What a server said about itself when a physical connection was opened.
 *
 * @param serverUuid {@code @@server_uuid}
 * @param port {@code @@port}
 */
public record ServerIdentity(String serverUuid, int port) {}
