import type { AppContext } from "../../context.js";
import type { Db } from "../../db/index.js";
import type { MessageRow } from "../../db/queries/messages.js";
import { realmById, type RealmRow } from "../../db/queries/realms.js";
import { reactionsOf } from "../../db/queries/reactions.js";
import { submessagesOf, type SubmessageRow } from "../../db/queries/submessages.js";
import { streamById, type StreamRow } from "../../db/queries/streams.js";
import { userById, type UserRow } from "../../db/queries/users.js";
import { flagList } from "./flags.js";
import { realmProp } from "../realm/props.js";
import { SYSTEM_BOT_REALM } from "../../db/system-bots.js";
import { avatarUrl } from "../users/users.js";

/** Per-client choices for message objects (GET /messages parameters, queue options). */
export interface MessageFormat {
  applyMarkdown: boolean;
  clientGravatar: boolean;
}

/**
 * Shared look-ups while building many message objects, through one handle: inside a write
 * transaction that handle must be the transaction (SQLite has one connection).
 */
export class MessageLookups {
  private readonly streams = new Map<number, StreamRow | undefined>();
  private readonly users = new Map<number, UserRow | undefined>();
  private readonly realms = new Map<number, RealmRow | undefined>();

  constructor(private readonly db: Db) {}

  /** A user by id, once per build. */
  async user(id: number): Promise<UserRow | undefined> {
    if (!this.users.has(id)) this.users.set(id, await userById(this.db, id));
    return this.users.get(id);
  }

  /** A channel by id, once per build. */
  async stream(id: number): Promise<StreamRow | undefined> {
    if (!this.streams.has(id)) this.streams.set(id, await streamById(this.db, id));
    return this.streams.get(id);
  }

  /** Rows the caller already holds (a sender, a channel, a realm), so they are not read again. */
  seed(rows: { user?: UserRow; stream?: StreamRow; realm?: RealmRow }): this {
    if (rows.user) this.users.set(rows.user.id, rows.user);
    if (rows.stream) this.streams.set(rows.stream.id, rows.stream);
    if (rows.realm) this.realms.set(rows.realm.id, rows.realm);
    return this;
  }

  /** A realm by id, once per build. */
  async realm(id: number): Promise<RealmRow | undefined> {
    if (!this.realms.has(id)) this.realms.set(id, await realmById(this.db, id));
    return this.realms.get(id);
  }
}

/** The participants of a direct-message conversation, as display_recipient lists them. */
export async function dmRecipients(lookups: MessageLookups, dmKey: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const id of dmKey.split(",").map(Number)) {
    const u = await lookups.user(id);
    if (u) out.push({ id: u.id, email: u.email, full_name: u.full_name, is_mirror_dummy: false });
  }
  return out;
}

/**
 * Zulip's message objects for one viewer, in the order of `rows`. `flags` maps message id to the
 * viewer's bits; with `withFlags` false the `flags` field is left out (message events carry it outside).
 */
export async function messageDicts(
  ctx: AppContext,
  rows: readonly MessageRow[],
  format: MessageFormat,
  flags?: ReadonlyMap<number, number>,
): Promise<Record<string, unknown>[]> {
  const lookups = new MessageLookups(ctx.db);
  const reactions = new Map<number, Record<string, unknown>[]>();
  for (const r of await reactionsOf(ctx.db, rows.map((m) => m.id))) {
    const list = reactions.get(r.message_id) ?? [];
    list.push({ emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, user_id: r.user_id });
    reactions.set(r.message_id, list);
  }
  const submessages = new Map<number, Record<string, unknown>[]>();
  for (const s of await submessagesOf(ctx.db, rows.map((m) => m.id))) {
    const list = submessages.get(s.message_id) ?? [];
    list.push(apiSubmessage(s));
    submessages.set(s.message_id, list);
  }
  const out: Record<string, unknown>[] = [];
  for (const m of rows) {
    const dict = await messageDict(lookups, m, format, reactions.get(m.id) ?? [], submessages.get(m.id) ?? []);
    if (flags) dict.flags = flagList(flags.get(m.id) ?? 0);
    out.push(dict);
  }
  return out;
}

/** A submessage as message objects and `submessage` events carry it. */
export function apiSubmessage(s: SubmessageRow): Record<string, unknown> & { id: number } {
  return { id: s.id, message_id: s.message_id, sender_id: s.sender_id, msg_type: s.msg_type, content: s.content };
}

/** One message object (without flags). */
export async function messageDict(
  lookups: MessageLookups,
  m: MessageRow,
  format: MessageFormat,
  reactions: Record<string, unknown>[],
  submessages: Record<string, unknown>[] = [],
): Promise<Record<string, unknown>> {
  const sender = await lookups.user(m.sender_id);
  const realm = await lookups.realm(m.realm_id);
  const stream = m.stream_id === null ? undefined : await lookups.stream(m.stream_id);
  const dict: Record<string, unknown> = {
    id: m.id,
    sender_id: m.sender_id,
    content: format.applyMarkdown ? m.rendered_content : m.content,
    recipient_id: m.recipient_id,
    timestamp: Math.floor(m.date_sent / 1000),
    client: m.client,
    subject: m.topic,
    topic_links: [],
    is_me_message: m.is_me_message === 1,
    reactions,
    submessages,
    sender_full_name: sender?.full_name ?? "",
    sender_email: sender?.email ?? "",
    // Our system bots have a row in each realm, but clients know them as the cross-realm bots of Zulip's internal realm.
    sender_realm_str: sender?.is_system_bot ? SYSTEM_BOT_REALM : (realm?.string_id ?? ""),
    display_recipient: stream ? stream.name : await dmRecipients(lookups, m.dm_key),
    type: stream ? "stream" : "private",
  };
  if (stream) dict.stream_id = stream.id;
  dict.avatar_url = sender ? avatarUrl(sender, format.clientGravatar) : null;
  dict.content_type = format.applyMarkdown ? "text/html" : "text/x-markdown";
  if (m.last_edit_time !== null) {
    // At feature level 275 moves stamp last_edit_timestamp too; the history is hidden when the realm turns it off.
    dict.last_edit_timestamp = Math.floor(m.last_edit_time / 1000);
    if (m.edit_history !== null && realmProp(realm, "allow_edit_history") !== false) dict.edit_history = JSON.parse(m.edit_history) as unknown;
  }
  return dict;
}
