import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Writable } from "node:stream";
import type { Db } from "../../db/index.js";
import * as q from "../../db/queries/export-tables.js";
import type { FileStore } from "../../uploads/storage.js";
import { avatarHash } from "../users/users.js";
import { realmBrandingKey } from "../realm/branding.js";
import { emojiFilePath } from "../realm/emoji.js";
import { JsonSpool, onePage, type Pages } from "./spool.js";
import { TarGzWriter } from "./tar.js";
import { writeRealmTables, type IdPlan } from "./realm-tables.js";
import { attachmentRecord, messageRecord, seconds } from "./records.js";

/** Zulip's batch: 1000 messages per messages-NNNNNN.json file. */
export const MESSAGE_BATCH = 1000;
const PAGE = 500;

/** What an export holds and where its scratch files go. */
export interface ExportOptions {
  /** Only public channels' messages and uploads, no scheduled messages (the API's export). */
  publicOnly: boolean;
  /** API keys and password hashes (the command-line export, for a move to another Rookery). */
  withSecrets: boolean;
  /** The archive's top folder, e.g. zulip-export-ab12cd34. */
  folder: string;
  /** The data directory (custom emoji images are kept there, outside the file store). */
  dataDir: string;
  /** Where spooled JSON files wait (a fresh folder is made in it); defaults to the system's. */
  scratchDir?: string;
  /** Called after each batch of messages with the number written and the total. */
  progress?: (done: number, total: number) => void;
}

/** What an export wrote. */
export interface ExportSummary {
  messages: number;
  files: number;
}

/**
 * Writes the realm's export in Zulip's format (realm.json, messages-NNNNNN.json, attachment.json,
 * analytics.json, uploads/, avatars/, emoji/, realm_icons/ each with records.json) as a .tar.gz
 * into `out`, streaming: a page of rows and one chunk of a file at a time.
 */
