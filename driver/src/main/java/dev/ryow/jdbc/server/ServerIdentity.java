package dev.ryow.jdbc.server;

/**
 * What a server said about itself when a physical connection was opened.
 *
 * @param serverUuid {@code @@server_uuid}
 * @param port {@code @@port}
 * @param readOnly {@code @@global.read_only} or {@code @@global.super_read_only} was on
 */
public record ServerIdentity(String serverUuid, int port, boolean readOnly) {}
