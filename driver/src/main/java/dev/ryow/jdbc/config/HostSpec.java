package dev.ryow.jdbc.config;

import java.util.Objects;

/**
 * One server of the cluster as written in the URL.
 *
 * @param host host name or IP literal (IPv6 without brackets)
 * @param port TCP port, 1..65535
 */
public record HostSpec(String host, int port) {

  /** MySQL's default port. */
  public static final int DEFAULT_PORT = 3306;

  /** Validates the parts. */
  public HostSpec {
    Objects.requireNonNull(host, "host");
    if (host.isEmpty()) {
      throw new IllegalArgumentException("empty host name");
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
  }

  /** {@code host:port}, with brackets around IPv6 literals, as Connector/J expects it in a URL. */
  public String address() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }

  @Override
  public String toString() {
    return address();
  }
}
