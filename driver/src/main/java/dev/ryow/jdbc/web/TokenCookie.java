package dev.ryow.jdbc.web;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How {@link RyowConsistencyFilter} carries the token in a cookie: its name and attributes. Immutable;
 * start from {@link #named(String)} and change one attribute at a time.
 *
 * <p>Defaults, those of {@link FilterSetting} (the filter's init parameters and the starter's
 * {@code ryow.web.cookie.*}): path {@code /}, {@code HttpOnly}, not {@code Secure}, {@code SameSite=Lax},
 * {@code Max-Age} 5 minutes counted from the last response that changed the token (the token matters only
 * while replicas may lag behind that write).
 */
public final class TokenCookie {
  private final String name;
  private final String path;
  private final boolean httpOnly;
  private final boolean secure;
  private final @Nullable String sameSite;
  private final @Nullable Duration maxAge;

  private TokenCookie(
      String name, String path, boolean httpOnly, boolean secure, @Nullable String sameSite, @Nullable Duration maxAge) {
    if (name.isBlank()) {
      throw new IllegalArgumentException("the token cookie needs a name");
    }
    if (maxAge != null && (maxAge.isNegative() || maxAge.toSeconds() > Integer.MAX_VALUE)) {
      throw new IllegalArgumentException("the token cookie's max age must be 0 or more seconds, not " + maxAge);
    }
    this.name = name;
    this.path = Objects.requireNonNull(path, "path");
    this.httpOnly = httpOnly;
    this.secure = secure;
    this.sameSite = sameSite == null || sameSite.isBlank() ? null : sameSite;
    this.maxAge = maxAge;
  }

  /** A cookie called {@code name} with the default attributes. */
  public static TokenCookie named(String name) {
    return new TokenCookie(name, FilterSetting.COOKIE_PATH.defaultValue(), FilterSetting.COOKIE_HTTP_ONLY.defaultValue(),
        FilterSetting.COOKIE_SECURE.defaultValue(), FilterSetting.COOKIE_SAME_SITE.defaultValue(),
        FilterSetting.COOKIE_MAX_AGE.defaultValue());
  }

  /** The same cookie with {@code Path=path}. */
  public TokenCookie path(String path) {
    return new TokenCookie(name, path, httpOnly, secure, sameSite, maxAge);
  }

  /** The same cookie, {@code HttpOnly} or not (scripts never need the token: keep it). */
  public TokenCookie httpOnly(boolean httpOnly) {
    return new TokenCookie(name, path, httpOnly, secure, sameSite, maxAge);
  }

  /** The same cookie, {@code Secure} (sent over HTTPS only) or not. */
  public TokenCookie secure(boolean secure) {
    return new TokenCookie(name, path, httpOnly, secure, sameSite, maxAge);
  }

  /** The same cookie with {@code SameSite=sameSite} ({@code Lax}, {@code Strict}, {@code None}), or none if null. */
  public TokenCookie sameSite(@Nullable String sameSite) {
    return new TokenCookie(name, path, httpOnly, secure, sameSite, maxAge);
  }

  /** The same cookie with {@code Max-Age}, counted from the last response that changed the token; null: none. */
  public TokenCookie maxAge(@Nullable Duration maxAge) {
    return new TokenCookie(name, path, httpOnly, secure, sameSite, maxAge);
  }

  /** The cookie's name. */
  public String name() {
    return name;
  }

  /** Its {@code Path}. */
  public String path() {
    return path;
  }

  /** Whether it is {@code HttpOnly}. */
  public boolean isHttpOnly() {
    return httpOnly;
  }

  /** Whether it is {@code Secure}. */
  public boolean isSecure() {
    return secure;
  }

  /** Its {@code SameSite} value, or null. */
  public @Nullable String sameSite() {
    return sameSite;
  }

  /** Its {@code Max-Age}, or null for a browser-session cookie. */
  public @Nullable Duration maxAge() {
    return maxAge;
  }

  @Override
  public String toString() {
    return "TokenCookie[" + name + ", path=" + path + ", httpOnly=" + httpOnly + ", secure=" + secure
        + ", sameSite=" + sameSite + ", maxAge=" + maxAge + "]";
  }
}
