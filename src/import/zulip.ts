import fs from "node:fs/promises";
import { sql } from "kysely";
import type { AppContext } from "../context.js";
import type { Db, Database } from "../db/index.js";
import { insertInChunks } from "../db/chunks.js";
import { RecipientType } from "../db/queries/messages.js";
import { NOTIFICATION_BOT, systemBotRow, WELCOME_BOT } from "../db/system-bots.js";
import { newStreamEmailToken, randomToken } from "../base/secrets.js";
import { REALM_CHANNEL_SETTINGS, REALM_COLUMNS } from "../lib/export/records.js";
import { REALM_GROUP_DEFAULTS } from "../lib/realm/props.js";
import { SETTINGS_BY_NAME } from "../lib/users/settings.js";
import { dmKey } from "../lib/messages/narrow.js";
import { deleteUploadFiles } from "../uploads/storage.js";
import { ImportError } from "./slack-zip.js";
import { requireEmptyTarget } from "./target.js";
import { ZulipArchive } from "./zulip-archive.js";
import { bit, bitOrNull, FieldUse, int, intOrNull, ms, msOrNull, str, type Rec, type Tables } from "./zulip-fields.js";
import { ZulipFiles } from "./zulip-files.js";
import { importMessages } from "./zulip-messages.js";

/** What `rookery import` did. */
export interface ZulipImportResult {
  realm_id: number;
  users: number;
  channels: number;
  messages: number;
  files: number;
  /** Tables and fields of the export that Rookery does not use, as `table` or `table.field`. */
  ignored: string[];
}

export interface ZulipImportOptions {
  /** Called with a line of progress now and then on long runs. */
  progress?: (line: string) => void;
  /** Where an archive is unpacked (default: the system's temporary folder). */
  scratchDir?: string;
}


/** Zulip versions whose export format this importer reads (migration_status.json's zulip_version). */
const KNOWN_MAJOR_VERSIONS = new Set([9]);

/** Tables with ids the import keeps: their sequences move past the largest afterwards (PostgreSQL). */
const SERIAL_TABLES = [
  "realm", "user", "stream", "message", "recipient", "submessage", "user_group", "realm_emoji", "realm_filter", "realm_playground", "realm_domain",
  "custom_profile_field", "attachment", "draft", "scheduled_message", "alert_word",
] as const;

/**
 * Loads an export in Zulip's format (from Zulip 9.x or from `rookery export`) into an empty
 * Rookery, keeping every id. The archive is unpacked and realm.json read first; the rows are then
 * written in one transaction, the message batches one file at a time: a failure at any point
 * leaves the database as it was, and the files stored so far are removed.
 */
export async function importZulip(ctx: AppContext, file: string, options: ZulipImportOptions = {}): Promise<ZulipImportResult> {
  await requireEmptyTarget(ctx.db, ctx.config.dataDir, "import");
  const archive = await ZulipArchive.open(file, options.scratchDir);
  const stored: string[] = [];
  const localFiles: string[] = [];
  try {
    await checkVersion(archive);
    const realm = await archive.tables("realm.json");
    return await ctx.store.write(async (tx) => {
      if (ctx.store.dialect === "sqlite") await sql`pragma cache_size = -65536`.execute(tx);
      return new ZulipImport(ctx, tx, archive, realm, options, stored, localFiles).run();
    });
  } catch (error) {
    for (const key of stored) await deleteUploadFiles(ctx.files, key).catch(() => undefined);
    for (const local of localFiles) await fs.rm(local, { force: true });
    throw error;
  } finally {
    await archive.close();
  }
}

/** Refuses an export written by a Zulip version whose format this importer does not know. */
async function checkVersion(archive: ZulipArchive): Promise<void> {
  const status = await archive.json("migration_status.json", false);
  if (status === undefined) return;
  const version = typeof status === "object" && status !== null ? (status as Rec)["zulip_version"] : undefined;
  const major = typeof version === "string" ? Number(/^(\d+)\./.exec(version)?.[1]) : NaN;
  if (!KNOWN_MAJOR_VERSIONS.has(major)) {
    throw new ImportError(`unknown export format version: migration_status.json says zulip_version ${JSON.stringify(version ?? null)}; rookery import reads exports of Zulip 9.x and of Rookery; nothing was imported`);
  }
}

