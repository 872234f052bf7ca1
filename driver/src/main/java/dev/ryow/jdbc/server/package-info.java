/** The only package that touches Connector/J internals: opening physical connections, capturing GTIDs, waiting on replicas. */
@NullMarked
package dev.ryow.jdbc.server;

import org.jspecify.annotations.NullMarked;
