import type { Db } from "../../db/index.js";
import { activeStreamByName, streamById, type StreamRow } from "../../db/queries/streams.js";
import { subscriptionOf, type SubscriptionRow } from "../../db/queries/subscriptions.js";
import type { UserRow } from "../../db/queries/users.js";
import { ApiError, badRequest, invalidChannelId } from "../../base/errors.js";
import { emptyRenderContext, renderMarkdown } from "../../markdown/index.js";
import { isAdmin, Role } from "../users/roles.js";

/** Zulip's limits on channel names and descriptions (Stream.MAX_NAME_LENGTH, MAX_DESCRIPTION_LENGTH). */
export const MAX_STREAM_NAME_LENGTH = 60;
export const MAX_STREAM_DESCRIPTION_LENGTH = 1024;
/** Topic names are at most this many characters (MAX_TOPIC_NAME_LENGTH). */
export const MAX_TOPIC_LENGTH = 60;

/** stream_post_policy values: 1 everyone, 2 administrators, 3 full members, 4 moderators. */
export const STREAM_POST_POLICIES = [1, 2, 3, 4] as const;

/** Zulip's palette for new subscriptions (zerver/lib/stream_color.py), in assignment order. */
export const STREAM_COLORS = [
  "#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5",
  "#f5ce6e", "#c2726a", "#94c849", "#bd86e5", "#ee7e4a", "#a6dcbf", "#95a5fd", "#53a063",
  "#9987e1", "#e4523d", "#c2c2c2", "#4f8de4", "#c6a8ad", "#e7cc4d", "#c8bebf", "#a47462",
] as const;

/** A channel with the caller's active subscription to it, if any. */
export interface AccessedStream {
  stream: StreamRow;
  sub: SubscriptionRow | undefined;
}

/**
 * The channel with this id if `user` may access it, else `Invalid channel ID` (the same error for
 * "missing" and "not yours", so private channel ids do not leak). Zulip's access_stream_by_id.
 */
export async function accessStreamById(db: Db, user: UserRow, id: number, opts: { allowRealmAdmin?: boolean } = {}): Promise<AccessedStream> {
  const stream = await streamById(db, id);
  if (!stream || stream.realm_id !== user.realm_id || stream.deactivated) throw invalidChannelId();
  return checkStreamAccess(db, user, stream, "Invalid channel ID", opts);
}

/**
 * The channel with this name (case and surrounding spaces ignored, as Zulip's get_realm_stream) if
 * `user` may access it, else `Invalid channel name '<name as sent>'`.
 */
export async function accessStreamByName(db: Db, user: UserRow, name: string, opts: { allowRealmAdmin?: boolean } = {}): Promise<AccessedStream> {
  const error = `Invalid channel name '${name}'`;
  const stream = await activeStreamByName(db, user.realm_id, name.trim());
  if (!stream) throw badRequest(error);
  return checkStreamAccess(db, user, stream, error, opts);
}

/** The channel for PATCH/DELETE /streams/{id}: visible ones give `Must be an organization administrator` to non-admins. */
export async function accessStreamForUpdate(db: Db, user: UserRow, id: number): Promise<AccessedStream> {
  const stream = await streamById(db, id);
  if (!stream || stream.realm_id !== user.realm_id || stream.deactivated) throw invalidChannelId();
  const sub = await activeSubscription(db, user.id, stream.id);
  if (isAdmin(user)) return { stream, sub };
  if (!sub && stream.invite_only) throw invalidChannelId();
  throw new ApiError("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL", 400);
}

async function checkStreamAccess(db: Db, user: UserRow, stream: StreamRow, error: string, opts: { allowRealmAdmin?: boolean }): Promise<AccessedStream> {
  const sub = await activeSubscription(db, user.id, stream.id);
  if (canAccessStream(user, stream, sub !== undefined) || (opts.allowRealmAdmin && isAdmin(user))) return { stream, sub };
  throw badRequest(error);
}

/** Whether a user is subscribed to a channel now. */
export async function isSubscribed(db: Db, userId: number, streamId: number): Promise<boolean> {
  return (await activeSubscription(db, userId, streamId)) !== undefined;
}

async function activeSubscription(db: Db, userId: number, streamId: number): Promise<SubscriptionRow | undefined> {
  const sub = await subscriptionOf(db, userId, streamId);
  return sub?.active ? sub : undefined;
}

/** Whether a user may access a channel's content: web-public for all, public for non-guests, else subscribers. */
export function canAccessStream(user: Pick<UserRow, "role">, stream: StreamRow, subscribed: boolean): boolean {
  if (stream.is_web_public) return true;
  if (!stream.invite_only && user.role !== Role.GUEST) return true;
  return subscribed;
}

/**
 * Whether a user may know a channel exists and see its subscriber list (Zulip's metadata access):
 * content access, or any private channel for administrators.
 */
export function canSeeStream(user: Pick<UserRow, "role">, stream: StreamRow, subscribed: boolean): boolean {
  return canAccessStream(user, stream, subscribed) || (stream.invite_only === 1 && isAdmin(user));
}

/** The channel object of GET /streams and stream events (stream_to_dict at feature level 275). */
export function apiStream(stream: StreamRow): Record<string, unknown> & { stream_id: number; name: string } {
  return {
    can_remove_subscribers_group: stream.can_remove_subscribers_group,
    creator_id: stream.creator_id,
    date_created: Math.floor(stream.date_created / 1000),
    description: stream.description,
    first_message_id: stream.first_message_id,
    history_public_to_subscribers: stream.history_public_to_subscribers === 1,
    invite_only: stream.invite_only === 1,
    is_announcement_only: stream.stream_post_policy === 2,
    is_web_public: stream.is_web_public === 1,
    message_retention_days: stream.message_retention_days,
    name: stream.name,
    rendered_description: stream.rendered_description,
    stream_id: stream.id,
    stream_post_policy: stream.stream_post_policy,
    stream_weekly_traffic: null,
  };
}

