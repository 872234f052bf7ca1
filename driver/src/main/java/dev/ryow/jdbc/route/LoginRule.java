package dev.ryow.jdbc.route;

/**
 * "A new logical connection found no writable primary: does it open anyway?" Pure decision from what
 * the login's attempt on the primary (and its round of discovery) ended with and how many other servers
 * the cluster knows. The table is in {@code LoginRuleTest}:
 *
 * <ul>
 *   <li>No server was writable or the primary could not be reached (the server is down, restarting, or
 *       a switchover or election is under way) and the cluster knows replicas: the connection opens on a
 *       replica ({@link Login#ON_REPLICAS}). Reads are served there as during any outage; the first
 *       statement that needs the primary looks for it as a running connection's would, up to
 *       {@code ryow.failoverTimeout}. When no replica can be reached either, the login fails with the
 *       primary's error.
 *   <li>No replica is known (a URL that names only the primary): the login fails, as with Connector/J.
 *   <li>The primary refused the login (credentials, {@code gtid_mode}, an unknown database, the
 *       primary and a replica being one server): the login fails, whatever the replicas could do; that
 *       error is the same on every server and must reach the application at once.
 * </ul>
 */
public final class LoginRule {
  private LoginRule() {}

  /** What the login's attempt on the primary ended with, for {@link #decide}. */
  public enum PrimaryOutcome {
    /** The primary could not be reached, or one round of discovery found no writable server. */
    NO_WRITABLE_SERVER,
    /** The server answered and refused: credentials, configuration, a missing database. */
    REFUSED
  }

  /** What the login does. */
  public enum Login {
    /** Fails with the primary's error. */
    FAIL,
    /** Opens on a replica; the primary is looked for by the first statement that needs it. */
    ON_REPLICAS
  }

  /**
   * Decides one login.
   *
   * @param outcome how the attempt on the primary failed
   * @param otherServers how many servers the cluster knows besides its primary (the URL's replicas and
   *     group members found by the poller)
   */
  public static Login decide(PrimaryOutcome outcome, int otherServers) {
    if (outcome == PrimaryOutcome.REFUSED || otherServers == 0) {
      return Login.FAIL;
    }
    return Login.ON_REPLICAS;
  }
}
