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

  /**
   * A URL with credentials in its host part ({@code user:password@host}) and secret parameters masked.
   * A secret may contain an unencoded {@code &}, which makes its tail look like more parameters:
   * everything after the first secret parameter is masked too, as is any part that is not
   * {@code key=value}.
   */
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
      String pair = pairs[i];
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        out.append(MASK);
        continue;
      }
      String key = pair.substring(0, eq);
      if (isSecretKey(key)) {
        out.append(key).append('=').append(MASK);
        if (i < pairs.length - 1) {
          out.append("&…");
        }
        break;
      }
      out.append(pair);
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

}
