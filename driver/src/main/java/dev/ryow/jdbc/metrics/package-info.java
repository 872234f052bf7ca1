/** Counters and timings per cluster. */
@NullMarked
package dev.ryow.jdbc.metrics;

import org.jspecify.annotations.NullMarked;