/** One import, inside its transaction. */
class ZulipImport {
  private readonly fields = new FieldUse();
  private realmId = 0;
  private readonly result: ZulipImportResult = { realm_id: 0, users: 0, channels: 0, messages: 0, files: 0, ignored: [] };
  /** Recipient id → what it names. */
  private readonly recipients = new Map<number, { type: number; typeId: number; key: string }>();
  private readonly clients = new Map<number, string>();
  private readonly users = new Map<number, { id: number; realm_id: number; date_joined: number; avatar_version: number; avatar_source: string }>();

  constructor(
    private readonly ctx: AppContext,
    private readonly tx: Db,
    private readonly archive: ZulipArchive,
    private readonly realm: Tables,
    private readonly options: ZulipImportOptions,
    private readonly stored: string[],
    private readonly localFiles: string[],
  ) {
    for (const [table, rows] of Object.entries(realm)) this.fields.saw(table, rows);
  }

  private rows(table: string): Rec[] {
    return this.realm[table] ?? [];
  }

  private async insert<T extends keyof Database & string>(table: T, rows: readonly Rec[]): Promise<void> {
    const tx = this.tx as unknown as Db;
    await insertInChunks(rows, (slice) => tx.insertInto(table).values(slice as never).execute());
  }

  async run(): Promise<ZulipImportResult> {
    await this.importRealm();
    await this.importGroups();
    await this.importUsers();
    await this.importRecipientsAndChannels();
    await this.importRealmTables();
    this.result.messages = await importMessages({ ctx: this.ctx, tx: this.tx, archive: this.archive, fields: this.fields, realmId: this.realmId, recipients: this.recipients, clients: this.clients, progress: this.options.progress });
    await this.importMessageTables();
    await this.importPerUserTables();
    const files = new ZulipFiles(this.ctx, this.archive, this.fields, (table, rows) => this.insert(table, rows), this.realmId, this.users, this.stored, this.localFiles, this.result);
    await files.importAttachments();
    await files.importAvatarsEmojiIcons();
    await this.moveSequences();
    this.result.ignored = this.fields.ignored();
    return this.result;
  }

  private async importRealm(): Promise<void> {
    const [realm] = this.rows("zerver_realm");
    if (!realm) throw new ImportError("realm.json has no zerver_realm record; nothing was imported");
    const f = this.fields.reader("zerver_realm");
    const props: Rec = {};
    for (const name of REALM_COLUMNS) if (f(realm, name) !== undefined && realm[name] !== null) props[name] = realm[name];
    for (const name of REALM_CHANNEL_SETTINGS) props[`${name}_id`] = typeof f(realm, name) === "number" ? realm[name] : -1;
    for (const name of Object.keys(REALM_GROUP_DEFAULTS)) if (typeof f(realm, name) === "number") props[name] = realm[name];
    this.realmId = int(f(realm, "id"));
    this.result.realm_id = this.realmId;
    await this.insert("realm", [
      {
        id: this.realmId,
        string_id: str(f(realm, "string_id")),
        name: str(f(realm, "name")),
        description: str(f(realm, "description")),
        date_created: ms(f(realm, "date_created")),
        deactivated: bit(f(realm, "deactivated")),
        props: JSON.stringify(props),
      },
    ]);
    const c = this.fields.reader("zerver_client");
    for (const client of this.rows("zerver_client")) this.clients.set(int(c(client, "id")), str(c(client, "name")));
  }

  private async importGroups(): Promise<void> {
    const realm = this.rows("zerver_realm")[0] ?? {};
    const created = ms(realm["date_created"]);
    const u = this.fields.reader("zerver_usergroup");
    const n = this.fields.reader("zerver_namedusergroup");
    const named = new Map(this.rows("zerver_namedusergroup").map((g) => [int(n(g, "id")), g]));
    await this.insert(
      "user_group",
      this.rows("zerver_usergroup").map((g) => {
        const id = int(u(g, "id"));
        u(g, "realm");
        const nameRecord = named.get(id);
        if (nameRecord) {
          n(nameRecord, "usergroup_ptr");
          n(nameRecord, "realm_for_sharding");
        }
        return {
          id,
          realm_id: this.realmId,
          name: nameRecord ? str(n(nameRecord, "name")) : null,
          description: nameRecord ? str(n(nameRecord, "description")) : "",
          is_system_group: nameRecord ? bit(n(nameRecord, "is_system_group")) : 0,
          can_mention_group_id: nameRecord ? intOrNull(n(nameRecord, "can_mention_group")) : null,
          date_created: created,
        };
      }),
    );
  }

