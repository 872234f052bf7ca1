package dev.ryow.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The driver's version, taken from the Maven project version that the build writes into
 * {@code dev/ryow/jdbc/version.properties} (resource filtering), so it is never written twice.
 */
final class DriverVersion {
  /** The full version, e.g. {@code 0.1.0-SNAPSHOT}. */
  static final String TEXT = load();
  /** The leading number of {@link #TEXT}. */
  static final int MAJOR = part(TEXT, 0);
  /** The second number of {@link #TEXT}, 0 if there is none. */
  static final int MINOR = part(TEXT, 1);

  private DriverVersion() {}

  private static String load() {
    try (InputStream in = DriverVersion.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        throw new IllegalStateException("dev/ryow/jdbc/version.properties is missing from the driver jar");
      }
      Properties p = new Properties();
      p.load(in);
      String version = p.getProperty("version", "").trim();
      if (version.isEmpty() || version.startsWith("$")) {
        throw new IllegalStateException("dev/ryow/jdbc/version.properties was not filtered by the build: '" + version + "'");
      }
      return version;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The {@code index}-th dot-separated number at the start of {@code version} ({@code 0.1.0-SNAPSHOT} → 0, 1, 0). */
  static int part(String version, int index) {
    String[] parts = version.split("[.-]", -1);
    if (index >= parts.length) {
      return 0;
    }
    String p = parts[index];
    int end = 0;
    while (end < p.length() && Character.isDigit(p.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Integer.parseInt(p.substring(0, end));
  }
}
