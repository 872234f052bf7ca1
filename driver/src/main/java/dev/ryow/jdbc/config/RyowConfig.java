package dev.ryow.jdbc.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * A validated, immutable {@code jdbc:ryow:} configuration: the hosts, the typed {@code ryow.*}
 * settings and the properties that pass through to Connector/J untouched.
 *
 * <p>Built once per {@code connect}. Two configs with the same hosts, database and settings (any
 * credentials) describe the same cluster: see {@link #clusterKey()}.
 */
public final class RyowConfig {
  private final HostSpec primary;
  private final List<HostSpec> replicas;
  private final String database;
  private final Map<String, String> passThrough;
  private final Map<RyowProperty<?>, Object> values;
  private final String clusterKey;
  /** Keys whose values are never shown: secrets, and what follows a secret in the URL (an unencoded '&'). */
  private final Set<String> hidden;

  private RyowConfig(
      HostSpec primary,
      List<HostSpec> replicas,
      String database,
      Map<String, String> passThrough,
      Map<RyowProperty<?>, Object> values,
      Set<String> hidden) {
    this.primary = primary;
    this.hidden = Set.copyOf(hidden);
    this.replicas = List.copyOf(replicas);
    this.database = database;
    this.passThrough = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(passThrough));
    this.values = Map.copyOf(values);
    this.clusterKey = primary + "," + this.replicas + "/" + database + new TreeMap<>(settingsText());
  }

  /**
   * Parses and validates a URL plus {@code info} (as given to {@code Driver.connect}). As with
   * Connector/J, {@code info} entries win over URL parameters with the same key (the {@code user} and
   * {@code password} given to {@code getConnection(url, user, password)} are the ones that log in). Entries of {@code info}
   * that are not
   * {@code String}s are converted or refused ({@link ConnectionProperties}), never ignored.
   */
  public static RyowConfig from(String url, Properties info) throws ConfigException {
    RyowUrl parsed = RyowUrl.parse(url);
    Map<String, String> merged = new LinkedHashMap<>(parsed.parameters());
    merged.putAll(ConnectionProperties.text(info));
    Set<String> hidden = new HashSet<>();
    boolean afterSecret = false;
    for (String key : parsed.parameters().keySet()) {
      afterSecret |= Masking.isSecretKey(key);
      if (afterSecret) {
        hidden.add(key);
      }
    }

    Map<RyowProperty<?>, Object> values = new HashMap<>();
    Map<String, String> passThrough = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : merged.entrySet()) {
      String key = e.getKey();
      if (key.regionMatches(true, 0, RyowProperties.PREFIX, 0, RyowProperties.PREFIX.length())) {
        RyowProperty<?> property =
            RyowProperties.find(key)
                .orElseThrow(
                    () ->
                        new ConfigException(
                            "Unknown property '" + key + "'. Valid ryow.* properties: " + RyowProperties.validNames()));
        try {
          values.put(property, property.parse(e.getValue()));
        } catch (IllegalArgumentException bad) {
          throw new ConfigException(Objects.requireNonNullElse(bad.getMessage(), "Invalid value for " + property.name()), bad);
        }
      } else {
        passThrough.put(key, e.getValue());
      }
    }
    for (RyowProperty<?> property : RyowProperties.ALL) {
      values.putIfAbsent(property, property.defaultValue());
    }

    List<HostSpec> hosts = parsed.hosts();
    if (hosts.size() < 2) {
      throw new ConfigException(
          "The URL names only the primary (" + hosts.get(0) + "): list at least one replica after it, as in "
              + RyowUrl.SCHEME + "mysql://primary:3306,replica1:3306,replica2:3306/db");
    }
    Set<HostSpec> seen = new HashSet<>();
    for (HostSpec host : hosts) {
      if (!seen.add(host)) {
        throw new ConfigException("Host " + host + " appears twice in the URL");
      }
    }
    return new RyowConfig(
        hosts.get(0), new ArrayList<>(hosts.subList(1, hosts.size())), parsed.database(), passThrough, values, hidden);
  }

  /** The primary as written first in the URL. */
  public HostSpec primary() {
    return primary;
  }

  /** The replicas, in URL order; never empty. */
  public List<HostSpec> replicas() {
    return replicas;
  }

  /** The default schema, empty if the URL names none. */
  public String database() {
    return database;
  }

  /** The typed value of a setting (its default if not given). */
  public <T> T get(RyowProperty<T> property) {
    @SuppressWarnings("unchecked")
    T value = (T) Objects.requireNonNull(values.get(property));
    return value;
  }

  /** A fresh copy of the properties for Connector/J (everything without the {@code ryow.} prefix). */
  public Properties connectorProperties() {
    Properties copy = new Properties();
    passThrough.forEach(copy::setProperty);
    return copy;
  }

  /** A boolean Connector/J property as Connector/J reads it: {@code true} or {@code yes}, any case. */
  public boolean connectorFlag(String name) {
    String v = passThrough.get(name);
    return v != null && ("true".equalsIgnoreCase(v.trim()) || "yes".equalsIgnoreCase(v.trim()));
  }

  /** The cluster's name for logs and JMX: {@code ryow.clusterName}, or the primary's {@code host:port}. */
  public String clusterName() {
    String name = get(RyowProperties.CLUSTER_NAME);
    return name.isEmpty() ? primary.address() : name;
  }

  /** Identity of the cluster this config describes: hosts, database and settings, not credentials. */
  public String clusterKey() {
    return clusterKey;
  }

  private Map<String, String> settingsText() {
    Map<String, String> text = new HashMap<>();
    values.forEach((p, v) -> text.put(p.name(), String.valueOf(v)));
    return text;
  }

  @Override
  public String toString() {
    Map<String, String> shown = new LinkedHashMap<>();
    passThrough.forEach((k, v) -> shown.put(k, Masking.isSecretKey(k) || hidden.contains(k) ? Masking.MASK : v));
    Map<String, String> settings = new TreeMap<>(settingsText());
    settings.replaceAll((k, v) -> Masking.isSecretKey(k) && !v.isEmpty() ? Masking.MASK : v);
    return "RyowConfig[primary=" + primary + ", replicas=" + replicas + ", database=" + database
        + ", settings=" + settings + ", connector=" + shown + "]";
  }
}
