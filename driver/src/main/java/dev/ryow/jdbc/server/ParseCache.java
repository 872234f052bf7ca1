package dev.ryow.jdbc.server;

import java.util.Properties;

/**
 * Connector/J's cache of what it parses from a client-side prepared statement's text
 * ({@code cachePrepStmts}), switched on for the driver's physical connections unless the application
 * decided about it.
 *
 * <p>A logical prepared statement that reads costs a physical one on the replica that runs it (with the
 * pipelined wait in front of the text when it waits), and the primary connection's checker of its text
 * ({@link ParameterCheckers}, once per connection). Each is a client-side prepared statement, and Connector/J parses
 * its text again every time unless {@code cachePrepStmts} is on; ORMs and pools prepare the same few texts
 * for every execution. The cache keeps only the parse (an immutable description of the text, per
 * connection, the least recently used dropped first); statements themselves are not reused, so nothing an
 * application sets on one statement reaches another.
 *
 * <p>Left as the application has it when it set {@code cachePrepStmts} itself (either way), or asked for
 * server-side prepared statements ({@code useServerPrepStmts=true}), where the same property would also
 * keep statements open on the server.
 */
final class ParseCache {
  /** Texts per physical connection: an ORM's statements for a handful of entities, with room to spare. */
  static final String SIZE = "64";
  /** Longest text cached, in characters: ORM statements and the pipelined wait in front of them fit. */
  static final String SQL_LIMIT = "4096";

  private ParseCache() {}

  /** {@code props} with the parse cache switched on (a copy), or {@code props} itself when it is not ours to decide. */
  static Properties on(Properties props) {
    if (has(props, "cachePrepStmts") || flag(props, "useServerPrepStmts")) {
      return props;
    }
    Properties with = new Properties();
    with.putAll(props);
    with.setProperty("cachePrepStmts", "true");
    if (!has(props, "prepStmtCacheSize")) {
      with.setProperty("prepStmtCacheSize", SIZE);
    }
    if (!has(props, "prepStmtCacheSqlLimit")) {
      with.setProperty("prepStmtCacheSqlLimit", SQL_LIMIT);
    }
    return with;
  }

  private static boolean has(Properties props, String name) {
    return props.stringPropertyNames().stream().anyMatch(name::equalsIgnoreCase);
  }

  private static boolean flag(Properties props, String name) {
    return props.stringPropertyNames().stream()
        .filter(name::equalsIgnoreCase)
        .map(props::getProperty)
        .anyMatch(v -> "true".equalsIgnoreCase(v.trim()) || "yes".equalsIgnoreCase(v.trim()));
  }
}
