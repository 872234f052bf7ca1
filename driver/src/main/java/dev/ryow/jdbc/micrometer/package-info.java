/**
 * Micrometer metrics for a cluster: {@link dev.ryow.jdbc.micrometer.RyowMeterBinder}. Needs
 * {@code io.micrometer:micrometer-core} on the classpath (an optional dependency: nothing else in the
 * driver uses it).
 */
@NullMarked
package dev.ryow.jdbc.micrometer;

import org.jspecify.annotations.NullMarked;
