package dev.ryow.jdbc;

import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.MalformedGtidSetException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * Turns a watermark into a consistency token and back, strictly: a token is the GTID set text
 * ({@code uuid:1-5,uuid2:7}), or, with a key, that text followed by {@code .} and a base64url
 * HMAC-SHA256 signature (128 bits). Decoding checks the length first, then the signature (in constant
 * time), then parses with a bound on the number of intervals; nothing else is accepted.
 *
 * <p>Immutable and thread-safe. Tokens reach servers only as bound parameters.
 */
public final class TokenCodec {
  /** Default longest token, in characters. */
  public static final int DEFAULT_MAX_LENGTH = 2048;
  /** Default most intervals in a token. */
  public static final int DEFAULT_MAX_INTERVALS = 64;
  /** Unsigned tokens with the default bounds. */
  public static final TokenCodec DEFAULT = new TokenCodec(DEFAULT_MAX_LENGTH, DEFAULT_MAX_INTERVALS, null);

  private static final String HMAC = "HmacSHA256";
  private static final int SIGNATURE_BYTES = 16;
  private static final char SEPARATOR = '.';
  /** The separator and the unpadded base64url signature that a signed token adds to the set's text. */
  private static final int SIGNATURE_SUFFIX_LENGTH = 1 + (SIGNATURE_BYTES * 4 + 2) / 3;

  private final int maxLength;
  private final int maxIntervals;
  private final byte @Nullable [] key;

  private TokenCodec(int maxLength, int maxIntervals, byte @Nullable [] key) {
    if (maxLength < 1 || maxIntervals < 1) {
      throw new IllegalArgumentException("token bounds must be positive");
    }
    this.maxLength = maxLength;
    this.maxIntervals = maxIntervals;
    this.key = key == null ? null : key.clone();
  }

  /** A codec with the given bounds; {@code key} null or empty means unsigned tokens. */
  public static TokenCodec of(int maxLength, int maxIntervals, @Nullable String key) {
    return new TokenCodec(
        maxLength, maxIntervals, key == null || key.isEmpty() ? null : key.getBytes(StandardCharsets.UTF_8));
  }

  /** The codec a {@code jdbc:ryow:} configuration describes ({@code ryow.token*} properties). */
  public static TokenCodec of(RyowConfig config) {
    return of(
        config.get(RyowProperties.TOKEN_MAX_LENGTH),
        config.get(RyowProperties.TOKEN_MAX_INTERVALS),
        config.get(RyowProperties.TOKEN_KEY));
  }

  /** Whether tokens are signed. */
  public boolean signed() {
    return key != null;
  }

  /**
   * The token for {@code gtids}; empty for the empty set when unsigned. Every token it returns is one
   * {@link #decode} accepts: a set too large for the bounds is first widened to one interval per
   * (UUID, tag) ({@link GtidSet#spanned()}), a superset whose extra GTIDs lie between GTIDs of the
   * set. A reader whose primary never executed one of them handles it by {@code ryow.unknownGtids}.
   *
   * @throws IllegalArgumentException if even the widened set exceeds the bounds (more UUIDs and tags
   *     than {@code ryow.tokenMaxLength} or {@code ryow.tokenMaxIntervals} allow)
   */
  public String encode(GtidSet gtids) {
    GtidSet set = fits(gtids) ? gtids : gtids.spanned();
    if (!fits(set)) {
      throw new IllegalArgumentException(
          "A GTID set of " + set.sourceCount() + " UUIDs and tags does not fit in a consistency token (ryow.tokenMaxLength="
              + maxLength + ", ryow.tokenMaxIntervals=" + maxIntervals + "): raise them");
    }
    String text = set.toString();
    byte[] k = key;
    return k == null ? text : text + SEPARATOR + signature(k, text);
  }

  /** Whether {@code gtids} encodes within the bounds as it is, without widening. */
  public boolean fits(GtidSet gtids) {
    if (gtids.intervalCount() > maxIntervals) {
      return false;
    }
    return gtids.toString().length() + (key == null ? 0 : SIGNATURE_SUFFIX_LENGTH) <= maxLength;
  }

  /**
   * The GTID set a token names.
   *
   * @throws InvalidTokenException when the token is too long, malformed, has too many intervals, is
   *     unsigned where a signature is required, or its signature does not match
   */
  public GtidSet decode(@Nullable String token) throws InvalidTokenException {
    if (token == null) {
      throw new InvalidTokenException("Consistency token is missing (null)");
    }
    if (token.length() > maxLength) {
      throw new InvalidTokenException(
          "Consistency token is " + token.length() + " characters, more than ryow.tokenMaxLength=" + maxLength);
    }
    String text = token;
    byte[] k = key;
    if (k != null) {
      int dot = token.lastIndexOf(SEPARATOR);
      if (dot < 0) {
        throw new InvalidTokenException("Consistency token is not signed, and ryow.tokenKey requires a signature");
      }
      text = token.substring(0, dot);
      byte[] given = token.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
      byte[] expected = signature(k, text).getBytes(StandardCharsets.US_ASCII);
      if (!MessageDigest.isEqual(given, expected)) {
        throw new InvalidTokenException("Consistency token signature does not match (forged, or signed with another key)");
      }
    }
    try {
      return GtidSet.parse(text, maxLength, maxIntervals);
    } catch (MalformedGtidSetException e) {
      throw new InvalidTokenException("Malformed consistency token: " + e.getMessage(), e);
    }
  }

  private static String signature(byte[] key, String text) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(key, HMAC));
      byte[] full = mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(full, SIGNATURE_BYTES));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
    }
  }

  @Override
  public String toString() {
    return "TokenCodec[maxLength=" + maxLength + ", maxIntervals=" + maxIntervals + ", signed=" + signed() + "]";
  }
}
