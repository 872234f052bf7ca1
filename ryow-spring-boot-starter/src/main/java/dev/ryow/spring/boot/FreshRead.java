package dev.ryow.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The method's reads see everything the primary had committed when each read began, by any client,
 * whatever {@code ryow.consistency} and the request's scope say: for checks that must never be stale (a
 * revoked token, a permission, an account balance). Runs the method in
 * {@link dev.ryow.jdbc.ConsistencyScope#freshRead()} ({@code latest}): each replica read first reads the
 * primary's {@code gtid_executed} (one statement on the primary), then runs on a replica that has it, after
 * a wait if needed, or on the primary.
 *
 * <p>On a method or a class, as {@link ReadYourWrites} says. Inside
 * {@code @Transactional(readOnly = true)} the whole transaction runs on one replica that has what the
 * primary had at its first read; in a read-write transaction every statement runs on the primary anyway.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface FreshRead {}
