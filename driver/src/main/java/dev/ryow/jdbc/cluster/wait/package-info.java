/**
 * How long a read may wait on a replica: {@code ryow.waitTimeout}, and the learned bound of each replica
 * ({@link dev.ryow.jdbc.cluster.wait.WaitBound}) from its smoothed waits and the primary's smoothed cost
 * ({@link dev.ryow.jdbc.cluster.wait.Smoothed}), held by {@link dev.ryow.jdbc.cluster.wait.WaitBounds}. It
 * names nothing of the rest of {@code cluster}: the cluster's parts use it, not the other way round.
 */
@NullMarked
package dev.ryow.jdbc.cluster.wait;

import org.jspecify.annotations.NullMarked;
