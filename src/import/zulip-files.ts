/** The files of a Zulip export: uploads with their attachment rows, avatars, custom emoji and the organisation's icons. */
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { AppContext } from "../context.js";
import { avatarHash } from "../lib/users/users.js";
import { emojiFilePath } from "../lib/realm/emoji.js";
import { realmBrandingKey } from "../lib/realm/branding.js";
import { AVATAR_SIZE, MEDIUM_AVATAR_SIZE, resizeAvatar } from "../uploads/images.js";
import { bitOrNull, int, ms, str, type FieldUse, type Rec } from "./zulip-fields.js";
import type { ZulipArchive } from "./zulip-archive.js";

/** A user as the avatar's storage key needs it. */
export type AvatarOwner = Parameters<typeof avatarHash>[0];

/** Stores an import's files, inside its transaction; `stored` and `localFiles` list what to remove if it fails. */
export class ZulipFiles {
  constructor(
    private readonly ctx: AppContext,
    private readonly archive: ZulipArchive,
    private readonly fields: FieldUse,
    private readonly insert: (table: "attachment" | "attachment_message", rows: readonly Rec[]) => Promise<void>,
    private readonly realmId: number,
    private readonly users: ReadonlyMap<number, AvatarOwner>,
    private readonly stored: string[],
    private readonly localFiles: string[],
    private readonly counts: { files: number },
  ) {}

  async importAttachments(): Promise<void> {
    const tables = await this.archive.tables("attachment.json", false);
    for (const [table, rows] of Object.entries(tables)) this.fields.saw(table, rows);
    const a = this.fields.reader("zerver_attachment");
    const attachments = tables["zerver_attachment"] ?? [];
    for (const row of attachments) for (const field of ["scheduled_messages", "realm"]) a(row, field);
    await this.insert(
      "attachment",
      attachments.map((row) => ({
        id: int(a(row, "id")),
        realm_id: this.realmId,
        owner_id: int(a(row, "owner")),
        path_id: str(a(row, "path_id")),
        file_name: str(a(row, "file_name")),
        size: int(a(row, "size")),
        content_type: str(a(row, "content_type")) || "application/octet-stream",
        create_time: ms(a(row, "create_time")),
        is_realm_public: bitOrNull(a(row, "is_realm_public")),
        is_web_public: bitOrNull(a(row, "is_web_public")),
      })),
    );
    const links: Rec[] = [];
    for (const row of attachments) {
      const messages = a(row, "messages");
      if (Array.isArray(messages)) for (const messageId of messages) links.push({ attachment_id: int(row["id"]), message_id: int(messageId) });
    }
    await this.insert("attachment_message", links);
    for (const record of await this.archive.records("uploads")) {
      const pathId = str(record["path"] ?? record["s3_path"]);
      if (await this.store(`uploads/${pathId}`, pathId)) this.counts.files++;
    }
  }

  private async store(entry: string, key: string): Promise<boolean> {
    const source = await this.archive.stream(entry);
    if (!source) return false;
    this.stored.push(key);
    await this.ctx.files.put(key, source);
    return true;
  }

  async importAvatarsEmojiIcons(): Promise<void> {
    // Exports hold each avatar's original and 100 px PNG; the 500 px one is made again here (as Zulip's importer does).
    const made = new Map<string, Set<string>>();
    for (const record of await this.archive.records("avatars")) {
      const file = str(record["path"] ?? record["s3_path"]);
      const user = this.users.get(int(record["user_profile_id"]));
      const suffix = /(\.original|-medium\.png|\.png)$/.exec(file)?.[1];
      if (!user || !suffix) continue;
      const key = `user_avatars/${avatarHash(user)}`;
      if (!(await this.store(`avatars/${file}`, `${key}${suffix}`))) continue;
      this.counts.files++;
      made.set(key, (made.get(key) ?? new Set()).add(suffix));
    }
    for (const [key, suffixes] of made) {
      if (!suffixes.has(".original")) continue;
      const original = await this.ctx.files.get(`${key}.original`);
      if (!original) continue;
      const chunks: Buffer[] = [];
      for await (const chunk of original) chunks.push(Buffer.from(chunk as Uint8Array));
      const data = Buffer.concat(chunks);
      const sizes: [string, number][] = [["-medium.png", MEDIUM_AVATAR_SIZE], [".png", AVATAR_SIZE]];
      for (const [suffix, size] of sizes) {
        if (suffixes.has(suffix)) continue;
        // An image the resizer cannot read keeps only what the export held.
        const resized = await resizeAvatar(data, size).catch(() => undefined);
        if (!resized) continue;
        this.stored.push(`${key}${suffix}`);
        await this.ctx.files.put(`${key}${suffix}`, Readable.from([resized]));
      }
    }
    for (const record of await this.archive.records("emoji")) {
      const relative = str(record["path"] ?? record["s3_path"]);
      const fileName = str(record["file_name"]) || path.basename(relative);
      const source = await this.archive.stream(`emoji/${relative}`);
      if (!source || fileName.includes("/") || fileName.startsWith(".")) continue;
      const target = emojiFilePath(this.ctx.config.dataDir, this.realmId, fileName);
      await fs.mkdir(path.dirname(target), { recursive: true });
      this.localFiles.push(target);
      await fs.writeFile(target, source);
      this.counts.files++;
    }
    for (const record of await this.archive.records("realm_icons")) {
      const relative = str(record["path"] ?? record["s3_path"]);
      const file = path.basename(relative);
      if (!/^(night_)?(icon|logo)\.(png|original)$/.test(file)) continue;
      if (await this.store(`realm_icons/${relative}`, realmBrandingKey(this.realmId, file))) this.counts.files++;
    }
  }
}
