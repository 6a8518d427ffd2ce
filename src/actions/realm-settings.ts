import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { realmById, updateRealm, type RealmRow } from "../db/queries/realms.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox, Recipients } from "../events/outbox.js";
import type { RealmEvent, RealmSettingValue } from "../events/types.js";
import { adminRequired, badRequest, ownerRequired } from "../base/errors.js";
import type { RealmGroups } from "../caches/groups.js";
import { REALM_DEFAULTS, realmProps, type RealmGroupSetting } from "../lib/realm/props.js";
import { realmSettingGroup } from "../lib/groups/realm-groups.js";
import { checkGroupForRealmSetting, REALM_PERMISSION_SETTINGS } from "../lib/realm/permissions.js";
import { currentRealmValue, DICT_EVENT_SETTINGS, parseLimit, REALM_SETTINGS, type DecodedSettingValue } from "../lib/realm/settings.js";
import { Role, isAdmin } from "../lib/users/roles.js";
import { LANGUAGES } from "../lib/users/settings.js";
import { accessStreamById } from "../lib/channels/streams.js";
import { SystemGroups } from "../lib/groups/system-groups.js";
import { updateFullMembersGroup } from "./user-groups.js";

/** PATCH /realm's decoded parameters by name (only those sent). */
export type RealmSettingChanges = ReadonlyMap<string, DecodedSettingValue>;

const TIME_LIMITS = [
  "message_content_delete_limit_seconds",
  "message_content_edit_limit_seconds",
  "move_messages_within_stream_limit_seconds",
  "move_messages_between_streams_limit_seconds",
];
const STREAM_SETTINGS = ["new_stream_announcements_stream_id", "signup_announcements_stream_id", "zulip_update_announcements_stream_id"];
const OWNER_GROUPS = ["invite_to_realm_policy", "invite_required", "create_multiuse_invite_group"];
const OWNER_EMAILS = ["emails_restricted_to_domains", "disallow_disposable_email_addresses"];
/** Settings Zulip stores by plain assignment (its property_types), in update_realm's order. */
const PLAIN = REALM_SETTINGS.filter((s) => ["bool", "choice", "int", "text", "non-negative"].includes(s.kind) && !["string_id", "org_type"].includes(s.name)).map((s) => s.name);
const VIDEO_CHAT_PROVIDER_IDS = Object.values(REALM_DEFAULTS.available_video_chat_providers).map((p) => p.id);
const GIPHY_RATING_IDS = [0, 1, 2, 3, 4, 5];

/** The checked request: every value final, in the order Zulip writes them. */
interface Plan {
  /** Plain settings and the parsed limits, retention and Jitsi URL, in Zulip's order. */
  values: [string, RealmSettingValue][];
  groups: [RealmGroupSetting, number][];
  streams: [string, number][];
  orgType: number | undefined;
}

/**
 * PATCH /realm (Zulip 9's update_realm): administrators only, some settings owners only; every
 * check passes before anything is written, then only values that differ are stored and
 * announced. Returns the response's fields: each changed setting with its new value ("updated"
 * for text, as Zulip answers).
 *
 * Events go to every active user of the realm: realm update (update_dict for message editing
 * and group settings), and user_group member changes when the waiting period moves people in or
 * out of role:fullmembers.
 */
export async function checkUpdateRealm(ctx: AppContext, actor: UserRow, changes: RealmSettingChanges): Promise<Record<string, unknown>> {
  if (!isAdmin(actor)) throw adminRequired();
  const groups = await ctx.groups.of(actor.realm_id);
  return write(ctx, async (tx, outbox) => {
    const realm = await realmById(tx, actor.realm_id);
    if (!realm) throw new Error(`user ${actor.id} has no realm`);
    const plan = await checkPlan(tx, actor, changes, groups);
    const data = await doUpdateRealm(ctx, tx, outbox, realm, plan, (name) => realmSettingGroup(groups, realm, name).id);
    outbox.invalidate({ cache: "realm", id: realm.id });
    return data;
  });
}

/** Zulip's checks in Zulip's order; the group and channel ones it makes while writing come last. */
async function checkPlan(tx: Db, actor: UserRow, changes: RealmSettingChanges, realmGroups: RealmGroups): Promise<Plan> {
  const has = (name: string) => changes.has(name);
  const value = (name: string) => changes.get(name);
  const isOwner = actor.role === Role.OWNER;
  const language = value("default_language");
  if (typeof language === "string" && !Object.hasOwn(LANGUAGES, language)) throw badRequest(`Invalid language '${language}'`);
  if (has("authentication_methods")) checkAuthenticationMethods(isOwner, value("authentication_methods"));
  const provider = value("video_chat_provider");
  if (typeof provider === "number" && !VIDEO_CHAT_PROVIDER_IDS.includes(provider)) throw badRequest(`Invalid video_chat_provider ${provider}`);
  const rating = value("giphy_rating");
  if (typeof rating === "number" && !GIPHY_RATING_IDS.includes(rating)) throw badRequest(`Invalid giphy_rating ${rating}`);
  let retention: number | null | undefined;
  if (has("message_retention_days")) {
    if (!isOwner) throw ownerRequired();
    retention = parseLimit("message_retention_days", value("message_retention_days") ?? null, -1);
  }
  if ([...OWNER_GROUPS, ...OWNER_EMAILS, "waiting_period_threshold"].some(has) && !isOwner) throw ownerRequired();
  const limits = TIME_LIMITS.filter(has).map((name): [string, RealmSettingValue] => [name, parseLimit(name, value(name) ?? null, null)]);

  const values: [string, RealmSettingValue][] = PLAIN.filter(has).map((name) => [name, scalar(value(name))]);
  if (retention !== undefined) values.push(["message_retention_days", retention]);
  values.push(...limits);
  if (has("jitsi_server_url")) values.push(["jitsi_server_url", scalar(value("jitsi_server_url"))]);

  const groups: [RealmGroupSetting, number][] = [];
  for (const name of Object.keys(REALM_PERMISSION_SETTINGS) as RealmGroupSetting[]) {
    const id = value(name);
    if (typeof id !== "number") continue;
    const groupId = checkGroupForRealmSetting(realmGroups, name, id);
    // Rookery shows every user to guests, so role:everyone is the one value the setting can truthfully take.
    if (name === "can_access_all_users_group" && realmGroups.get(groupId)?.name !== SystemGroups.EVERYONE) {
      throw badRequest("Restricting guests' access to other users is not supported by this server.");
    }
    groups.push([name, groupId]);
  }
  const streams: [string, number][] = [];
  for (const name of STREAM_SETTINGS) {
    const id = value(name);
    if (typeof id !== "number") continue;
    if (id >= 0) await accessStreamById(tx, actor, id, { allowRealmAdmin: true });
    streams.push([name, id]);
  }
  if (has("string_id")) {
    if (!isOwner) throw ownerRequired();
    // Only demo organisations may change their subdomain, and this server makes none.
    throw badRequest("Must be a demo organization.");
  }
  const orgType = value("org_type");
  return { values, groups, streams, orgType: typeof orgType === "number" ? orgType : undefined };
}

