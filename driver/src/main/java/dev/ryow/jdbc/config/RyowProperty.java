package dev.ryow.jdbc.config;

import java.util.List;
import java.util.Objects;

/**
 * One {@code ryow.*} setting: its name, type, default and documentation, defined once.
 *
 * <p>Validation ({@link RyowConfig}), {@code Driver.getPropertyInfo} and the property table of {@code docs/configuration.md}
 * are all derived from the constants of {@link RyowProperties}.
 *
 * @param <T> the typed value
 */
public final class RyowProperty<T> {
  private final String name;
  private final PropertyType<T> type;
  private final String defaultText;
  private final T defaultValue;
  private final String description;

  RyowProperty(String name, PropertyType<T> type, String defaultText, String description) {
    this.name = Objects.requireNonNull(name);
    this.type = Objects.requireNonNull(type);
    this.defaultText = Objects.requireNonNull(defaultText);
    this.defaultValue = type.parse(defaultText);
    this.description = Objects.requireNonNull(description);
  }

  /** The key, e.g. {@code ryow.waitTimeout}. */
  public String name() {
    return name;
  }

  /** The default as it would be written in a URL. */
  public String defaultText() {
    return defaultText;
  }

  /** The typed default. */
  public T defaultValue() {
    return defaultValue;
  }

  /** One-sentence documentation. */
  public String description() {
    return description;
  }

  /** Accepted values, empty when free-form. */
  public List<String> choices() {
    return type.choices();
  }

  /** What the value must look like, e.g. {@code "integer 1..60000"}. */
  public String accepted() {
    return type.describe();
  }

  /**
   * Parses and validates a user-supplied value as a URL's would be (type, bounds, choices).
   *
   * @throws IllegalArgumentException {@code Invalid value for <name>: …}, the message a URL gets; it never
   *     quotes the value
   */
  public T parse(String text) {
    try {
      return type.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Invalid value for " + name + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
