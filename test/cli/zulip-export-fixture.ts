import { pbkdf2Sync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { hash as argon2Hash } from "@node-rs/argon2";
import * as tar from "tar";
import { PNG } from "../api/realm-emoji-helpers.js";

/**
 * An export as a Zulip 9 server writes it, built from the tables and fields its export format
 * documents: realm.json, two message batches, attachment.json and uploads/, avatars/ and emoji/
 * with their records.json. Ids are Zulip's (not Rookery's order), and records carry fields
 * Rookery does not use (uuid, tos_version, the message's type…), which the import must list.
 */

export const ZULIP = {
  realm: 7,
  users: { iago: 11, hamlet: 12, othello: 13, bot: 14, gone: 15 },
  crossRealm: { notification: 1, welcome: 2 },
  channels: { general: 21, secret: 22 },
  recipients: { iago: 31, hamlet: 32, othello: 33, bot: 34, gone: 35, general: 41, secret: 42, huddle: 51 },
  groups: { nobody: 61, owners: 62, admins: 63, moderators: 64, full: 65, members: 66, everyone: 67, internet: 68, team: 69 },
  hamletPassword: "hamlet-secret-1",
  othelloPassword: "othello-secret-2",
  botKey: "abcdefghijklmnopqrstuvwxyzABCDEF",
  upload: { pathId: "7/ab/cdEFghIJ/notes.txt", data: Buffer.from("zulip notes\n") },
  avatar: PNG,
  emoji: Buffer.from("GIF89a emoji bytes"),
  firstMessage: 1001,
} as const;

const T0 = 1_700_000_000;

/** Django's pbkdf2_sha256 hash of a password (its format: algorithm$iterations$salt$base64). */
function djangoPbkdf2(password: string, salt: string, iterations = 600_000): string {
  return `pbkdf2_sha256$${iterations}$${salt}$${pbkdf2Sync(password, salt, iterations, 32, "sha256").toString("base64")}`;
}

function user(id: number, name: string, email: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id, realm: ZULIP.realm, email, delivery_email: email, full_name: name, is_active: true, is_bot: false, bot_type: null, bot_owner: null,
    role: 400, is_billing_admin: false, is_mirror_dummy: false, date_joined: T0, last_login: T0 + 10, last_reminder: null, timezone: "Europe/Oslo",
    avatar_source: "G", avatar_version: 1, avatar_hash: null, email_address_visibility: 1, recipient: 0, default_sending_stream: null,
    default_events_register_stream: null, default_all_public_streams: false, last_active_message_id: null, tos_version: "-1", uuid: `uuid-${id}`,
    twenty_four_hour_time: true, enter_sends: false, emojiset: "google", long_term_idle: false, onboarding_steps: [], user_permissions: [], groups: [],
    api_key: `keyOfUser${id}xxxxxxxxxxxxxxxxxxxxxxxx`.slice(0, 32), password: "!unusable", ...extra,
  };
}

function message(id: number, sender: number, recipient: number, subject: string, content: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id, sender, recipient, realm: ZULIP.realm, subject, content, rendered_content: `<p>${content}</p>`, rendered_content_version: 1, date_sent: T0 + id,
    sending_client: 1, last_edit_time: null, edit_history: null, has_attachment: false, has_image: false, has_link: false, type: 1, search_tsvector: "'x':1", ...extra,
  };
}

