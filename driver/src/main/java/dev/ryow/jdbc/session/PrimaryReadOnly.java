package dev.ryow.jdbc.session;

import org.jspecify.annotations.Nullable;

/**
 * The read-only mode of the primary's physical connection, as the session knows it, and the one rule that
 * keeps it with the application's flag. Two things make it up, as in Connector/J's {@code ConnectionImpl}:
 * <ul>
 *   <li>{@link #flag}: Connector/J's client-side flag, changed only by its {@code setReadOnly}. Connector/J
 *       refuses every write while it is set ({@code S1009} "Connection is read-only"), whatever the server
 *       says;</li>
 *   <li>{@link #session}: the server session's mode, which Connector/J's {@code setReadOnly} sets too, but
 *       which SQL ({@code SET SESSION TRANSACTION READ WRITE}, {@code SET transaction_read_only = …}) can
 *       change behind the flag. Connector/J's {@code isReadOnly()} answers it (one query), and never copies
 *       it into the flag.</li>
 * </ul>
 * The application's flag (what it last set with {@code setReadOnly}, in the session's
 * {@link dev.ryow.jdbc.route.TransactionState}; routing follows it) reaches the physical connection lazily,
 * right before a statement runs there ({@link #needsSync}), as Connector/J alone would have it by then:
 * its flag equal to the application's, and its session's mode set by the last {@code setReadOnly} unless
 * SQL changed it since. {@link #resend} remembers an application's {@code setReadOnly} that must reach the
 * server although the flag already has the value (SQL changed the session's mode, or may have): Connector/J
 * sends {@code SET SESSION TRANSACTION …} on every {@code setReadOnly}.
 *
 * <p>Immutable; each transition returns the next value (the same one when nothing changes).
 *
 * @param flag Connector/J's client-side read-only flag on the physical connection
 * @param session the server session's mode
 * @param resend the application's flag must be set again on the physical connection before its next statement
 */
record PrimaryReadOnly(boolean flag, Mode session, boolean resend) {
  /** The server session's read-only mode, as far as the session knows it. */
  enum Mode {
    /** As the physical connection's flag: nothing changed it since Connector/J's {@code setReadOnly} set it. */
    AS_FLAG,
    /** SQL that may have changed it ran since the flag was set or the server was last asked. */
    UNKNOWN,
    /** The server said read-only (or SQL set it, and the server was asked since). */
    READ_ONLY,
    /** The server said read-write. */
    READ_WRITE
  }

  /** A new physical connection: Connector/J's flag is off, and so is the session's mode. */
  static final PrimaryReadOnly OPENED = new PrimaryReadOnly(false, Mode.AS_FLAG, false);

  /** The session's mode when it is known, else null. */
  @Nullable Boolean sessionReadOnly() {
    return switch (session) {
      case AS_FLAG -> flag;
      case READ_ONLY -> Boolean.TRUE;
      case READ_WRITE -> Boolean.FALSE;
      case UNKNOWN -> null;
    };
  }

  /**
   * The application called {@code setReadOnly(wanted)}: when the session's mode is not known to be
   * {@code wanted}, the call must reach the server before the next statement (Connector/J would have sent it
   * already), even where the flag has that value.
   */
  PrimaryReadOnly applicationSet(boolean wanted) {
    Boolean now = sessionReadOnly();
    boolean again = now == null || now != wanted;
    return again == resend ? this : new PrimaryReadOnly(flag, session, again);
  }

  /**
   * Whether the physical connection must get {@code setReadOnly(wanted)} before a statement runs there: its
   * flag differs from the application's, or a call of the application's is owed to the server.
   */
  boolean needsSync(boolean wanted) {
    return flag != wanted || resend;
  }

  /** Connector/J's {@code setReadOnly(wanted)} ran on the physical connection: flag and session agree. */
  static PrimaryReadOnly synced(boolean wanted) {
    return wanted ? SYNCED_READ_ONLY : OPENED;
  }

  private static final PrimaryReadOnly SYNCED_READ_ONLY = new PrimaryReadOnly(true, Mode.AS_FLAG, false);

  /** SQL that may change the session's mode ran on the physical connection; Connector/J's flag stays. */
  PrimaryReadOnly sqlRan() {
    return session == Mode.UNKNOWN ? this : new PrimaryReadOnly(flag, Mode.UNKNOWN, resend);
  }

  /** The server answered {@code @@session.transaction_read_only}: the session's mode, not the flag. */
  PrimaryReadOnly serverSaid(boolean readOnly) {
    Mode m = readOnly == flag ? Mode.AS_FLAG : readOnly ? Mode.READ_ONLY : Mode.READ_WRITE;
    return m == session ? this : new PrimaryReadOnly(flag, m, resend);
  }

  /**
   * What {@code isReadOnly()} answers when the application's flag is {@code wanted}, without asking the
   * server, or null when only the server knows. A call of the application's that has not reached the
   * physical connection yet decides (Connector/J would have sent it); else the session's mode where known.
   */
  @Nullable Boolean answer(boolean wanted) {
    return needsSync(wanted) ? Boolean.valueOf(wanted) : sessionReadOnly();
  }
}
