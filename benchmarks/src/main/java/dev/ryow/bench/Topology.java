package dev.ryow.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The servers a benchmark runs against, taken from {@code RYOW_SANDBOX_URL} (as printed by
 * {@code sandbox/ryow-sandbox url}) or, without it, built from {@code RYOW_SANDBOX_PORT_BASE}
 * (default 23306) the way the sandbox does. Gives the same servers as {@code jdbc:ryow:},
 * plain Connector/J and Connector/J replication URLs.
 */
public final class Topology {
  private final String ryowUrl;
  private final List<String> hosts;
  private final String database;
  private final Map<String, String> params;
  /** The servers' flavour, asked of the primary on first use. */
  private volatile Flavor flavor;

  private Topology(String ryowUrl) {
    String prefix = "jdbc:ryow:mysql://";
    if (!ryowUrl.startsWith(prefix)) {
      throw new IllegalArgumentException("RYOW_SANDBOX_URL must start with " + prefix);
    }
    this.ryowUrl = ryowUrl;
    String rest = ryowUrl.substring(prefix.length());
    int slash = rest.indexOf('/');
    this.hosts = List.of(rest.substring(0, slash).split(","));
    String tail = rest.substring(slash + 1);
    int q = tail.indexOf('?');
    this.database = q < 0 ? tail : tail.substring(0, q);
    this.params = new LinkedHashMap<>();
    if (q >= 0) {
      for (String kv : tail.substring(q + 1).split("&")) {
        int eq = kv.indexOf('=');
        params.put(eq < 0 ? kv : kv.substring(0, eq), eq < 0 ? "" : kv.substring(eq + 1));
      }
    }
    if (hosts.size() < 2) {
      throw new IllegalArgumentException("the URL needs a primary and at least one replica: " + hosts);
    }
  }

  /**
   * The same servers, database and parameters, reached at other addresses ({@code hosts}, in the
   * order of {@link #servers()}): e.g. through {@link LatencyForwarder}s.
   */
  public Topology at(List<String> hosts) {
    if (hosts.size() != this.hosts.size()) {
      throw new IllegalArgumentException("expected " + this.hosts.size() + " addresses, got " + hosts);
    }
    String prefix = "jdbc:ryow:mysql://";
    String tail = ryowUrl.substring(ryowUrl.indexOf('/', prefix.length()));
    return new Topology(prefix + String.join(",", hosts) + tail);
  }

  /** The same primary, database and parameters with {@code replica} as the only replica. */
  public Topology withOnlyReplica(String replica) {
    if (!replicas().contains(replica)) {
      throw new IllegalArgumentException(replica + " is not a replica of " + hosts);
    }
    String prefix = "jdbc:ryow:mysql://";
    String tail = ryowUrl.substring(ryowUrl.indexOf('/', prefix.length()));
    return new Topology(prefix + primary() + "," + replica + tail);
  }

  /** From the environment, as described on the class. */
  public static Topology fromEnvironment() {
    String url = System.getenv("RYOW_SANDBOX_URL");
    if (url == null || url.isBlank()) {
      int base = Integer.parseInt(System.getenv().getOrDefault("RYOW_SANDBOX_PORT_BASE", "23306"));
      url = "jdbc:ryow:mysql://127.0.0.1:" + base + ",127.0.0.1:" + (base + 1) + ",127.0.0.1:" + (base + 2)
          + "/ryow?user=ryow&password=ryow";
    }
    return new Topology(url);
  }

  /** MySQL or MariaDB, as the primary says (asked once). */
  public Flavor flavor() throws SQLException {
    Flavor f = flavor;
    if (f == null) {
      f = Flavor.of(mysqlUrl(primary()));
      flavor = f;
    }
    return f;
  }

  /** {@code host:port} of the primary. */
  public String primary() {
    return hosts.get(0);
  }

  /** {@code host:port} of each replica. */
  public List<String> replicas() {
    return hosts.subList(1, hosts.size());
  }

  /** Every server, primary first. */
  public List<String> servers() {
    return hosts;
  }

  /** The database name. */
  public String database() {
    return database;
  }

  /** The user of the URL (who runs the workload). */
  public String user() {
    return params.getOrDefault("user", "");
  }

  /** The {@code jdbc:ryow:} URL, with extra {@code key=value} parameters appended. */
  public String ryowUrl(String... extra) {
    StringBuilder sb = new StringBuilder(ryowUrl);
    for (String kv : extra) {
      sb.append(sb.indexOf("?") < 0 ? '?' : '&').append(kv);
    }
    return sb.toString();
  }

  /** A plain Connector/J URL for one server. */
  public String mysqlUrl(String hostPort) {
    return "jdbc:mysql://" + hostPort + "/" + database + query(params);
  }

  /** A plain Connector/J URL for one server, as another user. */
  public String mysqlUrl(String hostPort, String user, String password) {
    Map<String, String> p = new LinkedHashMap<>(params);
    p.put("user", user);
    p.put("password", password);
    return "jdbc:mysql://" + hostPort + "/" + database + query(p);
  }

  /** Connector/J's replication driver URL over the same servers (first host is the source). */
  public String replicationUrl() {
    return "jdbc:mysql:replication://" + String.join(",", hosts) + "/" + database + query(params);
  }

  private static String query(Map<String, String> p) {
    StringJoiner j = new StringJoiner("&", "?", "");
    p.forEach((k, v) -> j.add(k + "=" + v));
    if (!p.containsKey("allowPublicKeyRetrieval")) {
      j.add("allowPublicKeyRetrieval=true");
    }
    return j.toString();
  }

  /**
   * Whether the server at {@code url} is a Group Replication member (its own row in
   * {@code replication_group_members}): its applier belongs to the group and cannot be stopped.
   */
  public static boolean groupMember(String url) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM performance_schema.replication_group_members"
            + " WHERE MEMBER_ID = @@server_uuid")) {
      return rs.next() && rs.getInt(1) > 0;
    }
  }

  /** Runs statements on one server through plain Connector/J. */
  public static void exec(String url, String... statements) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  /** Waits until every replica has executed everything the primary has (at most {@code seconds}). */
  public void awaitReplicasCaughtUp(int seconds) throws SQLException {
    String executed;
    Flavor f = flavor();
    try (Connection c = DriverManager.getConnection(mysqlUrl(primary()))) {
      executed = f.position(c, f.primaryPosition);
    }
    List<String> behind = new ArrayList<>();
    for (String r : replicas()) {
      try (Connection c = DriverManager.getConnection(mysqlUrl(r))) {
        if (!f.waitOn(c, executed, seconds)) {
          behind.add(r);
        }
      }
    }
    if (!behind.isEmpty()) {
      throw new SQLException("replicas " + behind + " did not catch up with the primary within " + seconds
          + " s; is replication running? (sandbox/ryow-sandbox status)");
    }
  }
}
