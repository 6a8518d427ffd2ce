import type { AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import type { Outbox } from "../events/outbox.js";
import { insertUser, updateUser, userById, type UserRow } from "../db/queries/users.js";
import { addNewUserToSystemGroups } from "../actions/user-groups.js";
import { emailHost } from "../actions/users.js";
import { initialSettingsFor } from "../lib/users/settings.js";
import { dummyEmail, EmailVisibility } from "../lib/users/users.js";
import { Role } from "../lib/users/roles.js";
import { randomToken } from "../base/secrets.js";
import { child, flag, text, type SlackObject } from "./slack-export.js";
import { ImportError } from "./slack-zip.js";

/** The accounts made of the workspace's users. */
export interface ImportedUsers {
  /** Every Slack user id (merged ones included) → its account. */
  bySlackId: Map<string, UserRow>;
  /** Every Slack user id → the name a mention of it shows. */
  names: Map<string, string>;
  users: number;
  deactivated: number;
  bots: number;
}

/**
 * Accounts without passwords (claimed by password reset), as Zulip's converter makes them: the
 * primary owner first; owners, administrators and guests as Slack marks them; deleted users
 * deactivated; bots (and Slackbot) as generic bots; users sharing an address merged into one.
 * `integrationBots` are bots that posted without being in users.json (bot id → name).
 */
export async function importUsers(ctx: AppContext, tx: Db, outbox: Outbox, realmId: number, slackUsers: readonly SlackObject[], integrationBots: ReadonlyMap<string, string>): Promise<ImportedUsers> {
  const ordered = [...slackUsers].sort((a, b) => Number(flag(b, "is_primary_owner")) - Number(flag(a, "is_primary_owner")));
  for (const [botId, name] of integrationBots) ordered.push({ id: botId, name, real_name: name, deleted: false, is_bot: true, profile: { bot_id: botId, real_name_normalized: name } });
  const out: ImportedUsers = { bySlackId: new Map(), names: new Map(), users: 0, deactivated: 0, bots: 0 };
  const initial = await initialSettingsFor(tx, realmId);
  const byEmail = new Map<string, UserRow>();
  const botEmails = new Map<string, number>();
  for (const slackUser of ordered) {
    const slackId = text(slackUser, "id") ?? "";
    const fullName = fullNameOf(slackUser);
    out.names.set(slackId, fullName);
    const email = emailOf(ctx, slackUser, fullName, botEmails);
    const merged = byEmail.get(email.toLowerCase());
    if (merged) {
      out.bySlackId.set(slackId, merged);
      continue;
    }
    const isBot = flag(slackUser, "is_bot") || fullName.toLowerCase() === "slackbot";
    const active = !flag(slackUser, "deleted");
    const tz = text(slackUser, "tz");
    const id = await insertUser(tx, {
      realm_id: realmId,
      email,
      delivery_email: email,
      full_name: fullName,
      password_hash: null,
      api_key: randomToken(32),
      role: roleOf(slackUser),
      is_active: active ? 1 : 0,
      is_bot: isBot ? 1 : 0,
      bot_type: isBot ? 1 : null,
      bot_owner_id: null,
      is_billing_admin: 0,
      date_joined: ctx.clock.now(),
      timezone: tz !== undefined && tz.includes("/") ? tz : "America/New_York",
      avatar_source: "G",
      avatar_version: 1,
      email_address_visibility: initial.emailAddressVisibility,
      settings: initial.settings,
    });
    if (initial.emailAddressVisibility !== EmailVisibility.EVERYONE) await updateUser(tx, id, { email: dummyEmail(id, emailHost(ctx)) });
    const user = await userById(tx, id);
    if (!user) throw new Error("created user vanished");
    // As doCreateUser does, less its realm_user events: nobody is there to receive them, and
    // announcing each account to every earlier one costs time in the square of their number.
    await addNewUserToSystemGroups(ctx, tx, outbox, user);
    byEmail.set(email.toLowerCase(), user);
    out.bySlackId.set(slackId, user);
    out.users++;
    if (!active) out.deactivated++;
    if (isBot) out.bots++;
  }
  return out;
}

/** Zulip's get_user_full_name: a live user's real name (else handle); a deleted user's handle. */
function fullNameOf(user: SlackObject): string {
  const name = text(user, "name") ?? text(user, "id") ?? "";
  if (user["deleted"] === false) return text(user, "real_name") || name;
  return name;
}

/** Guests (single- and multi-channel), owners (primary or not), administrators, members. */
function roleOf(user: SlackObject): number {
  if (flag(user, "is_restricted") || flag(user, "is_ultra_restricted")) return Role.GUEST;
  if (flag(user, "is_owner") || flag(user, "is_primary_owner")) return Role.OWNER;
  return flag(user, "is_admin") ? Role.ADMINISTRATOR : Role.MEMBER;
}

/** Zulip's addresses: the profile's email; for a bot `<name>-bot@<host>`, numbered when taken. */
function emailOf(ctx: AppContext, slackUser: SlackObject, fullName: string, botEmails: Map<string, number>): string {
  const profile = child(slackUser, "profile");
  const email = text(profile, "email");
  if (email !== undefined && email !== "") return email;
  const host = emailHost(ctx);
  const botName = text(profile, "real_name_normalized") ?? text(profile, "first_name") ?? (fullName.toLowerCase() === "slackbot" ? "imported-slackbot" : undefined);
  if (botName === undefined) throw new ImportError(`users.json: user ${text(slackUser, "id") ?? "?"} has no email address and is not a bot; nothing was imported`);
  const local = botName === "imported-slackbot" ? "imported-slackbot-bot" : botName.replace(/Bot/g, "").replace(/ /g, "").toLowerCase() + "-bot";
  const seen = botEmails.get(local) ?? 0;
  botEmails.set(local, seen + 1);
  return seen === 0 ? `${local}@${host}` : `${local}-${seen + 1}@${host}`;
}
