package dev.ryow.jdbc.server;

/**
 * One row of {@code performance_schema.replication_group_members} as a member reports its group.
 *
 * @param uuid {@code MEMBER_ID} (the member's {@code server_uuid})
 * @param host {@code MEMBER_HOST} ({@code report_host}, else the host name)
 * @param port {@code MEMBER_PORT} (its SQL port)
 * @param state {@code MEMBER_STATE}: ONLINE, RECOVERING, OFFLINE, ERROR, UNREACHABLE
 * @param role {@code MEMBER_ROLE}: PRIMARY or SECONDARY
 */
public record GroupMember(String uuid, String host, int port, String state, String role) {}
