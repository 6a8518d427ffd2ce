import type { Db } from "../../db/index.js";
import * as q from "../../db/queries/export-tables.js";
import { RecipientType } from "../../db/queries/messages.js";
import type { JsonSpool, Pages } from "./spool.js";
import { onePage } from "./spool.js";
import { REALM_DEFAULTS, REALM_GROUP_DEFAULTS } from "../realm/props.js";
import { dmSubscriptionRecord, huddleRecord, realmRecord, scheduledRecord, seconds, streamRecord, userRecord } from "./records.js";

const PAGE = 500;

/**
 * Ids the export makes up consistently across its files: recipients Rookery has not created yet
 * (a user never messaged, a channel never posted to) get ids above every real one, and clients
 * (a name on each Rookery message) get ids 1, 2, … in name order.
 */
export interface IdPlan {
  recipientBase: number;
  clients: Map<string, number>;
  /** The realm's copies of Zulip's system bots: exported as cross-realm bots, which Zulip's importer maps to its own. */
  systemBots: ReadonlySet<number>;
}

const personalRecipient = (plan: IdPlan, user: q.ExportUserRow): number => user.recipient_id ?? plan.recipientBase + 2 * user.id;
const streamRecipient = (plan: IdPlan, stream: q.ExportStreamRow): number => stream.recipient_id ?? plan.recipientBase + 2 * stream.id + 1;

/** Pages of a keyed listing: calls `fetch` with the last id seen until a page comes back empty. */
async function* keyed<T extends { id: number }>(fetch: (afterId: number) => Promise<T[]>): AsyncGenerator<T[]> {
  for (let afterId = 0; ; ) {
    const page = await fetch(afterId);
    if (page.length === 0) return;
    afterId = page[page.length - 1]?.id ?? afterId;
    yield page;
  }
}

async function* mapped<T>(pages: AsyncIterable<T[]>, fn: (page: T[]) => Promise<Record<string, unknown>[]> | Record<string, unknown>[]): Pages {
  for await (const page of pages) yield await fn(page);
}

