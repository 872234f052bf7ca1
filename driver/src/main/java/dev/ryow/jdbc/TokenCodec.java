package dev.ryow.jdbc;

import dev.ryow.jdbc.config.RyowConfig;
import dev.ryow.jdbc.config.RyowProperties;
import dev.ryow.jdbc.config.RyowProperty;
import dev.ryow.jdbc.gtid.GtidSet;
import dev.ryow.jdbc.gtid.MalformedGtidSetException;
import dev.ryow.jdbc.gtid.Position;
import dev.ryow.jdbc.gtid.PositionKind;
import dev.ryow.jdbc.gtid.Positions;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * Turns a watermark into a consistency token and back, strictly. A token names the writes a later
 * read must see and, for monotonic reads, what earlier reads saw:
 *
 * <ul>
 *   <li>{@code WRITES}: the GTID set text ({@code uuid:1-5,uuid2:7}), when there is nothing about reads
 *       (the only form before monotonic reads; still accepted and still produced then);
 *   <li>{@code WRITES~READS} or {@code WRITES~READS~SERVERS}: {@code READS} a GTID set that contains
 *       everything the reads saw (may be empty), {@code SERVERS} the {@code server_uuid}s (or {@code *},
 *       any server) of at most {@value #MAX_PENDING_SERVERS} servers whose latest reads were not bounded
 *       yet when the token was made: the receiver bounds them by a position of that server read after
 *       the token arrived.
 * </ul>
 *
 * <p>The GTID sets are MySQL's. A token of MariaDB GTID positions ({@code domain-server-seq,...}, one per domain)
 * starts with its kind and format version, {@code d1:} ({@link PositionKind#MARIADB_GTID}'s tag and version 1),
 * before the same parts: {@code d1:0-21-57,7-21-3~0-21-60~*}. A MySQL token has no such prefix (its first part
 * is a 36-character UUID, whose third character is never a colon), so tokens made before MariaDB support
 * read as they did. A token of binary-log positions (servers without GTIDs, {@code uuid:file:offset} with the
 * primary's {@code server_uuid}) starts with {@code b1:}. An unknown kind or version is refused, as is a token
 * mixing kinds.
 *
 * <p>With a key the text is followed by {@code .} and a base64url HMAC-SHA256 signature (128 bits) of all
 * of it. Decoding checks the length first, then the signature (in constant time), then parses each
 * part with a bound on the number of intervals (for both sets together); nothing else is accepted.
 *
 * <p>Immutable and thread-safe. Tokens reach servers only as bound parameters.
 */
public final class TokenCodec {
  /** Default longest token, in characters: the default of {@code ryow.tokenMaxLength}. */
  public static final int DEFAULT_MAX_LENGTH = RyowProperties.TOKEN_MAX_LENGTH.defaultValue();
  /** Default most intervals in a token: the default of {@code ryow.tokenMaxIntervals}. */
  public static final int DEFAULT_MAX_INTERVALS = RyowProperties.TOKEN_MAX_INTERVALS.defaultValue();
  /** Unsigned tokens with the default bounds. */
  public static final TokenCodec DEFAULT = new TokenCodec(DEFAULT_MAX_LENGTH, DEFAULT_MAX_INTERVALS, null);

  private static final String HMAC = "HmacSHA256";
  private static final int SIGNATURE_BYTES = 16;
  private static final char SEPARATOR = '.';
  private static final char PART = '~';
  /** The format version of a token with a kind prefix ({@code d1:}). */
  private static final char KIND_VERSION = '1';
  /** Most servers a token may name as having unbounded reads. */
  public static final int MAX_PENDING_SERVERS = 8;
  /** The separator and the unpadded base64url signature that a signed token adds to the set's text. */
  private static final int SIGNATURE_SUFFIX_LENGTH = 1 + (SIGNATURE_BYTES * 4 + 2) / 3;

  private final int maxLength;
  private final int maxIntervals;
  private final byte @Nullable [] key;
  /**
   * The key's HMAC, initialised once and never used itself: each signature works on a clone (a few
   * hundred ns) instead of a provider lookup and a key schedule (several µs). Null without a key.
   */
  private final @Nullable Mac keyedMac;

  /** Bounds already checked by their properties ({@link #of}, {@link #fromSettings}). */
  private TokenCodec(int maxLength, int maxIntervals, byte @Nullable [] key) {
    this.maxLength = maxLength;
    this.maxIntervals = maxIntervals;
    this.key = key == null ? null : key.clone();
    this.keyedMac = key == null ? null : newMac(key);
  }

  /**
   * A codec with the given bounds; {@code key} null or empty means unsigned tokens. Each value is
   * checked against its property ({@code ryow.tokenMaxLength}, {@code ryow.tokenMaxIntervals},
   * {@code ryow.tokenKey}) exactly as in a URL.
   *
   * @throws IllegalArgumentException a value outside its property's bounds, with the message a URL gets
   */
  public static TokenCodec of(int maxLength, int maxIntervals, @Nullable String key) {
    return checked(
        Integer.toString(maxLength), Integer.toString(maxIntervals), key == null ? "" : key);
  }

  /**
   * The codec that {@code ryow.token*} settings given as text describe, e.g. a servlet filter's init
   * parameters: each is parsed and validated by its property exactly as in a URL; an absent setting
   * ({@code settings} answers null) has its default.
   *
   * @param settings the text of a setting by its name ({@code ryow.tokenMaxLength}...), or null
   * @throws IllegalArgumentException a value the URL would refuse, with the same message
   */
  public static TokenCodec fromSettings(Function<String, @Nullable String> settings) {
    return checked(
        text(settings, RyowProperties.TOKEN_MAX_LENGTH),
        text(settings, RyowProperties.TOKEN_MAX_INTERVALS),
        text(settings, RyowProperties.TOKEN_KEY));
  }

  private static String text(Function<String, @Nullable String> settings, RyowProperty<?> property) {
    String text = settings.apply(property.name());
    return text == null ? property.defaultText() : text;
  }

  private static TokenCodec checked(String maxLength, String maxIntervals, String key) {
    String secret = RyowProperties.TOKEN_KEY.parse(key);
    return new TokenCodec(
        RyowProperties.TOKEN_MAX_LENGTH.parse(maxLength),
        RyowProperties.TOKEN_MAX_INTERVALS.parse(maxIntervals),
        secret.isEmpty() ? null : secret.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The codec a {@code jdbc:ryow:} configuration describes ({@code ryow.token*} properties). For the
   * driver and its Spring Boot starter: the module exports {@code RyowConfig}'s package to the starter only.
   */
  @SuppressWarnings("exports")
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
   * What a token names.
   *
   * @param writes the writes a read must see
   * @param reads a set containing what earlier reads saw (monotonic reads), possibly empty
   * @param pendingServers servers whose latest reads are not in {@code reads} yet
   */
  public record Contents(Position writes, Position reads, List<String> pendingServers) {
    /** Copies the list. */
    public Contents {
      pendingServers = List.copyOf(pendingServers);
    }

    /** Every GTID the token names: {@code writes} ∪ {@code reads}. */
    public Position all() {
      return writes.union(reads);
    }
  }

  /**
   * The token for {@code gtids} (writes only); empty for the empty set when unsigned. See
   * {@link #encode(Position, Position, List)}.
   */
  public String encode(Position gtids) {
    return encode(gtids, Positions.EMPTY, List.of());
  }

  /**
   * The token for writes and reads. Every token it returns is one {@link #read} accepts: sets too
   * large for the bounds are first widened to one interval per (UUID, tag) ({@link GtidSet#spanned()}),
   * supersets whose extra GTIDs lie between GTIDs of the sets. A reader whose primary never executed
   * one of them handles it by {@code ryow.unknownGtids}.
   *
   * @throws IllegalArgumentException if even the widened sets exceed the bounds (more UUIDs and tags
   *     than {@code ryow.tokenMaxLength} or {@code ryow.tokenMaxIntervals} allow), or more than
   *     {@value #MAX_PENDING_SERVERS} pending servers
   */
  public String encode(Position writes, Position reads, List<String> pendingServers) {
    if (pendingServers.size() > MAX_PENDING_SERVERS) {
      throw new IllegalArgumentException("A consistency token names at most " + MAX_PENDING_SERVERS + " servers");
    }
    if (!writes.isEmpty() && !reads.isEmpty() && writes.kind() != reads.kind()) {
      throw new IllegalArgumentException("A consistency token cannot name a " + writes.kind().displayName() + " and a "
          + reads.kind().displayName());
    }
    Position r = writes.contains(reads) ? Positions.EMPTY : reads;
    Position w = writes;
    if (!fits(w, r, pendingServers)) {
      w = w.spanned();
      r = r.spanned();
    }
    if (!fits(w, r, pendingServers)) {
      throw new IllegalArgumentException(
          "A GTID set of " + (w.sourceCount() + r.sourceCount()) + " UUIDs and tags does not fit in a consistency token"
              + " (" + RyowProperties.TOKEN_MAX_LENGTH.name() + "=" + maxLength + ", "
              + RyowProperties.TOKEN_MAX_INTERVALS.name() + "=" + maxIntervals + "): raise them");
    }
    String text = text(w, r, pendingServers);
    byte[] k = key;
    return k == null ? text : text + SEPARATOR + signature(k, text);
  }

  private static String text(Position writes, Position reads, List<String> pendingServers) {
    PositionKind kind = writes.isEmpty() ? reads.kind() : writes.kind();
    if (kind == PositionKind.GTID_SET && reads.isEmpty() && pendingServers.isEmpty()) {
      return writes.toString();
    }
    StringBuilder b = new StringBuilder();
    if (kind != PositionKind.GTID_SET) {
      b.append(kind.tag()).append(KIND_VERSION).append(':');
    }
    if (reads.isEmpty() && pendingServers.isEmpty()) {
      return b.append(writes).toString();
    }
    b.append(writes).append(PART).append(reads);
    for (int i = 0; i < pendingServers.size(); i++) {
      b.append(i == 0 ? PART : ',').append(pendingServers.get(i));
    }
    return b.toString();
  }

  /** Whether {@code gtids} encodes within the bounds as it is, without widening. */
  public boolean fits(Position gtids) {
    return fits(gtids, Positions.EMPTY, List.of());
  }

  /** Whether writes and reads encode within the bounds as they are, without widening. */
  public boolean fits(Position writes, Position reads, List<String> pendingServers) {
    Position r = writes.contains(reads) ? Positions.EMPTY : reads;
    if (writes.intervalCount() + r.intervalCount() > maxIntervals) {
      return false;
    }
    return text(writes, r, pendingServers).length() + (key == null ? 0 : SIGNATURE_SUFFIX_LENGTH) <= maxLength;
  }

  /**
   * Every GTID a token names (writes and reads: a read must see both).
   *
   * @throws InvalidTokenException as {@link #read}
   */
  public Position decode(@Nullable String token) throws InvalidTokenException {
    return read(token).all();
  }

  /**
   * What a token names.
   *
   * @throws InvalidTokenException when the token is too long, malformed, has too many intervals or
   *     servers, is unsigned where a signature is required, or its signature does not match
   */
  public Contents read(@Nullable String token) throws InvalidTokenException {
    if (token == null) {
      throw new InvalidTokenException("Consistency token is missing (null)");
    }
    if (token.length() > maxLength) {
      throw new InvalidTokenException(
          "Consistency token is " + token.length() + " characters, more than " + RyowProperties.TOKEN_MAX_LENGTH.name()
              + "=" + maxLength);
    }
    String text = token;
    byte[] k = key;
    if (k != null) {
      int dot = token.lastIndexOf(SEPARATOR);
      if (dot < 0) {
        throw new InvalidTokenException(
            "Consistency token is not signed, and " + RyowProperties.TOKEN_KEY.name() + " requires a signature");
      }
      text = token.substring(0, dot);
      byte[] given = token.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
      byte[] expected = signature(k, text).getBytes(StandardCharsets.US_ASCII);
      if (!MessageDigest.isEqual(given, expected)) {
        throw new InvalidTokenException("Consistency token signature does not match (forged, or signed with another key)");
      }
    }
    PositionKind kind = PositionKind.GTID_SET;
    if (text.length() >= 3 && text.charAt(2) == ':') {
      kind = kindOf(text);
      text = text.substring(3);
      if (text.isEmpty()) {
        // What names nothing is the empty token, whatever the kind: encode never makes this one.
        throw new InvalidTokenException("Malformed consistency token: a kind prefix that names nothing (the empty"
            + " token is '')");
      }
    }
    int first = text.indexOf(PART);
    int second = first < 0 ? -1 : text.indexOf(PART, first + 1);
    if (second >= 0 && text.indexOf(PART, second + 1) >= 0) {
      throw new InvalidTokenException("Malformed consistency token: more than three parts");
    }
    Position writes = set(kind, first < 0 ? text : text.substring(0, first), maxIntervals);
    if (first < 0) {
      return new Contents(writes, Positions.EMPTY, List.of());
    }
    Position reads = set(kind, second < 0 ? text.substring(first + 1) : text.substring(first + 1, second),
        maxIntervals - writes.intervalCount());
    if (writes.intervalCount() + reads.intervalCount() > maxIntervals) {
      throw new InvalidTokenException("Malformed consistency token: more than "
          + RyowProperties.TOKEN_MAX_INTERVALS.name() + "=" + maxIntervals + " intervals");
    }
    if (second < 0 && reads.isEmpty()) {
      throw new InvalidTokenException("Malformed consistency token: an empty reads part without servers");
    }
    return new Contents(writes, reads, second < 0 ? List.of() : servers(text.substring(second + 1)));
  }

  /**
   * The kind a prefixed token names, in version 1: MariaDB GTID positions ({@code d1:}) or binary-log positions
   * ({@code b1:}).
   */
  private static PositionKind kindOf(String text) throws InvalidTokenException {
    char tag = text.charAt(0);
    boolean known = tag == PositionKind.MARIADB_GTID.tag() || tag == PositionKind.BINLOG_POSITION.tag();
    if (!known || text.charAt(1) != KIND_VERSION) {
      throw new InvalidTokenException("Malformed consistency token: unknown kind or version '"
          + MalformedGtidSetException.printable(tag) + MalformedGtidSetException.printable(text.charAt(1))
          + "' (known: " + PositionKind.MARIADB_GTID.tag() + KIND_VERSION + " = MariaDB GTID positions, "
          + PositionKind.BINLOG_POSITION.tag() + KIND_VERSION + " = binary-log positions, or none = MySQL GTID set)");
    }
    return PositionKind.ofTag(tag);
  }

  private Position set(PositionKind kind, String text, int intervals) throws InvalidTokenException {
    try {
      if (kind != PositionKind.GTID_SET) {
        Position p = kind.parse(text, maxLength);
        if (!p.toString().equals(text)) {
          throw new InvalidTokenException("Malformed consistency token: a " + kind.displayName()
              + " not in its canonical form (MariaDB: one GTID per domain, by domain; no spaces)");
        }
        if (p.intervalCount() > Math.max(0, intervals)) {
          throw new InvalidTokenException(
              "Malformed consistency token: more than " + RyowProperties.TOKEN_MAX_INTERVALS.name() + "=" + maxIntervals
                  + " intervals");
        }
        return p;
      }
      return GtidSet.parse(text, maxLength, Math.max(0, intervals));
    } catch (MalformedGtidSetException e) {
      throw new InvalidTokenException("Malformed consistency token: " + e.getMessage(), e);
    }
  }

  private static List<String> servers(String text) throws InvalidTokenException {
    List<String> out = new ArrayList<>();
    int from = 0;
    while (true) {
      int comma = text.indexOf(',', from);
      String server = comma < 0 ? text.substring(from) : text.substring(from, comma);
      if (!isServer(server)) {
        throw new InvalidTokenException("Malformed consistency token: a server must be a server_uuid or *");
      }
      if (out.size() == MAX_PENDING_SERVERS) {
        throw new InvalidTokenException(
            "Malformed consistency token: more than " + MAX_PENDING_SERVERS + " servers");
      }
      out.add(server.toLowerCase(java.util.Locale.ROOT));
      if (comma < 0) {
        return out;
      }
      from = comma + 1;
    }
  }

  /** A canonical {@code server_uuid} (8-4-4-4-12 hex digits) or {@code *}. */
  private static boolean isServer(String s) {
    if (s.equals("*")) {
      return true;
    }
    if (s.length() != 36) {
      return false;
    }
    for (int i = 0; i < 36; i++) {
      char c = s.charAt(i);
      boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
      boolean hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
      if (dash ? c != '-' : !hex) {
        return false;
      }
    }
    return true;
  }

  private String signature(byte[] key, String text) {
    byte[] full = macFor(key).doFinal(text.getBytes(StandardCharsets.UTF_8));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(full, SIGNATURE_BYTES));
  }

  /** A fresh HMAC of {@code key}: a clone of the prepared one where the provider allows it. */
  private Mac macFor(byte[] key) {
    Mac prepared = keyedMac;
    if (prepared != null) {
      try {
        return (Mac) prepared.clone();  // reads the prepared Mac only: safe from any thread
      } catch (CloneNotSupportedException notCloneable) {
        // a provider whose HMAC cannot be cloned: initialise one per signature
      }
    }
    return newMac(key);
  }

  private static Mac newMac(byte[] key) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(key, HMAC));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
    }
  }

  @Override
  public String toString() {
    return "TokenCodec[maxLength=" + maxLength + ", maxIntervals=" + maxIntervals + ", signed=" + signed() + "]";
  }
}
