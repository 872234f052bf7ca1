/** The public API: {@link dev.ryow.jdbc.RyowDriver}, {@link dev.ryow.jdbc.RyowConnection} and the values they expose. */
@NullMarked
package dev.ryow.jdbc;

import org.jspecify.annotations.NullMarked;
