package dev.ryow.jdbc;

import dev.ryow.jdbc.config.ConfigException;
import dev.ryow.jdbc.config.ConnectionProperties;
import dev.ryow.jdbc.config.Masking;
import dev.ryow.jdbc.config.RyowUrl;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DataSource} for frameworks that configure one through bean properties (HikariCP's
 * {@code dataSourceClassName}, Spring's {@code spring.datasource.type}, JNDI resource factories).
 *
 * <p>Bean properties: {@code url} (required, a {@code jdbc:ryow:} URL), {@code user} (alias
 * {@code username}), {@code password}, {@code properties} ({@code java.util.Properties}) and
 * {@code connectionProperties} ({@code "key=value;key=value"}). The properties hold {@code ryow.*}
 * settings and Connector/J properties alike, exactly as {@code DriverManager.getConnection(url, info)}
 * would take them; they win over URL parameters of the same key, as with Connector/J (so do
 * {@code user} and {@code password}, and the credentials given to {@code getConnection(user, password)}). {@link
 * #getConnection()} goes through the same path as the
 * driver registered with {@code DriverManager}, so connections from both share their cluster (replica
 * state, metrics, JMX MBean).
 *
 * <p>A non-zero {@code loginTimeout} becomes Connector/J's {@code connectTimeout} unless that is set.
 * The log writer is kept for the interface only: the driver logs through SLF4J.
 */
public final class RyowDataSource implements DataSource {
  private volatile @Nullable String url;
  private volatile @Nullable String user;
  private volatile @Nullable String password;
  private final Properties properties = new Properties();
  private volatile int loginTimeoutSeconds;
  private volatile @Nullable PrintWriter logWriter;

  /** An unconfigured data source: set at least {@link #setUrl url}. */
  public RyowDataSource() {}

  /** The {@code jdbc:ryow:} URL, or null if not set. */
  public @Nullable String getUrl() {
    return url;
  }

  /** Sets the {@code jdbc:ryow:mysql://PRIMARY,REPLICA.../DB[?key=value...]} URL. */
  public void setUrl(@Nullable String url) {
    this.url = url;
  }

  /** The user name, or null to take it from the URL or properties. */
  public @Nullable String getUser() {
    return user;
  }

  /** Sets the user name. */
  public void setUser(@Nullable String user) {
    this.user = user;
  }

  /** Same as {@link #getUser()}, for frameworks that call it {@code username}. */
  public @Nullable String getUsername() {
    return user;
  }

  /** Same as {@link #setUser(String)}, for frameworks that call it {@code username}. */
  public void setUsername(@Nullable String username) {
    this.user = username;
  }

  /** The password, or null to take it from the URL or properties. */
  public @Nullable String getPassword() {
    return password;
  }

  /** Sets the password. It never appears in {@link #toString()}, log lines or exception messages. */
  public void setPassword(@Nullable String password) {
    this.password = password;
  }

  /** A copy of the connection properties ({@code ryow.*} settings and Connector/J properties). */
  public Properties getProperties() {
    Properties copy = new Properties();
    synchronized (properties) {
      properties.stringPropertyNames().forEach(k -> copy.setProperty(k, properties.getProperty(k)));
    }
    return copy;
  }

  /**
   * Replaces the connection properties with a copy of {@code properties}, defaults included. Values
   * that are not {@code String}s are converted as at {@code connect} ({@link ConnectionProperties}).
   *
   * @throws IllegalArgumentException for a key that is not a {@code String} or a value of another type
   *     (the message names the key and the type, never the value)
   */
  public void setProperties(@Nullable Properties properties) {
    Map<String, String> text;
    try {
      text = properties == null ? Map.of() : ConnectionProperties.text(properties);
    } catch (ConfigException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    synchronized (this.properties) {
      this.properties.clear();
      text.forEach(this.properties::setProperty);
    }
  }

  /** Sets one connection property, e.g. {@code setProperty("ryow.waitTimeout", "200")}. */
  public void setProperty(String key, String value) {
    synchronized (properties) {
      properties.setProperty(key, value);
    }
  }

  /**
   * Replaces the connection properties with {@code key=value} pairs separated by {@code ;} (the
   * format of DBCP's and Tomcat's {@code connectionProperties}).
   *
   * @throws IllegalArgumentException if a pair has no {@code =}
   */
  public void setConnectionProperties(@Nullable String pairs) {
    Properties parsed = new Properties();
    if (pairs != null) {
      int position = 0;
      for (String pair : pairs.split(";", -1)) {
        position++;
        if (pair.isBlank()) {
          continue;
        }
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          // Never quote the pair: it may be the tail of a password that contains ';'.
          throw new IllegalArgumentException(
              "connectionProperties: pair " + position + " (counting from 1) is not key=value; expected"
                  + " key=value;key=value");
        }
        parsed.setProperty(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
      }
    }
    setProperties(parsed);
  }

  @Override
  public Connection getConnection() throws SQLException {
    return getConnection(user, password);
  }

  @Override
  public Connection getConnection(@Nullable String username, @Nullable String password) throws SQLException {
    String u = url;
    if (u == null || u.isBlank()) {
      throw new SQLNonTransientConnectionException(
          "RyowDataSource has no url: set it to jdbc:ryow:mysql://PRIMARY:3306,REPLICA:3306/DATABASE", "08001");
    }
    if (!RyowUrl.accepts(u)) {
      throw new SQLNonTransientConnectionException(
          "RyowDataSource needs a " + RyowUrl.SCHEME + " URL, not " + Masking.maskUrl(u), "08001");
    }
    Properties info = getProperties();
    if (username != null) {
      info.setProperty("user", username);
    }
    if (password != null) {
      info.setProperty("password", password);
    }
    int timeout = loginTimeoutSeconds;
    if (timeout > 0 && !info.containsKey("connectTimeout")) {
      info.setProperty("connectTimeout", Long.toString(timeout * 1000L));
    }
    Connection c = RyowDriver.registered().connect(u, info);
    if (c == null) {
      throw new SQLNonTransientConnectionException("Not a " + RyowUrl.SCHEME + " URL: " + Masking.maskUrl(u), "08001");
    }
    return c;
  }

  @Override
  public @Nullable PrintWriter getLogWriter() {
    return logWriter;
  }

  /** Kept for the interface: the driver logs through SLF4J, not to this writer. */
  @Override
  public void setLogWriter(@Nullable PrintWriter out) {
    this.logWriter = out;
  }

  @Override
  public void setLoginTimeout(int seconds) {
    this.loginTimeoutSeconds = Math.max(0, seconds);
  }

  @Override
  public int getLoginTimeout() {
    return loginTimeoutSeconds;
  }

  /** Not supported: the driver logs through SLF4J, not {@code java.util.logging}. */
  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("ryow-jdbc logs through SLF4J, not java.util.logging");
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw new SQLException("RyowDataSource does not wrap a " + iface.getName(), "HY000");
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }

  /** The configuration with every secret masked. */
  @Override
  public String toString() {
    String u = url;
    return "RyowDataSource[url=" + (u == null ? null : Masking.maskUrl(u)) + ", user=" + user + ", password="
        + (password == null ? null : Masking.MASK) + ", properties=" + masked(getProperties()) + "]";
  }

  private static Map<String, String> masked(Properties p) {
    Map<String, String> out = new TreeMap<>();
    p.stringPropertyNames().forEach(k -> out.put(k, Masking.isSecretKey(k) ? Masking.MASK : p.getProperty(k)));
    return out;
  }
}
