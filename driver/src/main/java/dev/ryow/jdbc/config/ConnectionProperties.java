package dev.ryow.jdbc.config;

import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Reads a {@link Properties} given to {@code connect}, {@code getPropertyInfo} or a data source as
 * text, the way the URL gives it: every entry is honoured or refused, none silently dropped.
 *
 * <p>{@code Properties.stringPropertyNames()} skips entries whose key or value is not a
 * {@code String}; frameworks put other objects there (HikariCP's {@code addDataSourceProperty(key,
 * Object)}, an {@code Integer} for {@code ryow.waitTimeout}). Here a number, boolean, character,
 * enum or other {@code CharSequence} becomes its {@code toString()}, a {@code char[]} (a password) its
 * characters; any other type, or a key that is not a {@code String}, is a {@link ConfigException}
 * that names the key and the type, never the value.
 */
public final class ConnectionProperties {
  private ConnectionProperties() {}

  /**
   * The entries of {@code info}, its defaults included (an entry of its own wins), as text.
   *
   * @throws ConfigException for a key that is not a {@code String} or a value of an unsupported type
   */
  public static Map<String, String> text(Properties info) throws ConfigException {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<Object, Object> e : info.entrySet()) {
      Object key = e.getKey();
      if (!(key instanceof String name)) {
        throw new ConfigException("A connection property has a key of type " + key.getClass().getName()
            + ": property keys must be Strings");
      }
      out.put(name, text(name, e.getValue()));
    }
    Enumeration<?> names;
    try {
      names = info.propertyNames();
    } catch (ClassCastException e) {
      throw new ConfigException("The connection properties' defaults have a key that is not a String: property keys"
          + " must be Strings");
    }
    while (names.hasMoreElements()) {
      String name = (String) names.nextElement();
      if (out.containsKey(name)) {
        continue;
      }
      String value = info.getProperty(name);
      if (value == null) {
        // Listed by propertyNames() but not a String in the defaults: Properties gives no access to it.
        throw new ConfigException("Connection property '" + name + "' has a value that is not a String in the"
            + " Properties' defaults: set it as a String, or in the Properties themselves");
      }
      out.put(name, value);
    }
    return out;
  }

  /**
   * {@code value} of property {@code key} as text.
   *
   * @throws ConfigException for a value of an unsupported type
   */
  public static String text(String key, Object value) throws ConfigException {
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof char[] chars) {
      return new String(chars);
    }
    if (value instanceof Number || value instanceof Boolean || value instanceof Character
        || value instanceof Enum<?> || value instanceof CharSequence) {
      return value.toString();
    }
    throw new ConfigException("Connection property '" + key + "' has a value of type " + value.getClass().getName()
        + ": give a String (numbers, booleans, characters, enums and char[] are converted)");
  }
}
