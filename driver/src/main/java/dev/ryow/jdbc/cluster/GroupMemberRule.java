package dev.ryow.jdbc.cluster;

/**
 * "A member of the group, as another member sees it ({@code replication_group_members}): does the
 * cluster take it in, and does primary discovery try it as the writable server?" Pure decision from the
 * member's {@code MEMBER_STATE} and {@code MEMBER_ROLE}. Used when a discovery round finds no writable
 * server among the servers it knows: the group may have elected a member that neither the URL nor a poll
 * named, and any member that answers knows it. The table is in {@code GroupMemberRuleTest}:
 *
 * <ul>
 *   <li>ONLINE and PRIMARY: taken in and tried at once (the election's winner).
 *   <li>ONLINE or RECOVERING, SECONDARY: taken in (polled, serves reads once ONLINE), not tried.
 *   <li>Anything else (OFFLINE, UNREACHABLE, ERROR, an empty role): left alone; the poller's own view of
 *       the group adds it once it is back.
 * </ul>
 */
public final class GroupMemberRule {
  private GroupMemberRule() {}

  /** What discovery does with one member. */
  public enum Member {
    /** Not taken in. */
    IGNORE,
    /** Taken in (a vacant place of the cluster's server list), not tried as the primary. */
    ADOPT,
    /** Taken in and tried as the writable server. */
    ADOPT_AND_TRY
  }

  /** Decides one member from its {@code MEMBER_STATE} and {@code MEMBER_ROLE} (as the server spells them). */
  public static Member decide(String state, String role) {
    boolean online = "ONLINE".equals(state);
    if (!online && !"RECOVERING".equals(state)) {
      return Member.IGNORE;
    }
    return online && "PRIMARY".equals(role) ? Member.ADOPT_AND_TRY : Member.ADOPT;
  }
}
