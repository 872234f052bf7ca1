/**
 * Routing decisions as small policies: may a statement leave the primary, wait or skip, what on failure; the
 * shared cluster state.
 */
@NullMarked
package dev.ryow.jdbc.route;

import org.jspecify.annotations.NullMarked;