  private async importUsers(): Promise<void> {
    const f = this.fields.reader("zerver_userprofile");
    const rows: Rec[] = [];
    const owners: { id: number; owner: number }[] = [];
    for (const user of this.rows("zerver_userprofile")) {
      const settings: Rec = {};
      for (const key of Object.keys(user)) if (SETTINGS_BY_NAME.has(key)) settings[key] = f(user, key);
      const id = int(f(user, "id"));
      const owner = intOrNull(f(user, "bot_owner"));
      if (owner !== null) owners.push({ id, owner });
      for (const used of ["realm", "recipient", "is_mirror_dummy"]) f(user, used);
      const row = {
        id,
        realm_id: this.realmId,
        email: str(f(user, "email")),
        delivery_email: str(f(user, "delivery_email") ?? user["email"]),
        full_name: str(f(user, "full_name")),
        password_hash: typeof f(user, "password") === "string" && str(user["password"]) !== "" ? str(user["password"]) : null,
        api_key: typeof f(user, "api_key") === "string" ? str(user["api_key"]) : "",
        role: int(f(user, "role")),
        is_active: bit(f(user, "is_active")),
        is_bot: bit(f(user, "is_bot")),
        bot_type: intOrNull(f(user, "bot_type")),
        bot_owner_id: null,
        is_billing_admin: bit(f(user, "is_billing_admin")),
        date_joined: ms(f(user, "date_joined")),
        timezone: str(f(user, "timezone")),
        avatar_source: str(f(user, "avatar_source")) || "G",
        avatar_version: int(f(user, "avatar_version")),
        email_address_visibility: int(f(user, "email_address_visibility")) || 1,
        settings: JSON.stringify(settings),
        is_system_bot: 0,
      };
      // Without a key of its own (an export without secrets), a user gets a new one: bots' keys are then lost.
      if (row.api_key === "") row.api_key = randomToken(32);
      rows.push(row);
      this.users.set(id, row);
    }
    // The organisation's copies of Zulip's system bots, under the ids the export gave them.
    const x = this.fields.reader("zerver_userprofile_crossrealm");
    const date = ms(this.rows("zerver_realm")[0]?.["date_created"]);
    for (const bot of this.rows("zerver_userprofile_crossrealm")) {
      const which = [NOTIFICATION_BOT, WELCOME_BOT].find((b) => b.email === str(x(bot, "email")));
      x(bot, "recipient_id");
      if (!which) continue;
      const id = int(x(bot, "id"));
      rows.push({ ...systemBotRow(which, this.realmId, date), id, is_system_bot: 1 });
    }
    await this.insert("user", rows);
    for (const { id, owner } of owners) await this.tx.updateTable("user").set({ bot_owner_id: owner }).where("id", "=", id).execute();
    this.result.users = this.rows("zerver_userprofile").length;

    const m = this.fields.reader("zerver_usergroupmembership");
    await this.insert("user_group_member", this.rows("zerver_usergroupmembership").map((r) => ({ group_id: int(m(r, "user_group")), user_id: int(m(r, "user_profile")) })));
    for (const r of this.rows("zerver_usergroupmembership")) m(r, "id");
    const g = this.fields.reader("zerver_groupgroupmembership");
    await this.insert("user_group_subgroup", this.rows("zerver_groupgroupmembership").map((r) => ({ supergroup_id: int(g(r, "supergroup")), subgroup_id: int(g(r, "subgroup")), _: g(r, "id") })).map(({ _, ...rest }) => rest));
  }

