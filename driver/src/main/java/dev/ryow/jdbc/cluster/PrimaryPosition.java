package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.gtid.Position;

/**
 * What the poller read on the primary.
 *
 * @param executed its {@code gtid_executed}
 * @param pollTicket the poll's {@link PrimaryTracker#primaryPollTicket}: what a watermark held when its stamp
 *     ({@link PrimaryTracker#primaryPollsSent}) was below this number had committed before the query was sent
 * @param polledAtNanos {@link System#nanoTime()} just before the query was sent: everything
 *     committed on the primary before that instant is in {@code executed}
 */
public record PrimaryPosition(Position executed, long polledAtNanos, long pollTicket) {}
