/**
 * HTTP propagation of consistency tokens: a Jakarta Servlet filter that binds a
 * {@link dev.ryow.jdbc.ConsistencyScope} to each request. Needs {@code jakarta.servlet-api} 6 on the
 * classpath (an optional dependency: nothing else in the driver uses it).
 */
@NullMarked
package dev.ryow.jdbc.web;

import org.jspecify.annotations.NullMarked;
