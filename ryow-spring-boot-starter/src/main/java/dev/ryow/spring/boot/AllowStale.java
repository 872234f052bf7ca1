package dev.ryow.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The method accepts stale reads, within a bound: its reads never wait, and run on a replica in rotation
 * whose applier lag at the last poll was at most {@link #maxLagMillis()}; when no replica is within it, on
 * the primary. For pages that tolerate staleness (a catalogue, a dashboard). Runs the method in
 * {@link dev.ryow.jdbc.ConsistencyScope#allowStale(long)}; such reads are reported as
 * {@link dev.ryow.jdbc.ReadPlacement#REPLICA_STALE_ALLOWED} and counted in {@code staleAllowedReads}
 * (meter {@code ryow.reads.stale.allowed}). The method's writes still count for later reads elsewhere.
 *
 * <p>On a method or a class, as {@link ReadYourWrites} says. Inside {@code @Transactional(readOnly = true)}
 * the transaction runs on one such replica; a read-write transaction runs on the primary.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface AllowStale {
  /** The largest applier lag accepted, in milliseconds ({@link Long#MAX_VALUE}: any replica in rotation). */
  long maxLagMillis();
}
