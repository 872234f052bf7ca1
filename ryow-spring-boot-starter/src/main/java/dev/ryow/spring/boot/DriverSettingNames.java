package dev.ryow.spring.boot;

import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.RyowProperty;
import java.util.List;
import java.util.Locale;

/**
 * The Spring names of the driver's {@code ryow.*} settings: the kebab-case form of the driver's name
 * ({@code ryow.waitTimeout} is {@code ryow.wait-timeout}; relaxed binding also accepts
 * {@code ryow.waitTimeout} and {@code RYOW_WAITTIMEOUT}), and the names the starter keeps for itself.
 */
public final class DriverSettingNames {
  /** The starter's own groups under {@code ryow.}: never driver settings. */
  public static final List<String> STARTER_GROUPS = List.of("web", "client", "messaging", "annotations", "metrics", "datasource");

  private DriverSettingNames() {}

  /** {@code ryow.waitTimeout} → {@code ryow.wait-timeout}. */
  public static String springName(RyowProperty<?> property) {
    String name = property.name();
    StringBuilder out = new StringBuilder(name.length() + 4);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c)) {
        out.append('-').append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** Every driver setting's Spring name, in the driver's table order, for messages. */
  public static String validNames() {
    StringBuilder out = new StringBuilder();
    for (RyowProperty<?> p : RyowProperties.ALL) {
      out.append(out.length() == 0 ? "" : ", ").append(springName(p));
    }
    return out.toString();
  }

  /** The element after {@code ryow.} in Spring's uniform form (lower case, no dashes), e.g. {@code waittimeout}. */
  static String uniformElement(RyowProperty<?> property) {
    return property.name().substring(RyowProperties.PREFIX.length()).toLowerCase(Locale.ROOT);
  }
}
