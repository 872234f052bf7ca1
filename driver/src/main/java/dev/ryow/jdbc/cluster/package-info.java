/**
 * What every logical connection to one set of servers shares, and how it is kept current: the servers and
 * what is known of each ({@link dev.ryow.jdbc.cluster.ReplicaEndpoint}, one immutable health record and one
 * progress record, each changed by compare-and-set), the primary ({@link dev.ryow.jdbc.cluster.PrimaryState}),
 * the JVM's watermarks and histories, the fallback budget, the background poller
 * ({@link dev.ryow.jdbc.cluster.ClusterMonitor}) and the registry of clusters. The rules that govern these
 * state changes ({@link dev.ryow.jdbc.cluster.StallRule}, the health transitions) live beside the state; the
 * routing decisions that read it live in {@code route}.
 */
@NullMarked
package dev.ryow.jdbc.cluster;

import org.jspecify.annotations.NullMarked;