  private async importRecipientsAndChannels(): Promise<void> {
    const r = this.fields.reader("zerver_recipient");
    const s = this.fields.reader("zerver_subscription");
    // A group conversation's members: its subscriptions (Zulip's Huddle has only a hash of them).
    const groupMembers = new Map<number, number[]>();
    const types = new Map(this.rows("zerver_recipient").map((rec) => [int(r(rec, "id")), { type: int(r(rec, "type")), typeId: int(r(rec, "type_id")) }]));
    for (const sub of this.rows("zerver_subscription")) {
      const recipient = types.get(int(s(sub, "recipient")));
      if (recipient?.type === RecipientType.GROUP) groupMembers.set(int(sub["recipient"]), [...(groupMembers.get(int(sub["recipient"])) ?? []), int(s(sub, "user_profile"))]);
    }
    const h = this.fields.reader("zerver_huddle");
    for (const huddle of this.rows("zerver_huddle")) for (const field of ["id", "huddle_hash", "recipient", "group_size"]) h(huddle, field);
    const recipientRows: Rec[] = [];
    for (const [id, { type, typeId }] of types) {
      const key = type === RecipientType.GROUP ? dmKey(groupMembers.get(id) ?? []) : "";
      this.recipients.set(id, { type, typeId, key });
      recipientRows.push({ id, type, type_id: type === RecipientType.GROUP ? 0 : typeId, dm_key: key });
    }
    await this.insert("recipient", recipientRows);

    const c = this.fields.reader("zerver_stream");
    await this.insert(
      "stream",
      this.rows("zerver_stream").map((st) => {
        for (const field of ["realm", "recipient", "is_in_zephyr_realm"]) c(st, field);
        return {
          id: int(c(st, "id")),
          realm_id: this.realmId,
          name: str(c(st, "name")),
          description: str(c(st, "description")),
          rendered_description: str(c(st, "rendered_description")),
          invite_only: bit(c(st, "invite_only")),
          is_web_public: bit(c(st, "is_web_public")),
          history_public_to_subscribers: bit(c(st, "history_public_to_subscribers")),
          stream_post_policy: int(c(st, "stream_post_policy")) || 1,
          message_retention_days: intOrNull(c(st, "message_retention_days")),
          can_remove_subscribers_group: int(c(st, "can_remove_subscribers_group")),
          date_created: ms(c(st, "date_created")),
          creator_id: intOrNull(c(st, "creator")),
          first_message_id: intOrNull(c(st, "first_message_id")),
          deactivated: bit(c(st, "deactivated")),
          // Zulip's token keeps the channel's email address; one that is not 32 hex digits is made anew.
          email_token: /^[0-9a-f]{32}$/.test(str(c(st, "email_token"))) ? str(st["email_token"]) : newStreamEmailToken(),
        };
      }),
    );
    this.result.channels = this.rows("zerver_stream").length;

    const subscriptions: Rec[] = [];
    for (const sub of this.rows("zerver_subscription")) {
      s(sub, "id");
      const recipient = this.recipients.get(int(sub["recipient"]));
      if (recipient?.type !== RecipientType.STREAM) continue;
      subscriptions.push({
        user_id: int(s(sub, "user_profile")),
        stream_id: recipient.typeId,
        active: bit(s(sub, "active")),
        is_user_active: bit(s(sub, "is_user_active")),
        color: str(s(sub, "color")) || "#c2c2c2",
        is_muted: bit(s(sub, "is_muted")),
        pin_to_top: bit(s(sub, "pin_to_top")),
        desktop_notifications: bitOrNull(s(sub, "desktop_notifications")),
        audible_notifications: bitOrNull(s(sub, "audible_notifications")),
        push_notifications: bitOrNull(s(sub, "push_notifications")),
        email_notifications: bitOrNull(s(sub, "email_notifications")),
        wildcard_mentions_notify: bitOrNull(s(sub, "wildcard_mentions_notify")),
      });
    }
    await this.insert("subscription", subscriptions);
    const d = this.fields.reader("zerver_defaultstream");
    await this.insert("default_stream", this.rows("zerver_defaultstream").map((row) => ({ realm_id: this.realmId, stream_id: int(d(row, "stream")), _: [d(row, "id"), d(row, "realm")] })).map(({ _, ...rest }) => rest));
  }

