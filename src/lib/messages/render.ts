import type { AppContext } from "../../context.js";
import type { Db } from "../../db/index.js";
import { activeStreamsOfRealm } from "../../db/queries/streams.js";
import { membersOfGroups, recursiveSubgroupIds } from "../../db/queries/user-groups.js";
import { realmEmojiOfRealm } from "../../db/queries/realm-emoji.js";
import { activeUserNames, usersOfRealm } from "../../db/queries/users.js";
import { emptyRenderContext, renderMarkdown, type RenderContext, type RenderResult } from "../../markdown/index.js";
import type { UserRow } from "../../db/queries/users.js";
import { emojiUrl } from "../realm/emoji.js";
import { userSetting } from "../users/settings.js";
import { uploadPreviews } from "./attachments.js";
import { realmSetting } from "../realm/props.js";

/** Rendered content plus the users a group mention reaches. */
export interface Rendered extends RenderResult {
  /** Members (direct or through subgroups) of the mentioned user groups. */
  groupMemberIds: Set<number>;
}

/**
 * Renders message content against the realm's users, channels, named user groups, custom emoji and
 * linkifiers (the last from the process-wide cache, current as of the last committed change). Names are
 * looked up only when the content could mention something, which keeps plain messages cheap. The
 * sender's translate_emoticons setting decides whether `:)` becomes an emoji (as Zulip renders with
 * the message's sender).
 */
export async function renderContent(ctx: AppContext, db: Db, realmId: number, content: string, sender?: UserRow): Promise<Rendered> {
  const base = /[@#]/.test(content) ? await realmRenderContext(db, realmId, ctx.config.externalUrl, content) : emptyRenderContext(ctx.config.externalUrl);
  const customEmoji = content.includes(":") ? await activeCustomEmoji(db, realmId) : new Map<string, CustomEmoji>();
  const linkifiers = await ctx.linkifiers.of(realmId);
  const realm = await ctx.realms.get(realmId);
  const translateEmoticons = sender !== undefined && userSetting(sender, "translate_emoticons") === true;
  // Zulip's image_preview_enabled: the organisation's inline_image_preview, for uploads and other sites alike.
  const inlineImagePreview = realm !== undefined && realmSetting(realm, "inline_image_preview");
  let renderCtx: RenderContext = { ...base, linkifiers, translateEmoticons, inlineImagePreview, now: () => ctx.clock.now() };
  if (customEmoji.size > 0) renderCtx.realmEmoji = (name) => customEmoji.get(name);
  const uploads = content.includes("/user_uploads/") ? await uploadPreviews(db, realmId, uploadPathsIn(content)) : undefined;
  if (uploads) renderCtx = { ...renderCtx, uploadPreview: (pathId) => uploads.get(pathId) };
  const result = renderMarkdown(content, renderCtx);
  if (result.linkifiersSkipped) ctx.log.warn({ realmId, contentLength: content.length }, "linkifiers ran past their time budget; message rendered without linkifier links");
  const groupMemberIds = new Set(result.mentionedGroupIds.size > 0 ? await membersOfGroups(db, await recursiveSubgroupIds(db, [...result.mentionedGroupIds])) : []);
  return { ...result, groupMemberIds };
}

/** Path ids that look like uploads in raw content (Zulip's pattern), to fetch their previews before rendering. */
function uploadPathsIn(content: string): string[] {
  return [...new Set([...content.matchAll(/\/user_uploads\/(\d+\/[/\p{L}\p{N}\p{M}_.-]+)/gu)].map((m) => m[1] ?? ""))];
}

type CustomEmoji = { id: string; name: string; url: string };

/** The realm's active custom emoji by name, for `:name:`. */
async function activeCustomEmoji(db: Db, realmId: number): Promise<Map<string, CustomEmoji>> {
  const rows = (await realmEmojiOfRealm(db, realmId)).filter((row) => row.deactivated === 0);
  return new Map(rows.map((row) => [row.name, { id: String(row.id), name: row.name, url: emojiUrl(row.realm_id, row.file_name) }]));
}

/** `@**Name|id**` and `@_**Name|id**`: mentions that name their user by id. */
const ID_MENTION = /@_?\*\*([^*]*)\|(\d+)\*\*/g;

/**
 * The users the content could mention: when every `@` of it starts a mention by id (as the
 * server's own notices write them), only those users; otherwise every active user of the realm.
 */
async function mentionableUsers(db: Db, realmId: number, content: string): Promise<{ id: number; full_name: string }[]> {
  if (content.replace(ID_MENTION, "").includes("@")) return (await usersOfRealm(db, realmId)).filter((u) => u.is_active === 1);
  const ids = [...content.matchAll(ID_MENTION)].map((m) => Number(m[2])).filter((id) => Number.isSafeInteger(id));
  return ids.length > 0 ? (await activeUserNames(db, realmId, ids)).sort((a, b) => a.id - b.id) : [];
}

async function realmRenderContext(db: Db, realmId: number, realmUrl: string, content: string): Promise<RenderContext> {
  const users = await mentionableUsers(db, realmId, content);
  const byName = new Map<string, { id: number; fullName: string }[]>();
  const byId = new Map<number, { id: number; fullName: string }>();
  for (const u of users) {
    const entry = { id: u.id, fullName: u.full_name };
    byId.set(u.id, entry);
    const key = u.full_name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), entry]);
  }
  const streams = new Map((await activeStreamsOfRealm(db, realmId)).map((s) => [s.name.toLowerCase(), { id: s.id, name: s.name }]));
  const groups = new Map<string, { id: number; name: string }>();
  const groupRows = await db.selectFrom("user_group").select(["id", "name"]).where("realm_id", "=", realmId).where("name", "is not", null).execute();
  for (const g of groupRows) if (g.name !== null) groups.set(g.name.toLowerCase(), { id: g.id, name: g.name });
  return {
    userByName: (name) => byName.get(name.toLowerCase()) ?? [],
    userById: (id) => byId.get(id),
    groupByName: (name) => groups.get(name.toLowerCase()),
    channelByName: (name) => streams.get(name.toLowerCase()),
    realmUrl,
  };
}
