/**
 * HTTP propagation of consistency tokens: a Jakarta Servlet filter that binds a
 * {@link dev.ryow.jdbc.ConsistencyScope} to each request, and {@link dev.ryow.jdbc.web.HttpTokens}, which
 * carries the scope's token on outgoing calls. The filter needs {@code jakarta.servlet-api} 6 on the
 * classpath (an optional dependency: nothing else in the driver uses it); {@code HttpTokens} needs only
 * the JDK's {@code java.net.http} module.
 */
@NullMarked
package dev.ryow.jdbc.web;

import org.jspecify.annotations.NullMarked;
