import path from "node:path";
import { sql } from "kysely";
import type { AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { Outbox } from "../events/outbox.js";
import { insertRealm } from "../db/queries/realms.js";
import type { UserRow } from "../db/queries/users.js";
import { addDefaultStream, insertStream } from "../db/queries/streams.js";
import { insertSubscriptions } from "../db/queries/subscriptions.js";
import { recipientId, RecipientType } from "../db/queries/messages.js";
import { insertAttachment } from "../db/queries/attachments.js";
import { MessageBatch } from "./slack-batch.js";
import { administratorsGroupId } from "../db/queries/streams.js";
import { createSystemGroups } from "../actions/user-groups.js";
import { createNotificationBot, createWelcomeBot } from "../actions/notification-bot.js";
import { defaultReadReceipts } from "../actions/realms.js";
import { REALM_DEFAULTS } from "../lib/realm/props.js";
import { Flag } from "../lib/messages/flags.js";
import { dmKey } from "../lib/messages/narrow.js";
import { pickColors, renderDescription } from "../lib/channels/streams.js";
import { renderMarkdown, type RenderContext } from "../markdown/index.js";
import { deleteUploadFiles } from "../uploads/storage.js";
import { newPathId, sanitizeName } from "../uploads/paths.js";
import { newStreamEmailToken } from "../base/secrets.js";
import { ImportError, SlackZip } from "./slack-zip.js";
import { requireEmptyTarget } from "./target.js";
import { child, dayMessages, flag, list, readWorkspace, senderOf, strings, text, type SlackObject, type SlackWorkspace } from "./slack-export.js";
import { convertMrkdwn, mapSlackEmoji } from "./slack-mrkdwn.js";
import { ImportProgress } from "./slack-progress.js";
import { ThreadTopics } from "./slack-topics.js";
import { blocksAndAttachments } from "./slack-blocks.js";
import { importUsers } from "./slack-users.js";

/** What `rookery import-slack` did. */
export interface SlackImportResult {
  realm_id: number;
  users: number;
  deactivated_users: number;
  bots: number;
  channels: number;
  messages: number;
  direct_messages: number;
  reactions: number;
  uploads: number;
  file_links: number;
  skipped_reactions: number;
}

/** Options of an import. */
export interface SlackImportOptions {
  name: string;
  subdomain: string;
  /** Called with a line of progress now and then on long runs. */
  progress?: (line: string) => void;
}

/** Messages between two collections of the heap. */
const COLLECT_EVERY = 20_000;

/**
 * Loads a Slack workspace export (a zip) into an empty Rookery, as Zulip's Slack converter maps it.
 * Everything is checked and counted first (every JSON file of the archive is read once), then
 * written in one transaction: a failure at any point leaves the database as it was, and the
 * files stored so far are removed.
 */
export async function importSlack(ctx: AppContext, file: string, options: SlackImportOptions): Promise<SlackImportResult> {
  await requireEmptyTarget(ctx.db, ctx.config.dataDir, "import-slack");
  const zip = await SlackZip.open(file);
  try {
    const workspace = await readWorkspace(zip);
    const scan = await scanMessages(zip, workspace);
    const stored: string[] = [];
    try {
      return await ctx.store.write(async (tx) => {
        // One transaction writes every row: on SQLite its pages stay in the page cache until the
        // commit, and user_message's index (user-major) takes rows of every user for each message.
        // A 64 MiB cache (the default is 2 MiB) keeps those pages in memory instead of spilling.
        if (ctx.store.dialect === "sqlite") await sql`pragma cache_size = -65536`.execute(tx);
        return new SlackImport(ctx, tx, zip, workspace, options, scan, stored).run();
      });
    } catch (error) {
      for (const pathId of stored) await deleteUploadFiles(ctx.files, pathId).catch(() => undefined);
      throw error;
    }
  } finally {
    zip.close();
  }
}

interface Scan {
  total: number;
  /** Bots that posted (bot_message) without a user of users.json: bot id → the name they posted as. */
  integrationBots: Map<string, string>;
}

/** Reads every day file once, checking it and counting the messages to import, before anything is written. */
async function scanMessages(zip: SlackZip, workspace: SlackWorkspace): Promise<Scan> {
  const known = new Set(workspace.users.map((u) => text(u, "id")));
  const integrationBots = new Map<string, string>();
  let total = 0;
  for (const [day, folders] of workspace.days) {
    for (const { message } of await dayMessages(zip, day, folders)) {
      total++;
      const sender = senderOf(message);
      if (sender !== undefined && !known.has(sender) && text(message, "bot_id") === sender && !integrationBots.has(sender)) {
        integrationBots.set(sender, text(message, "username") ?? `Deleted Slack Bot ${sender}`);
      }
    }
  }
  return { total, integrationBots };
}

interface ImportedChannel {
  id: number;
  name: string;
  recipient: number;
  members: number[];
  inviteOnly: boolean;
}

interface Conversation {
  kind: "channel" | "direct";
  channel?: ImportedChannel;
  /** Direct: the participants' user ids. */
  userIds: number[];
}

/** One import, inside its transaction. */
class SlackImport {
  private readonly outbox = new Outbox();
  private realmId = 0;
  private users = new Map<string, UserRow>();
  private slackNames = new Map<string, string>();
  private readonly channelsBySlackId = new Map<string, ImportedChannel>();
  private readonly conversations = new Map<string, Conversation>();
  private readonly topics = new ThreadTopics();
  private readonly result: SlackImportResult;
  private render!: RenderContext;
  private readonly batch: MessageBatch;

  constructor(
    private readonly ctx: AppContext,
    private readonly tx: Db,
    private readonly zip: SlackZip,
    private readonly workspace: SlackWorkspace,
    private readonly options: SlackImportOptions,
    private readonly scan: Scan,
    private readonly stored: string[],
  ) {
    this.batch = new MessageBatch(tx, ctx.store.dialect);
    this.result = { realm_id: 0, users: 0, deactivated_users: 0, bots: 0, channels: 0, messages: 0, direct_messages: 0, reactions: 0, uploads: 0, file_links: 0, skipped_reactions: 0 };
  }

  async run(): Promise<SlackImportResult> {
    const now = this.ctx.clock.now();
    this.realmId = await insertRealm(this.tx, {
      string_id: this.options.subdomain,
      name: this.options.name,
      description: "Organization imported from Slack!",
      date_created: now,
      deactivated: 0,
      props: JSON.stringify({ enable_read_receipts: defaultReadReceipts(REALM_DEFAULTS.invite_required, REALM_DEFAULTS.emails_restricted_to_domains) }),
    });
    this.result.realm_id = this.realmId;
    await createSystemGroups(this.tx, this.realmId, now);
    const users = await importUsers(this.ctx, this.tx, this.outbox, this.realmId, this.workspace.users, this.scan.integrationBots);
    this.users = users.bySlackId;
    this.slackNames = users.names;
    Object.assign(this.result, { users: users.users, deactivated_users: users.deactivated, bots: users.bots });
    await createNotificationBot(this.tx, this.realmId, now);
    await createWelcomeBot(this.tx, this.realmId, now);
    await this.importChannels();
    this.render = this.renderContext();
    await this.importMessages();
    return this.result;
  }

  /** The user of a Slack id, or an ImportError naming the file that refers to a user the export lacks. */
  private user(slackId: string, where: string): UserRow {
    const user = this.users.get(slackId);
    if (!user) throw new ImportError(`${where} refers to the user ${slackId}, who is not in users.json; nothing was imported`);
    return user;
  }

  // Channels and conversations ---------------------------------------------------------------

  private async importChannels(): Promise<void> {
    const colorsUsed = new Map<number, string[]>();
    const adminsGroup = await administratorsGroupId(this.tx, this.realmId);
    const all = [...this.workspace.channels.map((c) => ({ c, inviteOnly: false, file: "channels.json" })), ...this.workspace.groups.map((c) => ({ c, inviteOnly: true, file: "groups.json" }))];
    for (const { c, inviteOnly, file } of all) {
      const name = text(c, "name") ?? "";
      const description = text(child(c, "purpose"), "value") || text(child(c, "topic"), "value") || "";
      const archived = flag(c, "is_archived");
      const creator = this.users.get(text(c, "creator") ?? "");
      const id = await insertStream(this.tx, {
        realm_id: this.realmId,
        name,
        description,
        rendered_description: renderDescription(description, this.ctx.config.externalUrl),
        invite_only: inviteOnly ? 1 : 0,
        is_web_public: 0,
        history_public_to_subscribers: 1,
        stream_post_policy: 1,
        message_retention_days: null,
        can_remove_subscribers_group: adminsGroup,
        date_created: Math.floor(Number(c["created"] ?? 0) * 1000) || this.ctx.clock.now(),
        creator_id: creator?.id ?? null,
        first_message_id: null,
        deactivated: archived ? 1 : 0,
        email_token: newStreamEmailToken(),
      });
      if (!archived && !inviteOnly && (name === "general" || name === "random")) await addDefaultStream(this.tx, this.realmId, id);
      const members = [...new Set(strings(c, "members").map((m) => this.user(m, `${file} (${name})`)))];
      const rows = members.map((member) => {
        const used = colorsUsed.get(member.id) ?? [];
        const color = pickColors(used, new Map(), [id]).get(id) ?? "#c2c2c2";
        colorsUsed.set(member.id, [...used, color]);
        return { user_id: member.id, stream_id: id, active: 1, is_user_active: member.is_active, color, is_muted: 0, pin_to_top: 0 };
      });
      await insertSubscriptions(this.tx, rows);
      const channel = { id, name, recipient: await recipientId(this.tx, RecipientType.STREAM, id), members: members.map((m) => m.id), inviteOnly };
      this.channelsBySlackId.set(text(c, "id") ?? "", channel);
      this.conversations.set(name, { kind: "channel", channel, userIds: [] });
      this.result.channels++;
    }
    for (const mpim of this.workspace.mpims) {
      const name = text(mpim, "name") ?? "";
      this.conversations.set(name, { kind: "direct", userIds: [...new Set(strings(mpim, "members").map((m) => this.user(m, `mpims.json (${name})`).id))] });
    }
    for (const dm of this.workspace.dms) {
      const id = text(dm, "id") ?? "";
      this.conversations.set(id, { kind: "direct", userIds: [...new Set(strings(dm, "members").map((m) => this.user(m, `dms.json (${id})`).id))] });
    }
  }

  /** Mentions resolve against every imported user by id and active users by name, channels by name. */
  private renderContext(): RenderContext {
    const byId = new Map<number, { id: number; fullName: string }>();
    const byName = new Map<string, { id: number; fullName: string }[]>();
    for (const user of new Set(this.users.values())) {
      const entry = { id: user.id, fullName: user.full_name };
      byId.set(user.id, entry);
      if (user.is_active !== 1) continue;
      const key = user.full_name.toLowerCase();
      byName.set(key, [...(byName.get(key) ?? []), entry]);
    }
    const channels = new Map([...this.channelsBySlackId.values()].map((c) => [c.name.toLowerCase(), { id: c.id, name: c.name }]));
    return {
      userByName: (name) => byName.get(name.toLowerCase()) ?? [],
      userById: (id) => byId.get(id),
      groupByName: () => undefined,
      channelByName: (name) => channels.get(name.toLowerCase()),
      inlineImagePreview: true,
      now: () => this.ctx.clock.now(),
      realmUrl: this.ctx.config.externalUrl,
    };
  }

  // Messages ---------------------------------------------------------------------------------

  private async importMessages(): Promise<void> {
    const progress = new ImportProgress(this.scan.total, this.options.progress);
    await this.batch.start();
    const firstMessage = new Map<number, number>();
    let collectedAt = 0;
    for (const [day, folders] of this.workspace.days) {
      for (const { folder, message, ts } of await dayMessages(this.zip, day, folders)) {
        const conversation = this.conversations.get(folder);
        if (!conversation) continue;
        const id = await this.importMessage(`${folder}/${day}`, conversation, message, ts);
        if (conversation.channel && !firstMessage.has(conversation.channel.id)) firstMessage.set(conversation.channel.id, id);
        progress.advance();
      }
      // A day's parsed messages outlive the young generation and leave as old-generation garbage,
      // which V8 would let pile up to hundreds of MiB before collecting; collect it as it goes
      // (the `rookery` command runs with --expose-gc; without it this does nothing).
      if (this.result.messages - collectedAt >= COLLECT_EVERY) {
        collectedAt = this.result.messages;
        (globalThis as { gc?: () => void }).gc?.();
      }
    }
    await this.batch.finish();
    for (const [streamId, messageId] of firstMessage) await this.tx.updateTable("stream").set({ first_message_id: messageId }).where("id", "=", streamId).execute();
    progress.finish();
  }

  private async importMessage(where: string, conversation: Conversation, message: SlackObject, ts: number): Promise<number> {
    const senderSlackId = senderOf(message) ?? "";
    const sender = this.user(senderSlackId, where);
    // An app's blocks and attachments, when it has any, replace its text (Zulip's converter).
    const formatted = blocksAndAttachments(message);
    const converted = convertMrkdwn(formatted !== "" ? formatted : (text(message, "text") ?? ""), {
      userName: (id) => this.slackNames.get(id),
      channelName: (id) => this.channelsBySlackId.get(id)?.name,
    });
    let content = converted.markdown;
    const subtype = text(message, "subtype");
    if (subtype === "bot_add" || subtype === "sh_room_created" || subtype === "me_message") content = `/me ${content}`;
    const files = await this.importFiles(message, sender);
    content = [content, ...files.links].filter((part) => part !== "").join("\n");

    const isDirect = conversation.kind === "direct";
    const topic = isDirect ? "" : this.topics.topicOf(message, senderSlackId, content);
    const userIds = isDirect ? conversation.userIds : (conversation.channel?.members ?? []);
    const key = isDirect ? dmKey(userIds) : "";
    const others = userIds.filter((id) => id !== sender.id);
    const recipient = !isDirect
      ? (conversation.channel?.recipient ?? 0)
      : userIds.length > 2
        ? await recipientId(this.tx, RecipientType.GROUP, 0, key)
        : await recipientId(this.tx, RecipientType.PERSONAL, others[0] ?? sender.id);
    const rendered = renderMarkdown(content, this.render);
    const edited = Number(text(child(message, "edited"), "ts"));
    const mentioned = new Set(converted.mentionedSlackIds.map((slackId) => this.users.get(slackId)?.id));
    const flags = new Map<number, number>();
    for (const userId of userIds) flags.set(userId, Flag.read | (mentioned.has(userId) ? Flag.mentioned : 0) | (isDirect ? Flag.is_private : 0));
    const isPublic = !isDirect && conversation.channel?.inviteOnly === false;
    const id = await this.batch.add(
      {
      realm_id: this.realmId,
      sender_id: sender.id,
      stream_id: isDirect ? null : (conversation.channel?.id ?? null),
      topic,
      dm_key: key,
      content,
      rendered_content: rendered.html,
      date_sent: Math.floor(ts * 1000),
      last_edit_time: Number.isFinite(edited) ? Math.floor(edited * 1000) : null,
      edit_history: null,
      has_link: rendered.hasLink || files.links.length > 0 ? 1 : 0,
      has_image: files.hasImage || rendered.hasImage ? 1 : 0,
      has_attachment: files.attachments.length > 0 ? 1 : 0,
      is_me_message: rendered.isMeMessage ? 1 : 0,
      client: "Slack import",
      recipient_id: recipient,
      },
      flags,
      this.reactionsOf(list(message, "reactions")),
      files.attachments.map((attachmentId) => ({ id: attachmentId, public: isPublic })),
    );
    this.result.messages++;
    if (isDirect) this.result.direct_messages++;
    return id;
  }

  /**
   * A message's files: one the archive holds (`__uploads/<id>/<name>`) becomes an upload linked
   * from the message; one it only names by URL becomes a link. Deleted and hidden files are left out.
   */
  private async importFiles(message: SlackObject, sender: UserRow): Promise<{ links: string[]; attachments: number[]; hasImage: boolean }> {
    const files = text(message, "subtype") === "file_share" && message["file"] !== undefined ? [message["file"]] : list(message, "files");
    const out = { links: [] as string[], attachments: [] as number[], hasImage: false };
    for (const raw of files) {
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) continue;
      const info = raw as SlackObject;
      const mode = text(info, "mode");
      const access = text(info, "file_access");
      if (mode === "tombstone" || mode === "hidden_by_limit" || access === "access_denied" || access === "file_not_found") continue;
      const title = text(info, "title") ?? text(info, "name") ?? "file";
      const held = this.workspace.heldFiles.get(text(info, "id") ?? "");
      if (held !== undefined) {
        const fileName = sanitizeName(text(info, "name") ?? path.basename(held));
        const pathId = newPathId(this.realmId, fileName);
        const size = await this.ctx.files.put(pathId, await this.zip.stream(held));
        this.stored.push(pathId);
        const mimetype = text(info, "mimetype") ?? "application/octet-stream";
        const attachmentId = await insertAttachment(this.tx, {
          realm_id: this.realmId,
          owner_id: sender.id,
          path_id: pathId,
          file_name: text(info, "name") ?? fileName,
          size,
          content_type: mimetype,
          create_time: Math.floor(Number(info["created"] ?? 0) * 1000) || this.ctx.clock.now(),
          is_realm_public: null,
          is_web_public: null,
        });
        out.links.push(`[${title}](/user_uploads/${pathId})`);
        out.attachments.push(attachmentId);
        if (mimetype.startsWith("image/")) out.hasImage = true;
        this.result.uploads++;
        continue;
      }
      const url = text(info, "url_private");
      if (url === undefined) continue;
      out.links.push(`[${title}](${url})`);
      this.result.file_links++;
    }
    return out;
  }

  /** Reactions by Zulip's emoji name; skin tones merge into the base emoji; unknown emoji and users are skipped. */
  private reactionsOf(reactions: unknown[]): { user_id: number; emoji_name: string; emoji_code: string; reaction_type: string }[] {
    const rows: { user_id: number; emoji_name: string; emoji_code: string; reaction_type: string }[] = [];
    const seen = new Set<string>();
    for (const raw of reactions) {
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) continue;
      const reaction = raw as SlackObject;
      const emoji = mapSlackEmoji(text(reaction, "name") ?? "");
      const reactors = strings(reaction, "users");
      if (!emoji) {
        this.result.skipped_reactions += reactors.length;
        continue;
      }
      for (const slackId of reactors) {
        const user = this.users.get(slackId);
        const key = `${user?.id}:${emoji.code}`;
        if (!user || seen.has(key)) continue;
        seen.add(key);
        rows.push({ user_id: user.id, emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: "unicode_emoji" });
      }
    }
    this.result.reactions += rows.length;
    return rows;
  }
}