/** Writes the export's folder under `dir` and returns it (realm.json's tables in `tables` may be changed first). */
export async function writeZulipExport(dir: string, change: (files: Record<string, unknown>) => void = () => {}): Promise<string> {
  const { users: u, recipients: r, channels: c, groups: g } = ZULIP;
  const root = path.join(dir, "zulip-export-abcdefgh");
  const humans = [
    user(u.iago, "Iago", "iago@example.test", { role: 200 }),
    user(u.hamlet, "King Hamlet", "hamlet@example.test", { password: djangoPbkdf2(ZULIP.hamletPassword, "s4ltS4lt"), avatar_source: "U", avatar_version: 2 }),
    user(u.othello, "Othello", "othello@example.test", { password: `argon2${await argon2Hash(ZULIP.othelloPassword, { memoryCost: 1024, timeCost: 2, parallelism: 1 })}` }),
    user(u.bot, "Bot of Hamlet", "hamlet-bot@example.test", { is_bot: true, bot_type: 1, bot_owner: u.hamlet, api_key: ZULIP.botKey }),
    user(u.gone, "Gone User", "gone@example.test", { is_active: false }),
  ].map((x) => ({ ...x, recipient: (r as Record<string, number>)[Object.entries(u).find(([, id]) => id === x.id)?.[0] ?? ""] }));
  const systemGroups: [number, string][] = [[g.nobody, "role:nobody"], [g.owners, "role:owners"], [g.admins, "role:administrators"], [g.moderators, "role:moderators"], [g.full, "role:fullmembers"], [g.members, "role:members"], [g.everyone, "role:everyone"], [g.internet, "role:internet"]];
  const chain = [g.owners, g.admins, g.moderators, g.full, g.members, g.everyone, g.internet];
  const realm = {
    zerver_realm: [{
      id: ZULIP.realm, string_id: "", name: "Zulip Nine", description: "From **Zulip**", date_created: T0, deactivated: false, uuid: "realm-uuid", uuid_owner_secret: "secret",
      invite_required: true, emails_restricted_to_domains: false, waiting_period_threshold: 3, message_retention_days: -1, org_type: 10, plan_type: 1,
      new_stream_announcements_stream: c.general, signup_announcements_stream: null, zulip_update_announcements_stream: null, push_notifications_enabled: false,
      create_multiuse_invite_group: g.admins, can_access_all_users_group: g.everyone, can_create_public_channel_group: g.members, can_create_private_channel_group: g.members,
      direct_message_initiator_group: g.everyone, direct_message_permission_group: g.everyone, authentication_methods: {},
    }],
    zerver_client: [{ id: 1, name: "website" }, { id: 2, name: "ZulipMobile" }],
    zerver_userprofile: humans,
    zerver_userprofile_mirrordummy: [],
    zerver_userprofile_crossrealm: [{ id: ZULIP.crossRealm.notification, email: "notification-bot@zulip.com", recipient_id: 91 }, { id: ZULIP.crossRealm.welcome, email: "welcome-bot@zulip.com", recipient_id: 92 }],
    zerver_usergroup: [...systemGroups.map(([id]) => ({ id, realm: ZULIP.realm })), { id: g.team, realm: ZULIP.realm }],
    zerver_namedusergroup: [
      ...systemGroups.map(([id, name]) => ({ id, usergroup_ptr: id, realm_for_sharding: ZULIP.realm, name, description: "", is_system_group: true, can_mention_group: g.nobody, deactivated: false })),
      { id: g.team, usergroup_ptr: g.team, realm_for_sharding: ZULIP.realm, name: "team", description: "The team", is_system_group: false, can_mention_group: g.everyone, deactivated: false },
    ],
    zerver_usergroupmembership: [
      { id: 1, user_group: g.admins, user_profile: u.iago },
      ...[u.hamlet, u.othello, u.bot, u.gone].flatMap((id, i) => [{ id: 10 + i, user_group: g.members, user_profile: id }, { id: 20 + i, user_group: g.full, user_profile: id }]),
      { id: 30, user_group: g.team, user_profile: u.hamlet },
    ],
    zerver_groupgroupmembership: [...chain.slice(1).map((supergroup, i) => ({ id: i + 1, supergroup, subgroup: chain[i] })), { id: 20, supergroup: g.team, subgroup: g.admins }],
    zerver_stream: [
      { id: c.general, realm: ZULIP.realm, name: "general", description: "Everyone", rendered_description: "<p>Everyone</p>", date_created: T0, deactivated: false, invite_only: false, history_public_to_subscribers: true, is_web_public: false, is_in_zephyr_realm: false, stream_post_policy: 1, message_retention_days: null, first_message_id: ZULIP.firstMessage, can_remove_subscribers_group: g.admins, creator: u.iago, recipient: r.general, email_token: "0123456789abcdef0123456789abcdef" },
      { id: c.secret, realm: ZULIP.realm, name: "secret", description: "", rendered_description: "", date_created: T0, deactivated: false, invite_only: true, history_public_to_subscribers: false, is_web_public: false, is_in_zephyr_realm: false, stream_post_policy: 1, message_retention_days: null, first_message_id: null, can_remove_subscribers_group: g.admins, creator: null, recipient: r.secret, email_token: "fedcba9876543210fedcba9876543210" },
    ],
    zerver_recipient: [
      ...Object.entries(u).map(([name, id]) => ({ id: (r as Record<string, number>)[name], type: 1, type_id: id })),
      { id: r.general, type: 2, type_id: c.general }, { id: r.secret, type: 2, type_id: c.secret }, { id: r.huddle, type: 3, type_id: 81 },
    ],
    zerver_huddle: [{ id: 81, huddle_hash: "hash", recipient: r.huddle, group_size: 3 }],
    zerver_subscription: [
      ...[u.iago, u.hamlet, u.othello, u.bot].map((id, i) => ({ id: i + 1, user_profile: id, recipient: r.general, active: true, is_user_active: true, color: "#76ce90", is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null })),
      { id: 10, user_profile: u.hamlet, recipient: r.secret, active: true, is_user_active: true, color: "#e79ab5", is_muted: true, pin_to_top: true, desktop_notifications: true, audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null },
      ...[u.iago, u.hamlet, u.othello].map((id, i) => ({ id: 20 + i, user_profile: id, recipient: r.huddle, active: true, is_user_active: true, color: "#c2c2c2", is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null })),
      ...Object.entries(u).map(([name, id], i) => ({ id: 30 + i, user_profile: id, recipient: (r as Record<string, number>)[name], active: true, is_user_active: true, color: "#c2c2c2", is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null })),
    ],
    zerver_defaultstream: [{ id: 1, realm: ZULIP.realm, stream: c.general }],
    zerver_realmemoji: [{ id: 5, realm: ZULIP.realm, name: "zulipcat", author: u.iago, file_name: "5.gif", is_animated: true, deactivated: false }],
    zerver_realmdomain: [],
    zerver_realmfilter: [{ id: 3, realm: ZULIP.realm, pattern: "#(?P<id>[0-9]+)", url_template: "https://tracker.example/{id}", order: 0 }],
    zerver_realmplayground: [{ id: 4, realm: ZULIP.realm, name: "Rust", pygments_language: "rust", url_template: "https://play.example/?code={code}" }],
    zerver_realmauthenticationmethod: [{ id: 1, realm: ZULIP.realm, name: "Email" }],
    zerver_realmauditlog: [{ id: 1, realm: ZULIP.realm, event_type: 215, event_time: T0 }],
    zerver_useractivity: [{ id: 1, user_profile: u.hamlet, client: 1, query: "send_message", count: 3, last_visit: T0 }],
    zerver_customprofilefield: [{ id: 8, realm: ZULIP.realm, name: "Team", hint: "", field_type: 1, field_data: "", order: 1, display_in_profile_summary: false, required: false }],
    zerver_customprofilefieldvalue: [{ id: 1, user_profile: u.hamlet, field: 8, value: "Castle", rendered_value: null }],
    zerver_usertopic: [{ id: 1, user_profile: u.othello, stream: c.general, recipient: r.general, topic_name: "lunch", last_updated: T0, visibility_policy: 1 }],
    zerver_muteduser: [{ id: 1, user_profile: u.othello, muted_user: u.iago, date_muted: T0 }],
    zerver_alertword: [{ id: 1, user_profile: u.hamlet, realm: ZULIP.realm, word: "ghost" }],
    zerver_userpresence: [],
    zerver_userstatus: [],
    zerver_scheduledmessage: [],
    zerver_reaction: [{ id: 1, user_profile: u.othello, message: ZULIP.firstMessage, emoji_name: "zulipcat", emoji_code: "5", reaction_type: "realm_emoji" }],
    zerver_submessage: [],
    zerver_realmuserdefault: [{ id: 1, realm: ZULIP.realm, emojiset: "google", enter_sends: false, twenty_four_hour_time: false }],
  };
  const batch1 = {
    zerver_message: [
      message(ZULIP.firstMessage, u.iago, r.general, "lunch", "Pizza today", { sending_client: 2 }),
      message(1002, u.hamlet, r.secret, "plans", "[notes](/user_uploads/7/ab/cdEFghIJ/notes.txt)", { has_attachment: true, has_link: true, last_edit_time: T0 + 2000, edit_history: JSON.stringify([{ user_id: u.hamlet, timestamp: T0 + 2000, prev_content: "notes", prev_rendered_content: "<p>notes</p>" }]) }),
      message(1003, u.hamlet, r.huddle, "", "All three"),
      message(1004, u.hamlet, r.othello, "", "Psst"),
    ],
    zerver_usermessage: [
      { id: 1, user_profile: u.iago, message: ZULIP.firstMessage, flags_mask: 1 },
      { id: 2, user_profile: u.hamlet, message: ZULIP.firstMessage, flags_mask: 2 },
      { id: 3, user_profile: u.othello, message: ZULIP.firstMessage, flags_mask: 0 },
      { id: 4, user_profile: u.hamlet, message: 1002, flags_mask: 1 },
      ...[u.iago, u.hamlet, u.othello].map((id, i) => ({ id: 5 + i, user_profile: id, message: 1003, flags_mask: id === u.hamlet ? 2049 : 2048 })),
      { id: 8, user_profile: u.hamlet, message: 1004, flags_mask: 2049 },
      { id: 9, user_profile: u.othello, message: 1004, flags_mask: 2048 },
    ],
  };
  const batch2 = {
    zerver_message: [message(1010, u.bot, r.general, "bots", "beep")],
    zerver_usermessage: [u.iago, u.hamlet, u.othello, u.bot].map((id, i) => ({ id: 20 + i, user_profile: id, message: 1010, flags_mask: id === u.bot ? 1 : 0 })),
  };
  const files: Record<string, unknown> = {
    "realm.json": realm,
    "messages-000001.json": batch1,
    "messages-000002.json": batch2,
    "attachment.json": { zerver_attachment: [{ id: 9, file_name: "notes.txt", path_id: ZULIP.upload.pathId, create_time: T0, size: ZULIP.upload.data.length, content_type: "text/plain", is_realm_public: false, is_web_public: false, realm: ZULIP.realm, owner: u.hamlet, messages: [1002], scheduled_messages: [] }] },
    "uploads/records.json": [{ realm_id: ZULIP.realm, user_profile_id: u.hamlet, user_profile_email: "hamlet@example.test", s3_path: ZULIP.upload.pathId, path: ZULIP.upload.pathId, size: ZULIP.upload.data.length, last_modified: T0, content_type: "text/plain" }],
    "avatars/records.json": [{ realm_id: ZULIP.realm, user_profile_id: u.hamlet, user_profile_email: "hamlet@example.test", s3_path: `${ZULIP.realm}/0123abcd.original`, path: `${ZULIP.realm}/0123abcd.original`, size: ZULIP.avatar.length, last_modified: T0, content_type: "image/png" }],
    "emoji/records.json": [{ realm_id: ZULIP.realm, author: u.iago, path: `${ZULIP.realm}/emoji/images/5.gif`, s3_path: `${ZULIP.realm}/emoji/images/5.gif`, file_name: "5.gif", name: "zulipcat", deactivated: false }],
    "realm_icons/records.json": [],
    "analytics.json": { analytics_realmcount: [], analytics_streamcount: [], analytics_usercount: [] },
  };
  change(files);
  for (const [name, value] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), typeof value === "string" ? value : JSON.stringify(value, null, 2));
  }
  fs.mkdirSync(path.join(root, "uploads", path.dirname(ZULIP.upload.pathId)), { recursive: true });
  fs.writeFileSync(path.join(root, "uploads", ZULIP.upload.pathId), ZULIP.upload.data);
  fs.mkdirSync(path.join(root, "avatars", String(ZULIP.realm)), { recursive: true });
  fs.writeFileSync(path.join(root, "avatars", `${ZULIP.realm}/0123abcd.original`), ZULIP.avatar);
  fs.mkdirSync(path.join(root, "emoji", `${ZULIP.realm}/emoji/images`), { recursive: true });
  fs.writeFileSync(path.join(root, "emoji", `${ZULIP.realm}/emoji/images/5.gif`), ZULIP.emoji);
  return root;
}

/** Packs an export's folder as Zulip does: a .tar.gz whose top folder is the export's. */
export async function packExport(root: string, file: string): Promise<string> {
  await tar.c({ gzip: true, file, cwd: path.dirname(root), portable: true }, [path.basename(root)]);
  return file;
}
