/**
 * A logical session's routing brain: the replica slots and their admission, the session state every
 * physical connection replays, the replica wait. No JDBC wrapper lives here ({@code proxy} is the face).
 */
@NullMarked
package dev.ryow.jdbc.session;

import org.jspecify.annotations.NullMarked;