export async function writeRealmExport(db: Db, files: FileStore, realmId: number, out: Writable, options: ExportOptions): Promise<ExportSummary> {
  const scratch = await fs.mkdtemp(path.join(options.scratchDir ?? os.tmpdir(), "rookery-export-"));
  const tar = new TarGzWriter(out);
  try {
    const plan: IdPlan = {
      recipientBase: await q.maxRecipientId(db),
      clients: new Map((await q.clientNames(db, realmId)).map((name, i) => [name, i + 1])),
      systemBots: new Set((await q.systemBotsOf(db, realmId)).map((bot) => bot.id)),
    };
    const realm = JsonSpool.open(scratch, `${options.folder}/realm.json`);
    await writeRealmTables(db, realm, realmId, plan, options);
    await realm.moveInto(tar, "\n}\n");
    const messages = await writeMessageBatches(db, tar, scratch, realmId, plan, options);
    const uploads = await writeAttachments(db, files, tar, scratch, realmId, options);
    const others = await writeAvatarsEmojiIcons(db, files, tar, scratch, realmId, options);
    const analytics = { analytics_realmcount: [], analytics_streamcount: [], analytics_usercount: [] };
    await tar.addBuffer(`${options.folder}/analytics.json`, Buffer.from(JSON.stringify(analytics, null, 2) + "\n"));
    await tar.finish();
    return { messages, files: uploads + others };
  } catch (error) {
    tar.abort(error instanceof Error ? error : new Error(String(error)));
    throw error;
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** messages-000001.json…: each batch's zerver_message and the zerver_usermessage rows of its messages. */
async function writeMessageBatches(db: Db, tar: TarGzWriter, scratch: string, realmId: number, plan: IdPlan, options: ExportOptions): Promise<number> {
  const total = await q.exportMessageCount(db, realmId, options.publicOnly);
  let afterId = 0;
  let batch = 0;
  let done = 0;
  let userMessageId = 0;
  for (;;) {
    const page = await q.messagesPage(db, realmId, afterId, MESSAGE_BATCH, options.publicOnly);
    if (page.length === 0) break;
    afterId = page[page.length - 1]?.id ?? afterId;
    batch += 1;
    const spool = JsonSpool.open(scratch, `${options.folder}/messages-${String(batch).padStart(6, "0")}.json`);
    await spool.table("zerver_message", onePage(page.map((m) => messageRecord(m, plan.clients.get(m.client) ?? 0))));
    const rows = await q.userMessagesOf(db, page.map((m) => m.id));
    // As Zulip's exports: the rows of the organisation's own users (not of the system bots).
    const own = rows.filter((r) => !plan.systemBots.has(r.user_id));
    await spool.table("zerver_usermessage", onePage(own.map((r) => ({ id: ++userMessageId, user_profile: r.user_id, message: r.message_id, flags_mask: r.flags }))));
    await spool.moveInto(tar, "\n}\n");
    done += page.length;
    options.progress?.(done, total);
  }
  return done;
}

/** attachment.json and uploads/: the uploads linked by exported messages, their files and records. */
async function writeAttachments(db: Db, files: FileStore, tar: TarGzWriter, scratch: string, realmId: number, options: ExportOptions): Promise<number> {
  const table = JsonSpool.open(scratch, `${options.folder}/attachment.json`);
  const records = JsonSpool.open(scratch, `${options.folder}/uploads/records.json`);
  await records.write("[");
  let copied = 0;
  async function* pages(): Pages {
    for (let afterId = 0; ; ) {
      const page = await q.attachmentsPage(db, realmId, afterId, PAGE);
      if (page.length === 0) return;
      afterId = page[page.length - 1]?.id ?? afterId;
      const links = new Map<number, number[]>();
      for (const link of await q.exportedAttachmentMessagesOf(db, page.map((a) => a.id), options.publicOnly)) {
        links.set(link.attachment_id, [...(links.get(link.attachment_id) ?? []), link.message_id]);
      }
      const exported = page.filter((a) => links.has(a.id));
      const emails = await q.emailsOf(db, [...new Set(exported.map((a) => a.owner_id))]);
      const fileRecords: Record<string, unknown>[] = [];
      // Only uploads whose file is there: Zulip's importer finds each attachment's file by its record.
      const present: typeof exported = [];
      for (const attachment of exported) {
        const size = await files.size(attachment.path_id);
        const source = size === undefined ? undefined : await files.get(attachment.path_id);
        if (size === undefined || !source) continue;
        present.push(attachment);
        await tar.addStream(`${options.folder}/uploads/${attachment.path_id}`, size, source, attachment.create_time);
        copied += 1;
        fileRecords.push({
          realm_id: attachment.realm_id,
          user_profile_id: attachment.owner_id,
          user_profile_email: emails.get(attachment.owner_id) ?? "",
          s3_path: attachment.path_id,
          path: attachment.path_id,
          size,
          last_modified: seconds(attachment.create_time),
          content_type: attachment.content_type,
        });
      }
      await records.rows(onePage(fileRecords));
      yield present.map((a) => attachmentRecord(a, links.get(a.id) ?? []));
    }
  }
  try {
    await table.table("zerver_attachment", pages());
  } catch (error) {
    await records.discard();
    throw error;
  }
  await table.moveInto(tar, "\n}\n");
  await records.moveInto(tar, "\n]\n");
  return copied;
}

/** avatars/, emoji/ and realm_icons/ with their records.json. */
async function writeAvatarsEmojiIcons(db: Db, files: FileStore, tar: TarGzWriter, scratch: string, realmId: number, options: ExportOptions): Promise<number> {
  const { folder } = options;
  let copied = 0;
  async function copy(entry: string, key: string): Promise<number | undefined> {
    const size = await files.size(key);
    const source = size === undefined ? undefined : await files.get(key);
    if (size === undefined || !source) return undefined;
    await tar.addStream(`${folder}/${entry}`, size, source);
    copied += 1;
    return size;
  }
  const avatars = JsonSpool.open(scratch, `${folder}/avatars/records.json`);
  await avatars.write("[");
  for (let afterId = 0; ; ) {
    const page = await q.usersPage(db, realmId, afterId, PAGE);
    if (page.length === 0) break;
    afterId = page[page.length - 1]?.id ?? afterId;
    const found: Record<string, unknown>[] = [];
    for (const user of page.filter((u) => u.avatar_source === "U")) {
      const hash = avatarHash(user);
      // Zulip's exports hold the avatar and its original; its importer makes the medium size again.
      for (const suffix of [".original", ".png"]) {
        const size = await copy(`avatars/${hash}${suffix}`, `user_avatars/${hash}${suffix}`);
        if (size === undefined) continue;
        found.push({ realm_id: realmId, user_profile_id: user.id, user_profile_email: user.email, s3_path: `${hash}${suffix}`, path: `${hash}${suffix}`, size, last_modified: seconds(user.date_joined), content_type: null });
      }
    }
    await avatars.rows(onePage(found));
  }
  await avatars.moveInto(tar, "\n]\n");

  const emoji: Record<string, unknown>[] = [];
  for (const row of await q.realmRows(db, realmId).emoji) {
    const relative = `${realmId}/emoji/images/${row.file_name}`;
    const local = emojiFilePath(options.dataDir, realmId, row.file_name);
    const stat = await fs.stat(local).catch(() => undefined);
    if (!stat?.isFile()) continue;
    await tar.addStream(`${folder}/emoji/${relative}`, stat.size, createReadStream(local), stat.mtimeMs);
    copied += 1;
    emoji.push({ realm_id: realmId, author: row.author_id, path: relative, s3_path: relative, file_name: row.file_name, name: row.name, deactivated: row.deactivated === 1 });
  }
  await tar.addBuffer(`${folder}/emoji/records.json`, Buffer.from(JSON.stringify(emoji, null, 2) + "\n"));

  const icons: Record<string, unknown>[] = [];
  for (const file of ["icon.png", "icon.original", "logo.png", "logo.original", "night_logo.png", "night_logo.original"]) {
    const relative = `${realmId}/${file}`;
    if ((await copy(`realm_icons/${relative}`, realmBrandingKey(realmId, file))) === undefined) continue;
    icons.push({ realm_id: realmId, path: relative, s3_path: relative });
  }
  await tar.addBuffer(`${folder}/realm_icons/records.json`, Buffer.from(JSON.stringify(icons, null, 2) + "\n"));
  return copied;
}

