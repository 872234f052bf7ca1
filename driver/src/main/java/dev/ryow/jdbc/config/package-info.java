/** Every {@code ryow.*} property defined once, URL parsing, and the validated immutable configuration. */
@NullMarked
package dev.ryow.jdbc.config;

import org.jspecify.annotations.NullMarked;
