/** Zulip's per-user message flags: bit order, API names, and the flags a new message gets. */

/** Flag bits in Zulip's order (AbstractUserMessage.ALL_FLAGS). */
export const Flag = {
  read: 1 << 0,
  starred: 1 << 1,
  collapsed: 1 << 2,
  mentioned: 1 << 3,
  stream_wildcard_mentioned: 1 << 4,
  topic_wildcard_mentioned: 1 << 5,
  group_mentioned: 1 << 6,
  force_expand: 1 << 7,
  force_collapse: 1 << 8,
  has_alert_word: 1 << 9,
  historical: 1 << 10,
  is_private: 1 << 11,
  active_mobile_push_notification: 1 << 12,
} as const;

/** A flag name as stored. */
export type FlagName = keyof typeof Flag;

const ORDER = Object.keys(Flag) as FlagName[];
const NON_API: ReadonlySet<string> = new Set(["is_private", "active_mobile_push_notification"]);

/** Flags a user may change with POST /messages/flags. */
export const EDITABLE_FLAGS: ReadonlySet<string> = new Set(["read", "starred", "collapsed"]);

/** Flag names POST /messages/flags knows (editable or not); anything else is `Invalid flag`. */
export const API_FLAGS: ReadonlySet<string> = new Set(ORDER.filter((f) => !NON_API.has(f)));

/** Any kind of mention: what is:mentioned matches. */
export const MENTION_BITS = Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned | Flag.group_mentioned;

/** Flags of a message the user reads without having received it. */
export const HISTORICAL_FLAGS = Flag.read | Flag.historical;

/**
 * The API flag list for a bitmask, in Zulip's order, with the deprecated `wildcard_mentioned`
 * appended when either wildcard flag is set (Zulip still sends it at feature level 275).
 */
export function flagList(bits: number): string[] {
  const out: string[] = [];
  for (const name of ORDER) if ((bits & Flag[name]) !== 0 && !NON_API.has(name)) out.push(name);
  if ((bits & (Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned)) !== 0) out.push("wildcard_mentioned");
  return out;
}

/** What a recipient's flags on a new (or re-rendered) message depend on. */
export interface RecipientFacts {
  userId: number;
  senderId: number;
  isDirect: boolean;
  /** The sender asked for their own copy to be read (read_by_sender). */
  readBySender: boolean;
  /** The recipient has muted the sender. */
  senderMuted: boolean;
  mentionedUserIds: ReadonlySet<number>;
  /** Members of the user groups the message mentions. */
  groupMentionedUserIds: ReadonlySet<number>;
  streamWildcard: boolean;
  /** Topic wildcard (@topic) applies only to topic participants. */
  topicWildcardApplies: boolean;
  /** Alert words of the recipient found in the content; the alert-words area supplies this. */
  hasAlertWord?: boolean;
}

/** The flags one recipient's copy of a message starts with (Zulip's get_user_message_flags). */
export function recipientFlags(f: RecipientFacts): number {
  let bits = 0;
  if (f.userId === f.senderId ? f.readBySender : f.senderMuted) bits |= Flag.read;
  if (f.isDirect) bits |= Flag.is_private;
  if (f.mentionedUserIds.has(f.userId)) bits |= Flag.mentioned;
  if (f.groupMentionedUserIds.has(f.userId)) bits |= Flag.group_mentioned;
  if (f.streamWildcard && !f.isDirect) bits |= Flag.stream_wildcard_mentioned;
  if (f.topicWildcardApplies) bits |= Flag.topic_wildcard_mentioned;
  if (f.hasAlertWord) bits |= Flag.has_alert_word;
  return bits;
}

/** Bits that rendering decides, replaced wholesale when a message is edited. */
export const RENDER_BITS = MENTION_BITS | Flag.has_alert_word;
