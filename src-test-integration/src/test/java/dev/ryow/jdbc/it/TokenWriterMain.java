package dev.ryow.jdbc.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ryow.jdbc.RyowConnection;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Run in a separate JVM ({@link #run}) by {@link ConsistencyScopesIT} and {@link TokenAcrossSwitchoverIT}:
 * writes one row through {@code jdbc:ryow:} and
 * prints the connection's consistency token on the last line of standard output.
 * Arguments: URL, id, value.
 */
public final class TokenWriterMain {
  private TokenWriterMain() {}

  /** Entry point. */
  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection(args[0]);
        PreparedStatement ps = c.prepareStatement("INSERT INTO it_scope (id, v) VALUES (?, ?)")) {
      ps.setInt(1, Integer.parseInt(args[1]));
      ps.setInt(2, Integer.parseInt(args[2]));
      ps.executeUpdate();
      System.out.println(c.unwrap(RyowConnection.class).consistencyToken());
    }
  }

  /** Runs this writer in a new JVM on {@code url}; returns the token it printed. */
  static String run(String url, int id, int value) throws Exception {
    Process p = ChildJvm.start(System.getProperty("java.class.path"), TokenWriterMain.class, url, String.valueOf(id),
        String.valueOf(value));
    List<String> lines = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = out.readLine()) != null; ) {
        lines.add(line);
      }
    }
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("writer process output: %s", lines).isZero();
    String token = lines.get(lines.size() - 1);
    assertThat(token).isNotEmpty();
    return token;
  }
}