  /** The organisation's small tables: emoji, linkifiers, playgrounds, domains, profile fields, user defaults. */
  private async importRealmTables(): Promise<void> {
    const read = (table: string, fields: string[]) => {
      const f = this.fields.reader(table);
      for (const row of this.rows(table)) for (const field of fields) f(row, field);
      return this.rows(table);
    };
    await this.insert("realm_emoji", read("zerver_realmemoji", ["id", "realm", "name", "author", "file_name", "is_animated", "deactivated"]).map((e) => ({ id: int(e["id"]), realm_id: this.realmId, name: str(e["name"]), author_id: intOrNull(e["author"]), file_name: str(e["file_name"]), is_animated: bit(e["is_animated"]), deactivated: bit(e["deactivated"]) })));
    await this.insert("realm_domain", read("zerver_realmdomain", ["id", "realm", "domain", "allow_subdomains"]).map((d) => ({ id: int(d["id"]), realm_id: this.realmId, domain: str(d["domain"]), allow_subdomains: bit(d["allow_subdomains"]) })));
    await this.insert("realm_filter", read("zerver_realmfilter", ["id", "realm", "pattern", "url_template", "order"]).map((l) => ({ id: int(l["id"]), realm_id: this.realmId, pattern: str(l["pattern"]), url_template: str(l["url_template"]), ordering: int(l["order"]) })));
    await this.insert("realm_playground", read("zerver_realmplayground", ["id", "realm", "name", "pygments_language", "url_template"]).map((p) => ({ id: int(p["id"]), realm_id: this.realmId, name: str(p["name"]), pygments_language: str(p["pygments_language"]), url_template: str(p["url_template"]) })));
    await this.insert(
      "custom_profile_field",
      read("zerver_customprofilefield", ["id", "realm", "name", "hint", "field_type", "field_data", "order", "display_in_profile_summary", "required"]).map((p) => ({
        id: int(p["id"]),
        realm_id: this.realmId,
        name: str(p["name"]),
        hint: str(p["hint"]),
        field_type: int(p["field_type"]),
        field_data: str(p["field_data"]),
        order: int(p["order"]),
        display_in_profile_summary: bit(p["display_in_profile_summary"]),
        required: bit(p["required"]),
      })),
    );
    const defaults = this.fields.reader("zerver_realmuserdefault");
    await this.insert(
      "realm_user_default",
      this.rows("zerver_realmuserdefault").slice(0, 1).map((d) => {
        const settings: Rec = {};
        defaults(d, "id");
        defaults(d, "realm");
        for (const key of Object.keys(d)) if (SETTINGS_BY_NAME.has(key)) settings[key] = defaults(d, key);
        return { realm_id: this.realmId, settings: JSON.stringify(settings) };
      }),
    );
  }

  // Messages ---------------------------------------------------------------------------------

  /** Reactions and submessages (realm.json holds them for every message). */
  private async importMessageTables(): Promise<void> {
    const r = this.fields.reader("zerver_reaction");
    await this.insert(
      "reaction",
      this.rows("zerver_reaction").map((x) => {
        r(x, "id");
        return { message_id: int(r(x, "message")), user_id: int(r(x, "user_profile")), emoji_name: str(r(x, "emoji_name")), emoji_code: str(r(x, "emoji_code")), reaction_type: str(r(x, "reaction_type")) };
      }),
    );
    const s = this.fields.reader("zerver_submessage");
    await this.insert("submessage", this.rows("zerver_submessage").map((x) => ({ id: int(s(x, "id")), message_id: int(s(x, "message")), sender_id: int(s(x, "sender")), msg_type: str(s(x, "msg_type")), content: str(s(x, "content")) })));
  }

