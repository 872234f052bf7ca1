/** The hand-written JDBC wrappers. Thin: they translate JDBC calls into routing calls and delegate. */
@NullMarked
package dev.ryow.jdbc.proxy;

import org.jspecify.annotations.NullMarked;
