import type { RealmRow } from "../../db/queries/realms.js";
import type { StreamRow } from "../../db/queries/streams.js";
import type { UserRow } from "../../db/queries/users.js";
import { ApiError, badRequest } from "../../base/errors.js";
import { REALM_DEFAULTS } from "../realm/props.js";
import { Role } from "../users/roles.js";

/** Zulip's limits on message content and topics. */
export const MAX_MESSAGE_LENGTH = 10000;
export const MAX_TOPIC_LENGTH = 60;

/** Realm message settings at their Zulip 9 defaults, read from the realm's props. */
export interface MessageSettings {
  allowMessageEditing: boolean;
  /** null = no limit. */
  messageContentEditLimitSeconds: number | null;
  /** Zulip's edit_topic_policy: 1 members, 2 admins, 3 full members, 4 moderators, 5 everyone. */
  editTopicPolicy: number;
  moveMessagesWithinStreamLimitSeconds: number | null;
  /** move_messages_between_streams_policy: 1 members, 2 admins, 3 full members, 4 moderators, 6 nobody. */
  moveMessagesBetweenStreamsPolicy: number;
  moveMessagesBetweenStreamsLimitSeconds: number | null;
  /** delete_own_message_policy: 1 members, 2 admins, 3 full members, 4 moderators, 5 everyone. */
  deleteOwnMessagePolicy: number;
  messageContentDeleteLimitSeconds: number | null;
  waitingPeriodThreshold: number;
  /** wildcard_mention_policy: 1 everyone, 2 members, 3 full members, 5 admins, 6 nobody, 7 moderators. */
  wildcardMentionPolicy: number;
}

const defaults: Readonly<Record<string, unknown>> = REALM_DEFAULTS;

/** The realm's message settings (absent props take the defaults /register reports). */
export function messageSettings(realm: RealmRow | undefined): MessageSettings {
  let props: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(realm?.props ?? "{}");
    if (typeof parsed === "object" && parsed !== null) props = parsed as Record<string, unknown>;
  } catch {
    props = {};
  }
  const num = (key: string, fallback: number | null): number | null => {
    const v = key in props ? props[key] : defaults[key];
    return typeof v === "number" || v === null ? v : fallback;
  };
  return {
    allowMessageEditing: props.allow_message_editing !== false,
    messageContentEditLimitSeconds: num("message_content_edit_limit_seconds", 600),
    editTopicPolicy: num("edit_topic_policy", 5) ?? 5,
    moveMessagesWithinStreamLimitSeconds: num("move_messages_within_stream_limit_seconds", null),
    moveMessagesBetweenStreamsPolicy: num("move_messages_between_streams_policy", 1) ?? 1,
    moveMessagesBetweenStreamsLimitSeconds: num("move_messages_between_streams_limit_seconds", null),
    deleteOwnMessagePolicy: num("delete_own_message_policy", 5) ?? 5,
    messageContentDeleteLimitSeconds: num("message_content_delete_limit_seconds", null),
    waitingPeriodThreshold: num("waiting_period_threshold", 0) ?? 0,
    wildcardMentionPolicy: num("wildcard_mention_policy", 5) ?? 5,
  };
}

/** Whether a role satisfies one of Zulip's common policies (1 members … 5 everyone). */
export function policyAllows(user: UserRow, policy: number, settings: MessageSettings, now: number): boolean {
  switch (policy) {
    case 5:
      return true;
    case 1:
      return user.role <= Role.MEMBER;
    case 3:
      return user.role <= Role.MEMBER && !isProvisional(user, settings, now);
    case 4:
      return user.role <= Role.MODERATOR;
    case 2:
      return user.role <= Role.ADMINISTRATOR;
    default:
      return false;
  }
}

function isProvisional(user: UserRow, settings: MessageSettings, now: number): boolean {
  return user.role === Role.MEMBER && now - user.date_joined < settings.waitingPeriodThreshold * 86400_000;
}

/** Above this many subscribers (or topic participants) wildcard mentions need the realm's permission. */
export const WILDCARD_MENTION_THRESHOLD = 15;

/** Zulip's wildcard_mention_policy_authorizes_user. */
export function wildcardMentionAllowed(user: UserRow, settings: MessageSettings, now: number): boolean {
  switch (settings.wildcardMentionPolicy) {
    case 1:
      return true;
    case 2:
      return user.role !== Role.GUEST;
    case 3:
      return user.role <= Role.ADMINISTRATOR || (user.role <= Role.MEMBER && !isProvisional(user, settings, now));
    case 5:
      return user.role <= Role.ADMINISTRATOR;
    case 7:
      return user.role <= Role.MODERATOR;
    default:
      return false;
  }
}

/** Zulip's normalize_body: trailing whitespace and leading newlines go; empty and NUL refused; long content truncated. */
export function normalizeContent(raw: string): string {
  const content = raw.trimEnd().replace(/^\n+/, "");
  if (content.length === 0) throw badRequest("Message must not be empty");
  if (content.includes("\u0000")) throw badRequest("Message must not contain null bytes");
  return truncate(content, MAX_MESSAGE_LENGTH, "\n[message truncated]");
}

