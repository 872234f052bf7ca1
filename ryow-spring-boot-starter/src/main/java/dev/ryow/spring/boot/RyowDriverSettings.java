package dev.ryow.spring.boot;

import dev.ryow.jdbc.config.ConfigException;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.RyowProperty;
import dev.ryow.jdbc.config.RyowUrl;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The driver's {@code ryow.*} settings given in Spring configuration, keyed by the driver's names
 * ({@code ryow.waitTimeout}), bound with relaxed binding from their Spring names
 * ({@code ryow.wait-timeout}). A key under {@code ryow.} in the application's configuration files or
 * command line that is neither a driver setting nor one of the starter's groups is an error, as an
 * unknown {@code ryow.*} key is for the driver (environment variables and system properties are not
 * checked: {@code RYOW_*} variables of other tools are common).
 */
public final class RyowDriverSettings {
  private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("ryow");

  private final Map<String, String> values;

  private RyowDriverSettings(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /**
   * Binds the settings from {@code environment}.
   *
   * @throws IllegalStateException naming the key, if a key under {@code ryow.} is unknown
   */
  public static RyowDriverSettings bind(Environment environment) {
    rejectUnknownKeys(environment);
    Binder binder = Binder.get(environment);
    Map<String, String> values = new LinkedHashMap<>();
    for (RyowProperty<?> p : RyowProperties.ALL) {
      binder.bind(DriverSettingNames.springName(p), String.class).ifBound(v -> values.put(p.name(), v));
    }
    return new RyowDriverSettings(values);
  }

  /** The settings given, by driver name, in the driver's table order. */
  public Map<String, String> values() {
    return values;
  }

  /** Whether no setting was given. */
  public boolean isEmpty() {
    return values.isEmpty();
  }

  /**
   * Adds the settings to {@code target} (the properties a DataSource hands to the driver with {@code url}).
   * A setting that the URL or {@code target} already has with another value is an error: one would
   * silently override the other, so the configuration says it once.
   *
   * @param where the DataSource, for messages
   * @throws IllegalStateException naming the setting and both places, never a value
   */
  public void addTo(String url, Properties target, String where) {
    Map<String, String> inUrl = new LinkedHashMap<>();
    try {
      RyowUrl.parse(url).parameters().forEach((k, v) -> inUrl.put(k.toLowerCase(Locale.ROOT), v));
    } catch (ConfigException e) {
      throw new IllegalStateException(where + ": " + e.getMessage(), e);
    }
    for (Map.Entry<String, String> e : values.entrySet()) {
      String name = e.getKey();
      String spring = DriverSettingNames.springName(RyowProperties.find(name).orElseThrow());
      String fromUrl = inUrl.get(name.toLowerCase(Locale.ROOT));
      if (fromUrl != null && !fromUrl.equals(e.getValue())) {
        throw new IllegalStateException(where + ": " + spring + " is set in Spring configuration and, differently, as "
            + name + " in the URL: set it in one place");
      }
      for (String key : target.stringPropertyNames()) {
        if (key.equalsIgnoreCase(name) && !target.getProperty(key).equals(e.getValue())) {
          throw new IllegalStateException(where + ": " + spring + " is set in Spring configuration and, differently, as the"
              + " data source property " + key + ": set it in one place");
        }
      }
      target.setProperty(name, e.getValue());
    }
  }

  private static void rejectUnknownKeys(Environment environment) {
    Set<String> known = new HashSet<>(DriverSettingNames.STARTER_GROUPS);
    for (RyowProperty<?> p : RyowProperties.ALL) {
      known.add(DriverSettingNames.uniformElement(p));
    }
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      if (!(source instanceof IterableConfigurationPropertySource iterable) || isEnvironmentOrSystem(source)) {
        continue;
      }
      iterable.stream()
          .filter(name -> ROOT.isAncestorOf(name))
          .filter(name -> !known.contains(name.getElement(1, Form.UNIFORM)))
          .findFirst()
          .ifPresent(name -> {
            throw new IllegalStateException("Unknown property '" + name + "' (" + describe(source) + "). Valid ryow.*"
                + " driver settings: " + DriverSettingNames.validNames() + "; the starter's own: ryow.web.*,"
                + " ryow.client.*, ryow.annotations.*, ryow.metrics.*, ryow.datasource.*");
          });
    }
  }

  private static boolean isEnvironmentOrSystem(ConfigurationPropertySource source) {
    Object underlying = source.getUnderlyingSource();
    if (!(underlying instanceof PropertySource<?> ps)) {
      return false;
    }
    return StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(ps.getName())
        || StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME.equals(ps.getName());
  }

  private static String describe(ConfigurationPropertySource source) {
    Object underlying = source.getUnderlyingSource();
    return underlying instanceof PropertySource<?> ps ? "from " + ps.getName() : "from " + underlying;
  }

  /** The names of the settings given, never their values. */
  @Override
  public String toString() {
    return "RyowDriverSettings" + values.keySet();
  }
}
