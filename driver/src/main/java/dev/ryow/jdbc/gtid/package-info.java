/**
 * Replication positions ({@link dev.ryow.jdbc.gtid.Position}, one kind per {@link dev.ryow.jdbc.gtid.PositionKind}) and
 * MySQL GTID sets as immutable values: parsing (strict, bounded for untrusted input),
 * canonical formatting, union and containment, including MySQL 8.3+ tagged GTIDs.
 */
@NullMarked
package dev.ryow.jdbc.gtid;

import org.jspecify.annotations.NullMarked;