  /** Each user's rows: topics, muted users, drafts, scheduled messages, alert words, profile values, status, presence. */
  private async importPerUserTables(): Promise<void> {
    const read = (table: string, fields: string[]) => {
      const f = this.fields.reader(table);
      for (const row of this.rows(table)) for (const field of fields) f(row, field);
      return this.rows(table);
    };
    await this.insert(
      "user_topic",
      read("zerver_usertopic", ["id", "user_profile", "stream", "recipient", "topic_name", "last_updated", "visibility_policy"]).map((t) => ({
        user_id: int(t["user_profile"]),
        stream_id: int(t["stream"]),
        topic_name: str(t["topic_name"]),
        topic_key: str(t["topic_name"]).toLowerCase(),
        visibility_policy: int(t["visibility_policy"]),
        last_updated: ms(t["last_updated"]),
      })),
    );
    await this.insert("muted_user", read("zerver_muteduser", ["id", "user_profile", "muted_user", "date_muted"]).map((x) => ({ user_id: int(x["user_profile"]), muted_user_id: int(x["muted_user"]), date_muted: ms(x["date_muted"]) })));
    await this.insert("alert_word", read("zerver_alertword", ["id", "user_profile", "realm", "word"]).map((x) => ({ id: int(x["id"]), user_id: int(x["user_profile"]), realm_id: this.realmId, word: str(x["word"]) })));
    await this.insert(
      "custom_profile_field_value",
      read("zerver_customprofilefieldvalue", ["id", "user_profile", "field", "value", "rendered_value"]).map((x) => ({ user_id: int(x["user_profile"]), field_id: int(x["field"]), value: str(x["value"]), rendered_value: typeof x["rendered_value"] === "string" ? x["rendered_value"] : null })),
    );
    await this.insert(
      "user_status",
      read("zerver_userstatus", ["id", "user_profile", "timestamp", "status_text", "emoji_name", "emoji_code", "reaction_type"]).map((x) => ({
        user_id: int(x["user_profile"]),
        realm_id: this.realmId,
        status_text: str(x["status_text"]),
        emoji_name: str(x["emoji_name"]),
        emoji_code: str(x["emoji_code"]),
        reaction_type: str(x["reaction_type"]) || "unicode_emoji",
        timestamp: ms(x["timestamp"]),
      })),
    );
    await this.insert(
      "presence",
      read("zerver_userpresence", ["id", "user_profile", "realm", "last_active_time", "last_connected_time", "last_update_id"]).map((x) => ({ user_id: int(x["user_profile"]), realm_id: this.realmId, last_active_time: msOrNull(x["last_active_time"]), last_connected_time: msOrNull(x["last_connected_time"]), last_update_id: int(x["last_update_id"]) })),
    );
    await this.insert(
      "draft",
      read("zerver_draft", ["id", "user_profile", "type", "to", "topic", "content", "last_edit_time"]).map((x) => ({ id: int(x["id"]), user_id: int(x["user_profile"]), type: str(x["type"]), to_ids: typeof x["to"] === "string" ? x["to"] : JSON.stringify(x["to"] ?? []), topic: str(x["topic"]), content: str(x["content"]), last_edit_time: ms(x["last_edit_time"]) })),
    );
    const scheduled: Rec[] = [];
    for (const x of read("zerver_scheduledmessage", ["id", "sender", "recipient", "realm", "subject", "content", "rendered_content", "sending_client", "stream", "scheduled_timestamp", "read_by_sender", "delivered", "delivered_message", "failed", "failure_message", "delivery_type", "has_deleted_attachment"])) {
      const sender = int(x["sender"]);
      const recipient = this.recipients.get(int(x["recipient"]));
      const participants = recipient?.type === RecipientType.GROUP ? recipient.key.split(",").map(Number) : recipient?.type === RecipientType.PERSONAL ? [...new Set([sender, recipient.typeId])].sort((a, b) => a - b) : [];
      scheduled.push({
        id: int(x["id"]),
        realm_id: this.realmId,
        sender_id: sender,
        stream_id: recipient?.type === RecipientType.STREAM ? recipient.typeId : null,
        topic: str(x["subject"]),
        dm_user_ids: JSON.stringify(participants),
        content: str(x["content"]),
        rendered_content: str(x["rendered_content"]),
        client: this.clients.get(int(x["sending_client"])) ?? "Zulip import",
        scheduled_timestamp: ms(x["scheduled_timestamp"]),
        read_by_sender: bit(x["read_by_sender"]),
        delivered: bit(x["delivered"]),
        delivered_message_id: intOrNull(x["delivered_message"]),
        failed: bit(x["failed"]),
        failure_message: typeof x["failure_message"] === "string" ? x["failure_message"] : null,
      });
    }
    await this.insert("scheduled_message", scheduled);
  }

  /** PostgreSQL: each id sequence continues above the imported ids (SQLite does so by itself). */
  private async moveSequences(): Promise<void> {
    if (this.ctx.store.dialect !== "postgres") return;
    for (const table of SERIAL_TABLES) {
      const quoted = `"${table}"`;
      await sql`select setval(pg_get_serial_sequence(${quoted}, 'id'), (select coalesce(max(id), 0) + 1 from ${sql.table(table)}), false)`.execute(this.tx);
    }
  }
}