/** Writes the plan and queues its events in Zulip's order; returns the response's fields. */
async function doUpdateRealm(
  ctx: AppContext,
  tx: Db,
  outbox: Outbox,
  realm: RealmRow,
  plan: Plan,
  currentGroup: (name: RealmGroupSetting) => number,
): Promise<Record<string, unknown>> {
  const recipients: Recipients = { realmId: realm.id, except: [] };
  const props: Record<string, unknown> = { ...realmProps(realm) };
  const columns: { name?: string; description?: string } = {};
  const data: Record<string, unknown> = {};
  const events: RealmEvent[] = [];
  let waitingPeriod: number | undefined;
  const store = (name: string, value: unknown) => {
    if (name === "name" || name === "description") columns[name] = String(value);
    else props[name] = value;
  };

  // Zulip sets limits turned to "unlimited" (and the default Jitsi) as it parses them, then the rest in order.
  const early = plan.values.filter(([name, value]) => value === null && isNullable(name));
  for (const [name, value] of [...early, ...plan.values.filter((entry) => !early.includes(entry))]) {
    if (currentRealmValue(realm, name) === value) continue;
    store(name, value);
    events.push(DICT_EVENT_SETTINGS.has(name) ? dictEvent({ [name]: value }) : { type: "realm", op: "update", property: name, value });
    data[name] = typeof value === "string" ? "updated" : value;
    if (name === "waiting_period_threshold" && typeof value === "number") waitingPeriod = value;
  }
  for (const [name, id] of plan.groups) {
    if (currentGroup(name) === id) continue;
    store(name, id);
    events.push(dictEvent({ [name]: id }));
    data[name] = id;
  }
  for (const [name, id] of plan.streams) {
    const stored = currentRealmValue(realm, name);
    // As Zulip compares: an unset channel always counts as a change.
    if (stored !== -1 && stored === id) continue;
    store(name, id < 0 ? -1 : id);
    events.push({ type: "realm", op: "update", property: name, value: id });
    data[name] = id;
  }
  if (plan.orgType !== undefined) {
    // Zulip announces the organisation type even when it is unchanged.
    store("org_type", plan.orgType);
    events.push({ type: "realm", op: "update", property: "org_type", value: plan.orgType });
    data.org_type = plan.orgType;
  }
  if (events.length === 0) return data;

  await updateRealm(tx, realm.id, { ...columns, props: JSON.stringify(props) });
  for (const event of events) {
    outbox.sendTo(event, recipients);
    if (event.op === "update" && event.property === "waiting_period_threshold" && waitingPeriod !== undefined) {
      await updateFullMembersGroup(ctx, tx, outbox, realm.id, waitingPeriod);
    }
  }
  return data;
}

/** Owners only; names must be the server's backends, and one must stay enabled (Zulip's checks). */
function checkAuthenticationMethods(isOwner: boolean, value: DecodedSettingValue | undefined): void {
  if (!isOwner) throw ownerRequired();
  const methods = typeof value === "object" && value !== null ? value : {};
  const valid = Object.keys(REALM_DEFAULTS.authentication_methods).sort();
  for (const name of Object.keys(methods)) {
    if (!valid.includes(name)) throw badRequest(`Invalid authentication method: ${name}. Valid methods are: [${valid.map((v) => `'${v}'`).join(", ")}]`);
  }
  // Python's `True in values()`: 1 counts as True.
  if (!Object.values(methods).some((v) => v === true || v === 1)) throw badRequest("At least one authentication method must be enabled.");
  // With e-mail the only backend, the one accepted value is the current one: nothing changes.
}

function dictEvent(data: Record<string, unknown>): RealmEvent {
  return { type: "realm", op: "update_dict", property: "default", data };
}

function isNullable(name: string): boolean {
  return TIME_LIMITS.includes(name) || name === "jitsi_server_url";
}

function scalar(value: DecodedSettingValue | undefined): RealmSettingValue {
  if (value === undefined || (typeof value === "object" && value !== null)) throw new Error("a PATCH /realm scalar setting decoded to an object");
  return value;
}