/** Zulip's check_stream_topic on a stripped topic. */
export function checkTopic(raw: string): string {
  const topic = raw.trim();
  if (topic.length === 0) throw badRequest("Topic can't be empty!");
  const chars = [...topic];
  for (let i = 0; i < chars.length; i++) {
    // Control characters and unassigned/private code points are not allowed in topics.
    if (/[\p{Cc}\p{Cs}\p{Co}\p{Cn}]/u.test(chars[i] ?? "")) throw badRequest(`Invalid character in topic, at position ${i + 1}!`);
  }
  return topic;
}

/** Zulip's truncate_topic: 57 characters and "...". */
export function truncateTopic(topic: string): string {
  return truncate(topic, MAX_TOPIC_LENGTH, "...");
}

function truncate(text: string, max: number, marker: string): string {
  const chars = [...text];
  return chars.length > max ? chars.slice(0, max - marker.length).join("") + marker : text;
}

/** Zulip's stream_post_policy check (check_stream_access_based_on_stream_post_policy). */
export function checkStreamPostPolicy(sender: UserRow, stream: StreamRow, settings: MessageSettings, now: number): void {
  if (sender.role <= Role.ADMINISTRATOR) return;
  if (stream.stream_post_policy === 2) throw badRequest("Only organization administrators can send to this channel.");
  if (stream.stream_post_policy === 4 && sender.role > Role.MODERATOR) {
    throw badRequest("Only organization administrators and moderators can send to this channel.");
  }
  if (stream.stream_post_policy !== 1 && sender.role === Role.GUEST) throw badRequest("Guests cannot send to this channel.");
  if (stream.stream_post_policy === 3 && isProvisional(sender, settings, now)) throw badRequest("New members cannot send to this channel.");
}

/** `Channel '<name>' does not exist` with the name HTML-escaped, as Zulip sends it. */
export function streamNameDoesNotExist(name: string): ApiError {
  return new ApiError(`Channel '${htmlEscape(name)}' does not exist`, "STREAM_DOES_NOT_EXIST", 400, { stream: name });
}

/** Python's html.escape: & < > " ' (Zulip escapes names in errors and topics in match_subject so). */
export function htmlEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}

// What JSON text can start with. A channel name usually cannot, and a failed JSON.parse builds
// an exception with a stack trace: about a tenth of a send's JavaScript time.
const MAY_BE_JSON = /^\s*[[{"\d\-tfn]/;

/** Zulip's extract_stream_indicator: a JSON id, name or one-element list, else the raw name. */
export function streamIndicator(raw: string): string | number {
  if (!MAY_BE_JSON.test(raw)) return raw;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (Array.isArray(data)) {
    if (data.length !== 1) throw badRequest("Expected exactly one channel");
    data = data[0];
  }
  if (typeof data === "string") return data;
  if (typeof data === "number" && Number.isInteger(data)) return data;
  throw badRequest("Invalid data type for channel");
}

/** Zulip's extract_private_recipients: a JSON list (or comma-separated string) of emails or of ids. */
export function privateRecipients(raw: string): (string | number)[] {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    data = raw;
  }
  if (typeof data === "string") data = data.split(",");
  if (!Array.isArray(data)) throw badRequest("Invalid data type for recipients");
  if (data.length === 0) return [];
  const mixed = () => badRequest("Recipient lists may contain emails or user IDs, but not both.");
  if (typeof data[0] === "string") {
    const emails = data.map((e: unknown) => {
      if (typeof e !== "string") throw mixed();
      return e.trim();
    });
    return [...new Set(emails.filter((e) => e.length > 0))];
  }
  if (typeof data[0] === "number") {
    return [
      ...new Set(
        data.map((id: unknown) => {
          if (typeof id !== "number" || !Number.isInteger(id)) throw mixed();
          return id;
        }),
      ),
    ];
  }
  throw badRequest("Invalid data type for recipients");
}

/** Zulip's extract_stream_id, for scheduled messages: `to` is one channel id, as Python's int() reads it. */
export function scheduledStreamId(raw: string): number {
  const text = raw.trim();
  if (!/^[+-]?\d+(_\d+)*$/.test(text)) throw badRequest("Invalid data type for channel ID");
  return Number(text.replace(/_/g, ""));
}

/** Zulip's extract_direct_message_recipient_ids, for scheduled messages: a JSON list of user ids, duplicates dropped. */
export function scheduledRecipientIds(raw: string): number[] {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    data = raw;
  }
  if (!Array.isArray(data)) throw badRequest("Invalid data type for recipients");
  const ids = data.map((id: unknown) => {
    if (typeof id !== "number" || !Number.isSafeInteger(id)) throw badRequest("Recipient list may only contain user IDs");
    return id;
  });
  return [...new Set(ids)];
}
