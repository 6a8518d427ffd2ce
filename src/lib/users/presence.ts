import type { AppContext } from "../../context.js";
import type { UserRow } from "../../db/queries/users.js";
import type { PresenceEntry } from "../../events/changes.js";
import { JsonText } from "../../base/json-text.js";
import { LEGACY_ACTIVITY_OFFSET_SECS, PRESENCE_HISTORY_DAYS } from "../../caches/presence.js";

/** The legacy per-client presence dict. */
export interface LegacyPresence {
  client: "website";
  status: "active" | "idle";
  timestamp: number;
  pushable: boolean;
}

/** Seconds for the wire; a missing time reads as the date the user joined (as Zulip does). */
function seconds(ms: number | null, user: UserRow): number {
  return Math.floor((ms ?? user.date_joined) / 1000);
}

/** The modern entry: active_timestamp and idle_timestamp. */
export function modernPresence(e: PresenceEntry, user: UserRow): { active_timestamp: number; idle_timestamp: number } {
  return { active_timestamp: seconds(e.lastActive, user), idle_timestamp: seconds(e.lastConnected, user) };
}

/** The legacy per-client dict: active if last active within 70 s of the last connection. */
export function legacyClientPresence(e: PresenceEntry, user: UserRow): LegacyPresence {
  const active = seconds(e.lastActive, user);
  const connected = seconds(e.lastConnected, user);
  return active + LEGACY_ACTIVITY_OFFSET_SECS >= connected
    ? { client: "website", status: "active", timestamp: active, pushable: false }
    : { client: "website", status: "idle", timestamp: connected, pushable: false };
}

/** The legacy entry: aggregated and website. */
export function legacyPresence(e: PresenceEntry, user: UserRow): { aggregated: Omit<LegacyPresence, "pushable">; website: LegacyPresence } {
  const website = legacyClientPresence(e, user);
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

/** Realm presence as a client asks for it: the format, and which rows (all recent, or changed since an id); `asText` answers JSON text (an endpoint's answer) rather than an object (/register's state, which events then change). */
export interface PresenceQuery {
  modern: boolean;
  lastUpdateId: number | undefined;
  asText?: boolean;
  /** This process's copy is current already (the caller's ping read Redis). */
  current?: boolean;
}

/**
 * Each entry's `"key":{…}` text, made once per change and user row (an entry is replaced, never
 * changed, when its user pings again): under churn every answer lists most of the realm, and
 * each entry goes into the answers of every user who pings before it changes again.
 */
const texts = new WeakMap<PresenceEntry, { user: UserRow; modern?: string; legacy?: string }>();

function entryText(entry: PresenceEntry, user: UserRow, modern: boolean): string {
  let cached = texts.get(entry);
  if (!cached || cached.user !== user) {
    cached = { user };
    texts.set(entry, cached);
  }
  if (modern) return (cached.modern ??= `"${user.id}":${JSON.stringify(modernPresence(entry, user))}`);
  return (cached.legacy ??= `${JSON.stringify(user.email)}:${JSON.stringify(legacyPresence(entry, user))}`);
}

/** Zulip's get_presence_dict_by_realm: the presences of active humans and the id the client should send next. */
export async function realmPresences(ctx: AppContext, caller: UserRow, query: PresenceQuery & { asText: true }, presenceDisabled: boolean): Promise<{ presences: JsonText; lastUpdateId: number }>;
export async function realmPresences(ctx: AppContext, caller: UserRow, query: PresenceQuery, presenceDisabled: boolean): Promise<{ presences: Record<string, unknown>; lastUpdateId: number }>;
export async function realmPresences(ctx: AppContext, caller: UserRow, query: PresenceQuery, presenceDisabled: boolean): Promise<{ presences: Record<string, unknown> | JsonText; lastUpdateId: number }> {
  if (presenceDisabled) return { presences: query.asText ? new JsonText("{}") : {}, lastUpdateId: -1 };
  const realm = await ctx.presence.realm(caller.realm_id, query.current === true);
  const since = query.lastUpdateId;
  const incremental = since !== undefined && since > 0;
  const cutoff = ctx.clock.now() - PRESENCE_HISTORY_DAYS * 86400 * 1000;
  if (incremental && query.asText) {
    // Fast path: every user in the cache (nearly always), the answer made of kept text.
    const piece = (entry: PresenceEntry): string | null | undefined => {
      const found = ctx.users.cached(entry.userId);
      if (found instanceof Promise) return undefined;
      if (!found || !found.is_active || found.is_bot || found.realm_id !== caller.realm_id) return null;
      return entryText(entry, found, query.modern);
    };
    const made = realm.textSince(since, query.modern ? "modern" : "legacy", ctx.users.version, piece);
    if (made) return { presences: new JsonText(`{${made.text}}`), lastUpdateId: made.maxId === -1 ? since : made.maxId };
  }
  const candidates = incremental ? realm.changedSince(since) : [...realm.entries.values()];
  const presences: Record<string, unknown> = {};
  const parts: string[] = [];
  let maxId = -1;
  for (const entry of candidates) {
    if (!incremental && (entry.lastConnected ?? 0) < cutoff) continue;
    const found = ctx.users.cached(entry.userId);
    const user = found instanceof Promise ? await found : found;
    if (!user || !user.is_active || user.is_bot || user.realm_id !== caller.realm_id) continue;
    if (query.asText) parts.push(entryText(entry, user, query.modern));
    else if (query.modern) presences[String(user.id)] = modernPresence(entry, user);
    else presences[user.email] = legacyPresence(entry, user);
    maxId = Math.max(maxId, entry.updateId);
  }
  if (maxId === -1 && since !== undefined) maxId = since;
  return { presences: query.asText ? new JsonText(`{${parts.join(",")}}`) : presences, lastUpdateId: maxId };
}
