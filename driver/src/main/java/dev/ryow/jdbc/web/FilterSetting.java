package dev.ryow.jdbc.web;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One setting of {@link RyowConsistencyFilter}, defined once: its init-parameter name, its name under
 * {@code ryow.web.} in the Spring Boot starter, its default and how its text is parsed. The filter's init
 * parameters and the starter's {@code ryow.web.*} settings both read through these constants, so that a
 * value means the same, has the same default and fails with the same message in both.
 *
 * @param <T> the typed value
 */
public final class FilterSetting<T> {
  // Before the constants, whose defaults are parsed when they are created.
  private static final Pattern DURATION = Pattern.compile("(\\d{1,10})(ms|s|m|h|d)?");
  private static final String NON_BLANK = "a non-empty text";
  private static final String BOOLEAN = "'false' or 'true'";
  private static final String DURATION_FORMS =
      "whole seconds, a whole number with ms, s, m, h or d, or ISO-8601 (PT5M), at most 2147483647 s";
  /** The request and response header that carries the token; with a cookie transport, the header of service calls. */
  public static final FilterSetting<String> HEADER_NAME =
      new FilterSetting<>("headerName", "header-name",
          "The request and response header that carries the token (transport=header); with the cookie "
              + "transport, the header of calls between services.",
          RyowConsistencyFilter.DEFAULT_HEADER, NON_BLANK, FilterSetting::nonBlank);
  /** What the filter does with a token it cannot accept: {@code ignore} (an empty scope) or {@code reject} (400). */
  public static final FilterSetting<Boolean> INVALID_TOKEN_REJECTED =
      new FilterSetting<>("invalidToken", "invalid-token",
          "What the filter does with a token it cannot accept (malformed, too large, unsigned or forged): "
              + "ignore (serve the request with an empty scope) or reject (answer 400).",
          "ignore", "'ignore' or 'reject'", t -> choice(t, "ignore", "reject"));
  /** The cookie's name. */
  public static final FilterSetting<String> COOKIE_NAME =
      new FilterSetting<>("cookieName", "cookie.name",
          "Name of the token cookie.",
          "RYOW_TOKEN", NON_BLANK, FilterSetting::nonBlank);
  /** The cookie's {@code Path}. */
  public static final FilterSetting<String> COOKIE_PATH =
      new FilterSetting<>("cookiePath", "cookie.path",
          "Path of the token cookie.",
          "/", NON_BLANK, FilterSetting::nonBlank);
  /** Whether the cookie is {@code HttpOnly} (scripts never need the token). */
  public static final FilterSetting<Boolean> COOKIE_HTTP_ONLY =
      new FilterSetting<>("cookieHttpOnly", "cookie.http-only",
          "Whether the token cookie is HttpOnly (scripts never need the token).",
          "true", BOOLEAN, t -> choice(t, "false", "true"));
  /** Whether the cookie is {@code Secure} (sent over HTTPS only). */
  public static final FilterSetting<Boolean> COOKIE_SECURE =
      new FilterSetting<>("cookieSecure", "cookie.secure",
          "Whether the token cookie is Secure (sent over HTTPS only); set it behind TLS.",
          "false", BOOLEAN, t -> choice(t, "false", "true"));
  /** The cookie's {@code SameSite} attribute ({@code Lax}, {@code Strict}, {@code None}); empty for none. */
  public static final FilterSetting<String> COOKIE_SAME_SITE =
      new FilterSetting<>("cookieSameSite", "cookie.same-site",
          "SameSite attribute of the token cookie (Lax, Strict or None); empty for none.",
          "Lax", "any text", String::trim);
  /** The cookie's {@code Max-Age}, counted from the last response that changed the token: seconds, or with a unit. */
  public static final FilterSetting<Duration> COOKIE_MAX_AGE =
      new FilterSetting<>("cookieMaxAge", "cookie.max-age",
          "Max-Age of the token cookie, counted from the last response that changed the token (a write): the "
              + "token matters only while replicas may lag behind that write. Whole seconds, a number with ms, s, m, "
              + "h or d, or ISO-8601.",
          "5m", DURATION_FORMS, FilterSetting::duration);

  /** Every setting, in the order the filter applies them (the cookie's name before its attributes). */
  public static final List<FilterSetting<?>> ALL = List.of(
      HEADER_NAME, INVALID_TOKEN_REJECTED, COOKIE_NAME, COOKIE_PATH, COOKIE_HTTP_ONLY, COOKIE_SECURE, COOKIE_SAME_SITE,
      COOKIE_MAX_AGE);

  private final String parameter;
  private final String springName;
  private final String defaultText;
  private final String description;
  private final T defaultValue;
  private final String accepted;
  /** The value of a text, or null when the text is not one it accepts. */
  private final Function<String, @Nullable T> parser;

  private FilterSetting(String parameter, String springName, String description, String defaultText, String accepted,
      Function<String, @Nullable T> parser) {
    this.parameter = parameter;
    this.springName = springName;
    this.description = description;
    this.defaultText = defaultText;
    this.accepted = accepted;
    this.parser = parser;
    this.defaultValue = parse(defaultText);
  }

  /** The filter's init parameter, e.g. {@code cookieSameSite}. */
  public String parameter() {
    return parameter;
  }

  /** The name under {@code ryow.web.} in Spring configuration, e.g. {@code cookie.same-site}. */
  public String springName() {
    return springName;
  }

  /** The default, as it would be written. */
  public String defaultText() {
    return defaultText;
  }

  /** One-sentence documentation. */
  public String description() {
    return description;
  }

  /** The typed default. */
  public T defaultValue() {
    return defaultValue;
  }

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException naming the setting both ways, what it accepts and the text
   */
  public T parse(String text) {
    T value = parser.apply(Objects.requireNonNull(text, "text"));
    if (value == null) {
      throw new IllegalArgumentException(parameter + " (ryow.web." + springName + ") must be " + accepted + ", not '" + text
          + "'");
    }
    return value;
  }

  /** {@code text} parsed, or the default when it is null or blank (absent). */
  public T parseOrDefault(@Nullable String text) {
    return text == null || text.isBlank() ? defaultValue : parse(text);
  }

  @Override
  public String toString() {
    return parameter;
  }

  private static @Nullable String nonBlank(String text) {
    return text.isBlank() ? null : text.trim();
  }

  /** {@code false}/{@code true} for the two choices, whatever their case. */
  private static @Nullable Boolean choice(String text, String no, String yes) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.equals(no)) {
      return Boolean.FALSE;
    }
    if (t.equals(yes)) {
      return Boolean.TRUE;
    }
    return null;
  }

  /**
   * Whole seconds ({@code 300}), a whole number with a unit ({@code 5m}, {@code 300s}, {@code 1h}, {@code 1d}), or
   * ISO-8601 ({@code PT5M}), as Spring Boot writes durations.
   */
  private static @Nullable Duration duration(String text) {
    String t = text.trim();
    Duration d;
    if (t.startsWith("P") || t.startsWith("p")) {
      try {
        d = Duration.parse(t);
      } catch (java.time.format.DateTimeParseException e) {
        return null;
      }
    } else {
      Matcher m = DURATION.matcher(t);
      if (!m.matches()) {
        return null;
      }
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "s" : m.group(2);
      d = switch (unit) {
        case "ms" -> Duration.ofMillis(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        case "d" -> Duration.ofDays(n);
        default -> Duration.ofSeconds(n);
      };
    }
    if (d.isNegative() || d.toSeconds() > Integer.MAX_VALUE) {
      return null;
    }
    return d;
  }
}
