package dev.ryow.jdbc.config;

import java.util.Locale;

/** Keeps secrets out of messages: anything that looks like a password value is replaced. */
public final class Masking {
  /** What a secret is replaced with. */
  public static final String MASK = "****";

  private Masking() {}

  /** Whether a property key holds a secret (password, password1..3, keystore passwords, ...). */
  public static boolean isSecretKey(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return k.contains("password") || k.contains("secret") || k.endsWith("key");
  }

  /** A URL with credentials in its host part ({@code user:password@host}) and the values of secret parameters masked. */
  public static String maskUrl(String url) {
    url = maskUserInfo(url);
    int query = url.indexOf('?');
    if (query < 0) {
      return url;
    }
    StringBuilder out = new StringBuilder(url.length()).append(url, 0, query + 1);
    String[] pairs = url.substring(query + 1).split("&", -1);
    for (int i = 0; i < pairs.length; i++) {
      if (i > 0) {
        out.append('&');
      }
      out.append(maskParameter(pairs[i]));
    }
    return out.toString();
  }

  private static String maskUserInfo(String url) {
    int start = url.indexOf("//");
    if (start < 0) {
      return url;
    }
    start += 2;
    int end = start;
    while (end < url.length() && url.charAt(end) != '?') {
      end++;
    }
    String hosts = url.substring(start, end);
    if (hosts.indexOf('@') < 0) {
      return url;
    }
    // Everything up to the last '@' before the query goes: a password may itself contain ',', '/' or '@'.
    return url.substring(0, start) + MASK + hosts.substring(hosts.lastIndexOf('@')) + url.substring(end);
  }

  /** One {@code key=value} pair with the value masked if the key is secret. */
  public static String maskParameter(String pair) {
    int eq = pair.indexOf('=');
    String key = eq < 0 ? pair : pair.substring(0, eq);
    return eq >= 0 && isSecretKey(key) ? key + "=" + MASK : pair;
  }
}
