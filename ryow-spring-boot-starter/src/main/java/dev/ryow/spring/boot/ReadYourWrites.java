package dev.ryow.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The method's reads see its writes and those the configured {@code ryow.consistency} adds (by default
 * every write of this JVM, and the request's token): the default, said explicitly. Runs the method in
 * {@link dev.ryow.jdbc.ConsistencyScope#readYourWrites()}; inside an {@link AllowStale} or
 * {@link FreshRead} class or caller, it restores read-your-writes for this method.
 *
 * <p>On a method or a class (every public method of the Spring bean), one of {@code @ReadYourWrites},
 * {@link FreshRead} and {@link AllowStale} per element; the method's wins over its class's. Applied by
 * Spring AOP ({@code ryow.annotations.enabled}): calls from outside the bean only, as for
 * {@code @Transactional}. The scope encloses the method's transaction, so its commit counts too.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface ReadYourWrites {}
