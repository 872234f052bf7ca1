package dev.ryow.jdbc.config;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of a {@code jdbc:ryow:mysql://PRIMARY[:PORT],REPLICA[:PORT].../[DATABASE][?k=v&...]} URL.
 *
 * @param hosts all hosts in URL order; the first is the primary
 * @param database the default schema, empty when none
 * @param parameters the query parameters, percent-decoded, in URL order
 */
public record RyowUrl(List<HostSpec> hosts, String database, Map<String, String> parameters) {

  /** The scheme every URL of this driver starts with. */
  public static final String SCHEME = "jdbc:ryow:";

  private static final String SUBPROTOCOL = "mysql://";

  /** Copies the parts. */
  public RyowUrl {
    hosts = List.copyOf(hosts);
    parameters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
  }

  /** Whether {@code url} is ours to handle (it may still be malformed). */
  public static boolean accepts(String url) {
    return url.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
  }

  /**
   * Parses an accepted URL; a malformed one is a {@link ConfigException} naming the bad part. Messages
   * never quote the query: a parameter is named by its position (a password with an unencoded
   * {@code &} would otherwise show up as a "parameter" of its own).
   */
  public static RyowUrl parse(String url) throws ConfigException {
    if (!accepts(url)) {
      throw new ConfigException("Not a " + SCHEME + " URL: " + Masking.maskUrl(url));
    }
    String rest = url.substring(SCHEME.length());
    if (!rest.regionMatches(true, 0, SUBPROTOCOL, 0, SUBPROTOCOL.length())) {
      throw new ConfigException(
          "Unsupported URL form after " + SCHEME + ": expected " + SCHEME + SUBPROTOCOL
              + "PRIMARY[:PORT],REPLICA[:PORT]/[DATABASE][?key=value&...]");
    }
    rest = rest.substring(SUBPROTOCOL.length());
    int query = rest.indexOf('?');
    String beforeQuery = query < 0 ? rest : rest.substring(0, query);
    String queryText = query < 0 ? "" : rest.substring(query + 1);
    if (beforeQuery.indexOf('@') >= 0) {
      // Never echo this part: it may hold a password (user:password@host), which may contain '/' or ','.
      throw new ConfigException(
          "Credentials in the host part of the URL (user:password@host) are not supported: pass user and"
              + " password as URL parameters (?user=...&password=...) or as connection properties");
    }
    int slash = beforeQuery.indexOf('/');
    String hostList = slash < 0 ? beforeQuery : beforeQuery.substring(0, slash);
    String rawDatabase = slash < 0 ? "" : beforeQuery.substring(slash + 1);
    if (rawDatabase.indexOf('&') >= 0 || rawDatabase.indexOf('=') >= 0) {
      // Parameters without the '?': never echo them, they may hold a password.
      throw new ConfigException(
          "The URL's database part contains '&' or '=': put the parameters after a '?' (.../DATABASE?key=value&...)");
    }
    String database = decode(rawDatabase, "database name");
    if (database.indexOf('/') >= 0) {
      throw new ConfigException("Malformed database part of the URL: it contains '/'");
    }
    return new RyowUrl(parseHosts(hostList), database, parseQuery(queryText));
  }

  private static List<HostSpec> parseHosts(String hostList) throws ConfigException {
    if (hostList.isBlank()) {
      throw new ConfigException("The URL names no hosts: expected PRIMARY[:PORT],REPLICA[:PORT]...");
    }
    List<HostSpec> hosts = new ArrayList<>();
    for (String part : hostList.split(",", -1)) {
      hosts.add(parseHost(part.trim()));
    }
    return hosts;
  }

  private static HostSpec parseHost(String text) throws ConfigException {
    if (text.isEmpty()) {
      throw new ConfigException("Empty host in the URL's host list (two commas, or a trailing comma?)");
    }
    String host;
    String portText = null;
    if (text.startsWith("[")) {
      int close = text.indexOf(']');
      if (close < 0) {
        throw new ConfigException("Unclosed '[' in host '" + text + "'");
      }
      host = text.substring(1, close);
      String after = text.substring(close + 1);
      if (!after.isEmpty()) {
        if (!after.startsWith(":")) {
          throw new ConfigException("Malformed host '" + text + "'");
        }
        portText = after.substring(1);
      }
    } else {
      int colon = text.indexOf(':');
      host = colon < 0 ? text : text.substring(0, colon);
      portText = colon < 0 ? null : text.substring(colon + 1);
    }
    if (host.isEmpty() || !host.chars().allMatch(RyowUrl::isHostChar)) {
      throw new ConfigException("Malformed host name '" + text + "' in the URL");
    }
    int port = HostSpec.DEFAULT_PORT;
    if (portText != null) {
      try {
        port = Integer.parseInt(portText);
      } catch (NumberFormatException e) {
        throw new ConfigException("Malformed port in host '" + text + "'", e);
      }
      if (port < 1 || port > 65_535) {
        throw new ConfigException("Port out of range (1..65535) in host '" + text + "'");
      }
    }
    return new HostSpec(host, port);
  }

  private static boolean isHostChar(int c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '.'
        || c == '-'
        || c == '_'
        || c == ':'
        || c == '%';
  }

  private static Map<String, String> parseQuery(String queryText) throws ConfigException {
    Map<String, String> parameters = new LinkedHashMap<>();
    if (queryText.isEmpty()) {
      return parameters;
    }
    Map<String, Integer> positions = new java.util.HashMap<>();
    int position = 0;
    for (String pair : queryText.split("&", -1)) {
      position++;
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new ConfigException("Malformed URL parameter " + position + " (counting from 1 after '?'): expected"
            + " key=value. A value containing '&', '=', '%' or '+' must be percent-encoded (%26, %3D, %25, %2B).");
      }
      String key = decode(pair.substring(0, eq), "parameter " + position + " (its name)");
      String value = decode(pair.substring(eq + 1), "parameter " + position + " (its value)");
      Integer first = positions.putIfAbsent(key, position);
      if (first != null) {
        throw new ConfigException("URL parameters " + first + " and " + position + " (counting from 1 after '?') have"
            + " the same name: give each once. A value containing '&' must be percent-encoded (%26).");
      }
      parameters.put(key, value);
    }
    return parameters;
  }

  private static String decode(String text, String what) throws ConfigException {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      // No cause attached: the decoder's message quotes the text, which may be a password.
      throw new ConfigException("Malformed percent-encoding in the URL's " + what);
    }
  }
}
