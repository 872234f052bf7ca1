package dev.ryow.jdbc.server;

import java.util.Locale;

/**
 * Which server a connection reached, from the version the server sent in its handshake ({@code @@version},
 * Connector/J's {@code getDatabaseProductVersion()}): MariaDB says so in it ({@code 11.8.9-MariaDB-4},
 * {@code 5.5.5-10.11.18-MariaDB-0+deb12u1} behind the replication-compatible prefix), MySQL does not.
 * No setting chooses it.
 */
public enum ServerFlavor {
  MYSQL("MySQL"),
  MARIADB("MariaDB");

  private final String displayName;

  ServerFlavor(String displayName) {
    this.displayName = displayName;
  }

  /** The flavour a server version string names. */
  public static ServerFlavor ofVersion(String version) {
    return version.toLowerCase(Locale.ROOT).contains("mariadb") ? MARIADB : MYSQL;
  }

  /** {@code MySQL} or {@code MariaDB}, for messages. */
  public String displayName() {
    return displayName;
  }
}