/** Writes realm.json's tables (every table but the messages, attachments and analytics). */
export async function writeRealmTables(db: Db, out: JsonSpool, realmId: number, plan: IdPlan, options: { publicOnly: boolean; withSecrets: boolean }): Promise<void> {
  const small = q.realmRows(db, realmId);
  const [realm] = await small.realm;
  if (!realm) throw new Error(`no realm ${realmId}`);
  const users = () => keyed((after) => q.usersPage(db, realmId, after, PAGE));
  const streams = () => keyed((after) => q.streamsPage(db, realmId, after, PAGE));
  // Zulip's importer gives its own system bots their recipients and subscriptions: theirs stay out.
  const humans = (page: q.ExportUserRow[]) => page.filter((u) => !plan.systemBots.has(u.id));
  const streamRecipients = new Map<number, number>();
  for await (const page of streams()) for (const s of page) streamRecipients.set(s.id, streamRecipient(plan, s));
  let counter = 0;
  const next = () => ++counter;
  const restart = () => {
    counter = 0;
  };

  const groups = await small.groups;
  const systemGroupIds = new Map(groups.flatMap((g) => (g.is_system_group === 1 && g.name !== null ? [[g.name, g.id] as const] : [])));
  await out.table("zerver_realm", onePage([realmRecord(realm, REALM_DEFAULTS, REALM_GROUP_DEFAULTS, systemGroupIds)]));
  await out.table("zerver_realmauthenticationmethod", onePage([]));
  await out.table("zerver_realmauditlog", onePage([]));
  await out.table("zerver_client", onePage([...plan.clients].map(([name, id]) => ({ id, name }))));
  await out.table("zerver_realmemoji", onePage((await small.emoji).map((e) => ({ id: e.id, realm: e.realm_id, name: e.name, author: e.author_id, file_name: e.file_name, is_animated: e.is_animated === 1, deactivated: e.deactivated === 1 }))));
  await out.table("zerver_realmdomain", onePage((await small.domains).map((d) => ({ id: d.id, realm: d.realm_id, domain: d.domain, allow_subdomains: d.allow_subdomains === 1 }))));
  await out.table("zerver_realmfilter", onePage((await small.filters).map((f) => ({ id: f.id, realm: f.realm_id, pattern: f.pattern, url_template: f.url_template, order: f.ordering }))));
  await out.table("zerver_realmplayground", onePage((await small.playgrounds).map((p) => ({ id: p.id, realm: p.realm_id, name: p.name, pygments_language: p.pygments_language, url_template: p.url_template }))));
  await out.table("zerver_realmuserdefault", onePage((await small.userDefaults).map((d, i) => ({ ...parse(d.settings), id: i + 1, realm: d.realm_id }))));
  await out.table("zerver_customprofilefield", onePage((await small.profileFields).map((f) => ({ id: f.id, realm: f.realm_id, name: f.name, hint: f.hint, field_type: f.field_type, field_data: f.field_data, order: f.order, display_in_profile_summary: f.display_in_profile_summary === 1, required: f.required === 1 }))));
  restart();
  await out.table("zerver_defaultstream", onePage((await small.defaultStreams).map((d) => ({ id: next(), realm: d.realm_id, stream: d.stream_id }))));

  await out.table("zerver_userprofile", mapped(users(), (page) => humans(page).map((u) => userRecord(u, personalRecipient(plan, u), options.withSecrets))));
  await out.table("zerver_userprofile_mirrordummy", onePage([]));
  await out.table("zerver_userprofile_crossrealm", mapped(users(), (page) => page.filter((u) => !humans([u]).length).map((u) => ({ email: u.email, id: u.id, recipient_id: personalRecipient(plan, u) }))));
  for (const table of ["zerver_service", "zerver_botstoragedata", "zerver_botconfigdata", "zerver_onboardingstep", "zerver_useractivity", "zerver_useractivityinterval"]) await out.table(table, onePage([]));

  await out.table("zerver_usergroup", onePage(groups.map((g) => ({ id: g.id, realm: g.realm_id }))));
  await out.table("zerver_namedusergroup", onePage(groups.filter((g) => g.name !== null).map((g) => ({ id: g.id, usergroup_ptr: g.id, realm_for_sharding: g.realm_id, name: g.name, description: g.description, is_system_group: g.is_system_group === 1, can_mention_group: g.can_mention_group_id }))));
  const memberships = await q.groupMembershipsOf(db, groups.map((g) => g.id));
  restart();
  await out.table("zerver_usergroupmembership", onePage(memberships.members.map((m) => ({ id: next(), user_group: m.group_id, user_profile: m.user_id }))));
  restart();
  await out.table("zerver_groupgroupmembership", onePage(memberships.subgroups.map((m) => ({ id: next(), supergroup: m.supergroup_id, subgroup: m.subgroup_id }))));

  await out.table("zerver_stream", mapped(streams(), (page) => page.map((s) => streamRecord(s, streamRecipient(plan, s)))));
  const groupRecipients = () => keyed((after) => q.groupRecipientsPage(db, realmId, after, PAGE));
  await out.table("zerver_huddle", mapped(groupRecipients(), (page) => page.map((r) => huddleRecord(r.id, r.dm_key))));
  await out.table(
    "zerver_recipient",
    concat(
      mapped(users(), (page) => humans(page).map((u) => ({ id: personalRecipient(plan, u), type: RecipientType.PERSONAL, type_id: u.id }))),
      mapped(streams(), (page) => page.map((s) => ({ id: streamRecipient(plan, s), type: RecipientType.STREAM, type_id: s.id }))),
      mapped(groupRecipients(), (page) => page.map((r) => ({ id: r.id, type: RecipientType.GROUP, type_id: r.id }))),
    ),
  );
  restart();
  await out.table(
    "zerver_subscription",
    concat(
      mapped(streams(), async (page) =>
        (await q.subscriptionsOfStreams(db, page.map((s) => s.id))).map((sub) => ({
          ...dmSubscriptionRecord(next(), sub.user_id, streamRecipients.get(sub.stream_id) ?? 0, sub.is_user_active === 1),
          active: sub.active === 1,
          color: sub.color,
          is_muted: sub.is_muted === 1,
          pin_to_top: sub.pin_to_top === 1,
          desktop_notifications: nullableBool(sub.desktop_notifications),
          audible_notifications: nullableBool(sub.audible_notifications),
          push_notifications: nullableBool(sub.push_notifications),
          email_notifications: nullableBool(sub.email_notifications),
          wildcard_mentions_notify: nullableBool(sub.wildcard_mentions_notify),
        })),
      ),
      mapped(users(), (page) => humans(page).map((u) => dmSubscriptionRecord(next(), u.id, personalRecipient(plan, u), u.is_active === 1))),
      mapped(groupRecipients(), (page) => page.flatMap((r) => r.dm_key.split(",").map((id) => dmSubscriptionRecord(next(), Number(id), r.id, true)))),
    ),
  );

  const perUser = <T>(fetch: (rows: ReturnType<typeof q.perUserRows>) => Promise<T[]>, fn: (row: T) => Record<string, unknown>) => {
    restart();
    return mapped(users(), async (page) => (await fetch(q.perUserRows(db, page.map((u) => u.id)))).map(fn));
  };
  await out.table("zerver_alertword", perUser((r) => r.alertWords(), (w) => ({ id: w.id, user_profile: w.user_id, realm: w.realm_id, word: w.word })));
  await out.table("zerver_customprofilefieldvalue", perUser((r) => r.profileValues(), (v) => ({ id: next(), user_profile: v.user_id, field: v.field_id, value: v.value, rendered_value: v.rendered_value })));
  await out.table("zerver_muteduser", perUser((r) => r.mutedUsers(), (m) => ({ id: next(), user_profile: m.user_id, muted_user: m.muted_user_id, date_muted: seconds(m.date_muted) })));
  await out.table("zerver_userpresence", perUser((r) => r.presence(), (p) => ({ id: next(), user_profile: p.user_id, realm: p.realm_id, last_active_time: seconds(p.last_active_time), last_connected_time: seconds(p.last_connected_time), last_update_id: p.last_update_id })));
  await out.table("zerver_userstatus", perUser((r) => r.statuses(), (s) => ({ id: next(), user_profile: s.user_id, timestamp: seconds(s.timestamp), client: null, status_text: s.status_text, emoji_name: s.emoji_name, emoji_code: s.emoji_code, reaction_type: s.reaction_type })));
  await out.table("zerver_usertopic", perUser((r) => r.userTopics(), (t) => ({ id: next(), user_profile: t.user_id, stream: t.stream_id, recipient: streamRecipients.get(t.stream_id) ?? null, topic_name: t.topic_name, last_updated: seconds(t.last_updated), visibility_policy: t.visibility_policy })));

  const scheduled = options.publicOnly ? [] : await small.scheduled;
  const scheduledRecords: Record<string, unknown>[] = [];
  for (const s of scheduled) {
    const participants = idList(s.dm_user_ids);
    const others = participants.filter((id) => id !== s.sender_id);
    const recipient = s.stream_id !== null ? (streamRecipients.get(s.stream_id) ?? null) : others.length === 1 ? await personalRecipientOf(db, realmId, plan, others[0] ?? 0) : ((await q.groupRecipientByKey(db, participants.join(","))) ?? null);
    scheduledRecords.push(scheduledRecord(s, recipient, plan.clients.get(s.client) ?? 0));
  }
  await out.table("zerver_scheduledmessage", onePage(scheduledRecords));

  // Rookery's own: Zulip's importer reads neither table (its exports leave them out).
  if (!options.publicOnly) {
    await out.table("zerver_draft", perUser((r) => r.drafts(), (d) => ({ id: d.id, user_profile: d.user_id, type: d.type, to: d.to_ids, topic: d.topic, content: d.content, last_edit_time: seconds(d.last_edit_time) })));
  }
  const messageIds = () => keyedIds((after) => q.messageIdsPage(db, realmId, after, 1000, options.publicOnly));
  await out.table("zerver_submessage", mapped(messageIds(), async (ids) => (await q.submessagesOf(db, ids)).map((s) => ({ id: s.id, message: s.message_id, sender: s.sender_id, msg_type: s.msg_type, content: s.content }))));
  restart();
  await out.table("zerver_reaction", mapped(messageIds(), async (ids) => (await q.reactionsOf(db, ids)).map((r) => ({ id: next(), user_profile: r.user_id, message: r.message_id, emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type }))));
}

async function personalRecipientOf(db: Db, realmId: number, plan: IdPlan, userId: number): Promise<number> {
  const [user] = await q.usersPage(db, realmId, userId - 1, 1);
  return user && user.id === userId ? personalRecipient(plan, user) : plan.recipientBase + 2 * userId;
}

async function* keyedIds(fetch: (afterId: number) => Promise<number[]>): AsyncGenerator<number[]> {
  for (let afterId = 0; ; ) {
    const page = await fetch(afterId);
    if (page.length === 0) return;
    afterId = page[page.length - 1] ?? afterId;
    yield page;
  }
}

async function* concat(...sources: Pages[]): Pages {
  for (const source of sources) yield* source;
}

/** A stored JSON list of user ids (empty when unreadable). */
function idList(text: string): number[] {
  try {
    const value: unknown = JSON.parse(text || "[]");
    return Array.isArray(value) ? value.filter((v): v is number => typeof v === "number") : [];
  } catch {
    return [];
  }
}

function nullableBool(value: number | null): boolean | null {
  return value === null ? null : value === 1;
}

function parse(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
