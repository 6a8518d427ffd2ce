import type { Insertable } from "kysely";
import type { UserTable } from "./schema.js";
import { randomToken } from "../base/secrets.js";

/** Role.MEMBER of lib/users/roles.ts, written out: db/ imports nothing above it. */
const MEMBER_ROLE = 400;

/** Zulip's settings.NOTIFICATION_BOT address and the bot's display name. */
export const NOTIFICATION_BOT = { email: "notification-bot@zulip.com", fullName: "Notification Bot" } as const;

/** Zulip's settings.WELCOME_BOT address and the bot's display name: it greets new users and organisations. */
export const WELCOME_BOT = { email: "welcome-bot@zulip.com", fullName: "Welcome Bot" } as const;

/** A system bot's address and display name. */
export type SystemBot = typeof NOTIFICATION_BOT | typeof WELCOME_BOT;

/** Zulip's settings.SYSTEM_BOT_REALM: the realm its cross-realm bots live in, as sender_realm_str names it. */
export const SYSTEM_BOT_REALM = "zulipinternal";

/** The client name of messages the server sends itself (Zulip's internal_send_* use "Internal"). */
export const INTERNAL_CLIENT = "Internal";

/** Zulip serves system bots' avatars from static files (zerver/lib/avatar.py get_static_avatar_url). */
const STATIC_AVATARS: Readonly<Record<string, string>> = {
  [NOTIFICATION_BOT.email]: "/static/images/static_avatars/notification-bot.png",
  [WELCOME_BOT.email]: "/static/images/static_avatars/welcome-bot.png",
};

/** A system bot's avatar URL, or undefined for any other address. */
export function systemBotAvatarUrl(email: string): string | undefined {
  return STATIC_AVATARS[email];
}

/** The user row of a realm's Notification Bot (createRealm and migration 006 insert exactly this). */
export function notificationBotRow(realmId: number, dateJoined: number): Insertable<UserTable> {
  return systemBotRow(NOTIFICATION_BOT, realmId, dateJoined);
}

/**
 * The user row of a realm's system bot. createRealm and the migrations that add a bot to older
 * realms insert exactly this, so a new database and an upgraded one hold the same bot. Like
 * Zulip's cross-realm bots it is a generic bot with a member role, no owner, no password and a
 * public address.
 */
export function systemBotRow(bot: SystemBot, realmId: number, dateJoined: number): Insertable<UserTable> {
  return {
    realm_id: realmId,
    email: bot.email,
    delivery_email: bot.email,
    full_name: bot.fullName,
    password_hash: null,
    api_key: randomToken(32),
    role: MEMBER_ROLE,
    is_active: 1,
    is_bot: 1,
    bot_type: 1,
    bot_owner_id: null,
    is_billing_admin: 0,
    date_joined: dateJoined,
    timezone: "",
    avatar_source: "G",
    avatar_version: 1,
    email_address_visibility: 1,
    settings: "{}",
    is_system_bot: 1,
  };
}
