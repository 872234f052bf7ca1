package dev.ryow.jdbc.cluster;

import dev.ryow.jdbc.config.RyowConfig;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings and credentials the poller and primary discovery log in with: those of the latest logical
 * connection that logged in to the primary, so that they follow a password rotation; and the throttled
 * warning when the poller's login is refused.
 */
public final class Logins {
  private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);

  private final String name;
  private volatile RyowConfig login;
  private final AtomicLong refusalLoggedNanos = new AtomicLong();

  Logins(RyowConfig config) {
    this.name = config.clusterName();
    this.login = config;
  }

  /**
   * A logical connection logged in to the primary with {@code config}'s credentials: from now on the
   * poller and primary discovery open their connections with them (a password rotation reaches the
   * cluster with the first connection that uses the new password).
   */
  public void loggedIn(RyowConfig config) {
    login = config;
  }

  /** The settings and credentials the poller and primary discovery open their connections with. */
  public RyowConfig monitorConfig() {
    return login;
  }

  /**
   * The poller's login to {@code server} was refused (credentials rotated since the latest logical
   * connection logged in, or an account without access there): the server answered, so its health
   * stays as it was; logged at WARN at most once a minute.
   */
  void credentialsRefused(ReplicaEndpoint server, SQLException failure) {
    long now = System.nanoTime();
    long last = refusalLoggedNanos.get();
    if ((last == 0 || now - last >= TimeUnit.MINUTES.toNanos(1)) && refusalLoggedNanos.compareAndSet(last, now | 1)) {
      LOG.warn("[{}] the poller's login to {} was refused ({}); its health is left as it was until a connection logs"
          + " in with credentials that work (password rotated?)", name, server, failure.getMessage());
    }
  }
}
