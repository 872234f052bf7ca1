package dev.ryow.spring.boot;

import dev.ryow.jdbc.web.FilterSetting;
import dev.ryow.jdbc.web.TokenCookie;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The consistency filter's settings in Spring configuration: each {@link FilterSetting} at
 * {@code ryow.web.<its Spring name>} (relaxed binding), parsed by the filter's own definition, so that it has
 * the filter's default and the filter's message when it is wrong.
 */
final class FilterSettingsBinder {
  private final Binder binder;

  private FilterSettingsBinder(Binder binder) {
    this.binder = binder;
  }

  static FilterSettingsBinder of(Environment environment) {
    return new FilterSettingsBinder(Binder.get(environment));
  }

  /**
   * The value of {@code setting}, or its default when it is not set.
   *
   * @throws IllegalArgumentException with the filter's message, naming {@code ryow.web.<name>}, when it is invalid
   */
  <T> T value(FilterSetting<T> setting) {
    return binder.bind("ryow.web." + setting.springName(), String.class).map(setting::parse).orElse(setting.defaultValue());
  }

  /** The token cookie {@code ryow.web.cookie.*} describes. */
  TokenCookie cookie() {
    return TokenCookie.named(value(FilterSetting.COOKIE_NAME))
        .path(value(FilterSetting.COOKIE_PATH))
        .httpOnly(value(FilterSetting.COOKIE_HTTP_ONLY))
        .secure(value(FilterSetting.COOKIE_SECURE))
        .sameSite(value(FilterSetting.COOKIE_SAME_SITE))
        .maxAge(value(FilterSetting.COOKIE_MAX_AGE));
  }
}
