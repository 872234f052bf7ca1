/**
 * Routing decisions as small policies over the cluster's state: where a statement goes
 * ({@link dev.ryow.jdbc.route.Router}, {@link dev.ryow.jdbc.route.TransactionState}), what a read must see
 * ({@link dev.ryow.jdbc.route.MonotonicReads}), whether to wait on a replica or skip it
 * ({@link dev.ryow.jdbc.route.ReadAdmission}, {@link dev.ryow.jdbc.route.ReplicaSelector}), and what on failure
 * ({@link dev.ryow.jdbc.route.FallbackPolicy}, {@link dev.ryow.jdbc.route.RetryRule}). The state itself lives in
 * {@code cluster}, which never depends on this package.
 */
@NullMarked
package dev.ryow.jdbc.route;

import org.jspecify.annotations.NullMarked;