/** The subscription object: the channel fields plus the user's personal settings. */
export function apiSubscription(stream: StreamRow, sub: SubscriptionRow, subscribers?: readonly number[]): Record<string, unknown> & { stream_id: number; name: string } {
  const out: Record<string, unknown> & { stream_id: number; name: string } = {
    ...apiStream(stream),
    audible_notifications: nullableBool(sub.audible_notifications),
    color: sub.color,
    desktop_notifications: nullableBool(sub.desktop_notifications),
    email_notifications: nullableBool(sub.email_notifications),
    in_home_view: sub.is_muted === 0,
    is_muted: sub.is_muted === 1,
    pin_to_top: sub.pin_to_top === 1,
    push_notifications: nullableBool(sub.push_notifications),
    wildcard_mentions_notify: nullableBool(sub.wildcard_mentions_notify),
  };
  if (subscribers !== undefined) out.subscribers = [...subscribers];
  return out;
}

function nullableBool(value: number | null): boolean | null {
  return value === null ? null : value === 1;
}

/**
 * HTML of a channel description, rendered as Markdown like a message; an empty description
 * renders to "" as in Zulip.
 */
export function renderDescription(description: string, realmUrl: string): string {
  return description.length === 0 ? "" : renderMarkdown(description, emptyRenderContext(realmUrl)).html;
}

/** Zulip's check_stream_name: non-blank, ≤ 60 characters, printable. */
export function checkStreamName(name: string): void {
  if (name.trim() === "") throw badRequest("Channel name can't be empty.");
  const chars = [...name];
  if (chars.length > MAX_STREAM_NAME_LENGTH) throw badRequest(`Channel name too long (limit: ${MAX_STREAM_NAME_LENGTH} characters).`);
  const bad = chars.findIndex((c) => !isPrintable(c));
  if (bad >= 0) throw badRequest(`Invalid character in channel name, at position ${bad + 1}.`);
}

/** Unicode categories Cc and Cs, and the 66 non-characters, are not printable (Zulip's rule). */
function isPrintable(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  if (/\p{Cc}|\p{Cs}/u.test(char)) return false;
  if (code >= 0xfdd0 && code <= 0xfdef) return false;
  return (code & 0xfffe) !== 0xfffe;
}

/**
 * Colors for new subscriptions (Zulip's pick_colors): requested colors first, then unused palette
 * colors in order of channel id, then the palette again by channel id.
 */
export function pickColors(used: Iterable<string>, requested: ReadonlyMap<number, string>, streamIds: readonly number[]): Map<number, string> {
  const usedColors = new Set(used);
  const result = new Map<number, string>();
  const others: number[] = [];
  for (const id of [...streamIds].sort((a, b) => a - b)) {
    const color = requested.get(id);
    if (color !== undefined) {
      result.set(id, color);
      usedColors.add(color);
    } else {
      others.push(id);
    }
  }
  const available = STREAM_COLORS.filter((c) => !usedColors.has(c));
  others.forEach((id, i) => result.set(id, available[i] ?? STREAM_COLORS[id % STREAM_COLORS.length] ?? STREAM_COLORS[0]));
  return result;
}

/** Zulip's StreamDoesNotExistError, for callers that name a channel: `Channel '<name>' does not exist`. */
export function streamDoesNotExist(name: string): ApiError {
  return new ApiError(`Channel '${name}' does not exist`, "STREAM_DOES_NOT_EXIST", 400, { stream: name });
}

/** Zulip's StreamWithIDDoesNotExistError: `Channel with ID '<id>' does not exist`. */
export function streamIdDoesNotExist(id: number): ApiError {
  return new ApiError(`Channel with ID '${id}' does not exist`, "STREAM_DOES_NOT_EXIST", 400, { stream_id: id });
}

/**
 * The address that posts to a channel by email as Zulip 9 gives it (encode_email_address with
 * show_sender): `<name>.<email token>.show-sender@<gateway domain>`. The name part is the channel
 * name with each run of non-word characters made one hyphen, then slugified to ASCII; when that
 * would change its length (letters with no ASCII form, edge hyphens or underscores) the part and
 * its dot are left out. Without a gateway domain there is no address: "".
 */
export function streamEmailAddress(stream: Pick<StreamRow, "name" | "email_token">, gatewayDomain: string): string {
  if (gatewayDomain === "") return "";
  const hyphenated = stream.name.replace(/[^\p{L}\p{N}_]+/gu, "-");
  const slug = slugify(hyphenated);
  const local = slug.length === [...hyphenated].length ? `${slug}.${stream.email_token}` : stream.email_token;
  return `${local}.show-sender@${gatewayDomain}`;
}

/** What Python counts as ASCII whitespace (str.isspace), which Django's slugify folds into hyphens. */
const ASCII_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f ";
const NOT_SLUG_CHAR = new RegExp(`[^A-Za-z0-9_${ASCII_SPACE}-]`, "g");
const HYPHEN_RUN = new RegExp(`[${ASCII_SPACE}-]+`, "g");

/** Django's slugify without allow_unicode: NFKD, non-ASCII dropped, lowercase, runs of hyphens and spaces made one hyphen, edge `-`/`_` trimmed. */
function slugify(value: string): string {
  // eslint-disable-next-line no-control-regex
  const ascii = value.normalize("NFKD").replace(/[^\x00-\x7f]/g, "");
  return ascii.toLowerCase().replace(NOT_SLUG_CHAR, "").replace(HYPHEN_RUN, "-").replace(/^[-_]+|[-_]+$/g, "");
}
