import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { resetChannelAttachmentPublicity } from "../db/queries/attachments.js";
import type { RealmRow } from "../db/queries/realms.js";
import { groupOfRealm } from "../db/queries/user-groups.js";
import {
  addDefaultStream,
  administratorsGroupId,
  anyStreamByName,
  defaultStreamIds,
  activeStreamsByIds,
  insertStream,
  removeDefaultStream,
  streamById,
  updateStream,
  type StreamRow,
} from "../db/queries/streams.js";
import { subscriberIds } from "../db/queries/subscriptions.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import type { StreamEvent } from "../events/types.js";
import { adminRequired, badRequest, insufficientPermission, invalidUserGroup, invalidChannelId } from "../base/errors.js";
import { doRemoveChannelFromGroups } from "./default-stream-groups.js";
import { isAdmin, Role } from "../lib/users/roles.js";
import { activeRealmUsers, nonGuestRecipients, streamAudience, streamAudienceRecipients } from "../lib/channels/audience.js";
import { accessStreamById, accessStreamForUpdate, apiStream, checkStreamName, renderDescription } from "../lib/channels/streams.js";
import type { RealmGroups } from "../caches/groups.js";
import { newStreamEmailToken } from "../base/secrets.js";
import { canCreateStreams, canCreateWebPublicStreams, webPublicStreamsEnabled } from "../lib/channels/permissions.js";

/** The settings a new channel is created with (POST /users/me/subscriptions). */
export interface NewStream {
  name: string;
  description: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean | null;
  streamPostPolicy: number;
  messageRetentionDays: number | null;
  canRemoveSubscribersGroup: number | null;
}

/** Zulip's creation checks for one missing channel (list_to_streams), in Zulip's order. */
export function checkCanCreateStream(groups: RealmGroups, realm: RealmRow, user: UserRow, spec: NewStream, isDefault: boolean): void {
  if (!canCreateStreams(groups, realm, user, spec.inviteOnly)) throw insufficientPermission();
  if (isDefault && !isAdmin(user)) throw insufficientPermission();
  if (spec.inviteOnly && isDefault) throw badRequest("A default channel cannot be private.");
  if (spec.isWebPublic) {
    if (!webPublicStreamsEnabled(realm)) throw badRequest("Web-public channels are not enabled.");
    if (!canCreateWebPublicStreams(realm, user)) throw insufficientPermission();
  }
  if (spec.messageRetentionDays !== null && user.role !== Role.OWNER) throw badRequest("Must be an organization owner");
}

/**
 * Creates a channel. Sends stream create to those who can see it at once: all active users for
 * web-public, active non-guests for public, administrators for private (subscribers who are not
 * administrators learn of a private channel when they are subscribed).
 */
export async function doCreateStream(ctx: AppContext, tx: Db, outbox: Outbox, creator: UserRow, spec: NewStream): Promise<StreamRow> {
  return doCreateStreamIn(ctx, tx, outbox, creator.realm_id, creator.id, spec);
}

/** doCreateStream for a channel the server makes itself (no creator), as Zulip's ensure_stream does. */
export async function doCreateStreamIn(ctx: AppContext, tx: Db, outbox: Outbox, realmId: number, creatorId: number | null, spec: NewStream): Promise<StreamRow> {
  const history = spec.inviteOnly ? (spec.historyPublicToSubscribers ?? false) : true;
  const id = await insertStream(tx, {
    realm_id: realmId,
    name: spec.name,
    description: spec.description,
    rendered_description: renderDescription(spec.description, ctx.config.externalUrl),
    invite_only: spec.inviteOnly ? 1 : 0,
    is_web_public: spec.isWebPublic ? 1 : 0,
    history_public_to_subscribers: history ? 1 : 0,
    stream_post_policy: spec.streamPostPolicy,
    message_retention_days: spec.messageRetentionDays,
    can_remove_subscribers_group: spec.canRemoveSubscribersGroup ?? (await administratorsGroupId(tx, realmId)),
    date_created: ctx.clock.now(),
    creator_id: creatorId,
    first_message_id: null,
    deactivated: 0,
    email_token: newStreamEmailToken(),
  });
  const stream = await mustGetStream(tx, id);
  outbox.sendTo({ type: "stream", op: "create", streams: [apiStream(stream)] }, await streamAudienceRecipients(tx, stream, []));
  return stream;
}

/** Sends the realm's default channels, sorted by name, to its active non-guest users (notify_default_streams). */
export async function notifyDefaultStreams(tx: Db, outbox: Outbox, realmId: number): Promise<void> {
  const streams = await activeStreamsByIds(tx, await defaultStreamIds(tx, realmId));
  const sorted = streams.sort((a, b) => a.name.localeCompare(b.name)).map(apiStream);
  outbox.sendTo({ type: "default_streams", default_streams: sorted }, await nonGuestRecipients(tx, realmId));
}

/** POST /default_streams: administrators make a public channel default; default_streams to non-guests. */
export async function checkAddDefaultStream(ctx: AppContext, user: UserRow, streamId: number): Promise<void> {
  if (!isAdmin(user)) throw adminRequired();
  const { stream } = await accessStreamById(ctx.db, user, streamId);
  if (stream.invite_only) throw badRequest("Private channels cannot be made default.");
  await write(ctx, async (tx, outbox) => {
    if ((await defaultStreamIds(tx, user.realm_id)).includes(stream.id)) return;
    await addDefaultStream(tx, user.realm_id, stream.id);
    await notifyDefaultStreams(tx, outbox, user.realm_id);
  });
}

/** DELETE /default_streams: administrators remove a default channel; default_streams to non-guests. */
export async function checkRemoveDefaultStream(ctx: AppContext, user: UserRow, streamId: number): Promise<void> {
  if (!isAdmin(user)) throw adminRequired();
  const { stream } = await accessStreamById(ctx.db, user, streamId, { allowRealmAdmin: true });
  await write(ctx, async (tx, outbox) => {
    await removeDefaultStream(tx, user.realm_id, stream.id);
    await notifyDefaultStreams(tx, outbox, user.realm_id);
  });
}

/**
 * DELETE /streams/{id}: archives a channel. Zulip 9 frees the name by renaming the channel
 * `!DEACTIVATED:<name>`, makes it private and drops it from the default channels (default_streams
 * to non-guests) and from every default channel group (default_stream_groups for each). Then sends
 * stream delete (with the old name and privacy) to everyone who could see the channel before.
 */
export async function checkArchiveStream(ctx: AppContext, user: UserRow, streamId: number): Promise<void> {
  const { stream } = await accessStreamForUpdate(ctx.db, user, streamId);
  await write(ctx, async (tx, outbox) => {
    const users = await activeRealmUsers(tx, stream.realm_id);
    const subs = (await subscriberIds(tx, [stream.id])).get(stream.id) ?? [];
    const audience = streamAudience(users, stream, subs);
    let name = `!DEACTIVATED:${stream.name}`.slice(0, 60);
    for (let i = 0; i < 20 && (await anyStreamByName(tx, stream.realm_id, name)); i++) name = `!${name}`.slice(0, 60);
    const wasDefault = (await defaultStreamIds(tx, stream.realm_id)).includes(stream.id);
    await updateStream(tx, stream.id, { deactivated: 1, invite_only: 1, name, description: "", rendered_description: "" });
    await removeDefaultStream(tx, stream.realm_id, stream.id);
    if (wasDefault) await notifyDefaultStreams(tx, outbox, stream.realm_id);
    await doRemoveChannelFromGroups(tx, outbox, stream);
    outbox.send({ type: "stream", op: "delete", streams: [apiStream(stream)] }, audience);
  });
}

/** Everything PATCH /streams/{id} may change; undefined = leave as is. */
export interface StreamChanges {
  description?: string;
  newName?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  isDefaultStream?: boolean;
  streamPostPolicy?: number;
  messageRetentionDays?: number | null;
  canRemoveSubscribersGroup?: number;
}

/** PATCH /streams/{id}, with Zulip 9's checks; see applyStreamChanges for the events. */
export async function checkUpdateStream(ctx: AppContext, user: UserRow, streamId: number, changes: StreamChanges): Promise<void> {
  const { stream, sub } = await accessStreamForUpdate(ctx.db, user, streamId);
  const realm = await mustGetRealm(ctx, user.realm_id);
  const isPrivate = changes.isPrivate ?? stream.invite_only === 1;
  const isWebPublic = changes.isWebPublic ?? stream.is_web_public === 1;
  const isDefault = changes.isDefaultStream ?? (await defaultStreamIds(ctx.db, user.realm_id)).includes(stream.id);
  const history = changes.historyPublicToSubscribers ?? (changes.isPrivate !== undefined ? !changes.isPrivate : stream.history_public_to_subscribers === 1);
  if ((isWebPublic && !history) || (isWebPublic && isPrivate) || (!isPrivate && !history)) throw badRequest("Invalid parameters");
  if (isPrivate && isDefault) throw badRequest("A default channel cannot be private.");
  // Even administrators must be subscribed to change a private channel's privacy.
  if (changes.isPrivate !== undefined && stream.invite_only && !sub) throw invalidChannelId();
  if (changes.isWebPublic) {
    if (!webPublicStreamsEnabled(realm)) throw badRequest("Web-public channels are not enabled.");
    if (!canCreateWebPublicStreams(realm, user)) throw insufficientPermission();
  }
  if (changes.messageRetentionDays !== undefined && user.role !== Role.OWNER) throw badRequest("Must be an organization owner");
  let newName: string | undefined;
  if (changes.newName !== undefined) {
    newName = changes.newName.trim();
    if (newName === stream.name) throw badRequest("Channel already has that name.");
    checkStreamName(newName);
    if (newName.toLowerCase() !== stream.name.toLowerCase() && (await anyStreamByName(ctx.db, user.realm_id, newName))) {
      throw badRequest("Channel name already in use.");
    }
  }
  if (changes.canRemoveSubscribersGroup !== undefined) await checkSystemGroup(ctx.db, user.realm_id, changes.canRemoveSubscribersGroup);
  await write(ctx, (tx, outbox) =>
    applyStreamChanges(tx, outbox, stream, { ...changes, newName }, { isPrivate, isWebPublic, history }, ctx.config.externalUrl),
  );
}

/** A can_remove_subscribers_group value must name a system group of the realm (feature level 275). */
export async function checkSystemGroup(db: Db, realmId: number, groupId: number): Promise<void> {
  const group = await groupOfRealm(db, realmId, groupId);
  if (!group) throw invalidUserGroup();
  if (!group.is_system_group) throw badRequest("'can_remove_subscribers_group' must be a system user group.");
}

/**
 * Writes the changes and announces each as Zulip does, in its order: privacy (invite_only,
 * is_web_public, history_public_to_subscribers), default status, retention, description, name,
 * post policy (plus the legacy is_announcement_only), subscriber-removal group. Stream update
 * goes to everyone who can see the channel afterwards; users who gain sight of it get stream
 * create and peer_add for its subscribers first; users who lose it get stream delete.
 */
async function applyStreamChanges(
  tx: Db,
  outbox: Outbox,
  stream: StreamRow,
  changes: StreamChanges,
  perm: { isPrivate: boolean; isWebPublic: boolean; history: boolean },
  realmUrl: string,
): Promise<void> {
  const users = await activeRealmUsers(tx, stream.realm_id);
  const subs = (await subscriberIds(tx, [stream.id])).get(stream.id) ?? [];
  const before = new Set(streamAudience(users, stream, subs));
  let current = stream;
  const update = async (set: Parameters<typeof updateStream>[2], event: Omit<Extract<StreamEvent, { op: "update" }>, "type" | "op" | "stream_id" | "name">) => {
    const name = current.name;
    if (Object.keys(set).length > 0) await updateStream(tx, stream.id, set);
    current = await mustGetStream(tx, stream.id);
    const audience = streamAudience(users, current, subs);
    outbox.send({ type: "stream", op: "update", stream_id: stream.id, name, ...event }, audience);
  };
  if (changes.isPrivate !== undefined || changes.isWebPublic !== undefined || changes.historyPublicToSubscribers !== undefined) {
    const next = { ...stream, invite_only: perm.isPrivate ? 1 : 0, is_web_public: perm.isWebPublic ? 1 : 0, history_public_to_subscribers: perm.history ? 1 : 0 };
    const after = new Set(streamAudience(users, next, subs));
    const gained = [...after].filter((id) => !before.has(id));
    const lost = [...before].filter((id) => !after.has(id));
    outbox.send({ type: "stream", op: "create", streams: [apiStream(next)] }, gained);
    if (subs.length > 0) outbox.send({ type: "subscription", op: "peer_add", stream_ids: [stream.id], user_ids: [...subs] }, gained);
    outbox.send({ type: "stream", op: "delete", streams: [apiStream(stream)] }, lost);
    if (next.invite_only !== stream.invite_only) {
      await update({ invite_only: next.invite_only, is_web_public: next.is_web_public, history_public_to_subscribers: next.history_public_to_subscribers }, {
        property: "invite_only",
        value: perm.isPrivate,
        history_public_to_subscribers: perm.history,
        is_web_public: perm.isWebPublic,
      });
    }
    if (next.is_web_public !== current.is_web_public) await update({ is_web_public: next.is_web_public }, { property: "is_web_public", value: perm.isWebPublic });
    if (next.history_public_to_subscribers !== current.history_public_to_subscribers) {
      await update({ history_public_to_subscribers: next.history_public_to_subscribers }, { property: "history_public_to_subscribers", value: perm.history });
    }
    // Who may read the files its messages link follows (Zulip's do_change_stream_permission).
    if (next.invite_only !== stream.invite_only || next.is_web_public !== stream.is_web_public) await resetChannelAttachmentPublicity(tx, stream.id);
  }
  if (changes.isDefaultStream !== undefined) {
    if (changes.isDefaultStream) await addDefaultStream(tx, stream.realm_id, stream.id);
    else await removeDefaultStream(tx, stream.realm_id, stream.id);
    await notifyDefaultStreams(tx, outbox, stream.realm_id);
  }
  if (changes.messageRetentionDays !== undefined) {
    await update({ message_retention_days: changes.messageRetentionDays }, { property: "message_retention_days", value: changes.messageRetentionDays });
  }
  if (changes.description !== undefined) {
    const description = changes.description.replace(/\n/g, " ");
    const rendered = renderDescription(description, realmUrl);
    await update({ description, rendered_description: rendered }, { property: "description", value: description, rendered_description: rendered });
  }
  if (changes.newName !== undefined) await update({ name: changes.newName }, { property: "name", value: changes.newName });
  if (changes.streamPostPolicy !== undefined) {
    await update({ stream_post_policy: changes.streamPostPolicy }, { property: "stream_post_policy", value: changes.streamPostPolicy });
    await update({}, { property: "is_announcement_only", value: changes.streamPostPolicy === 2 });
  }
  if (changes.canRemoveSubscribersGroup !== undefined) {
    await update({ can_remove_subscribers_group: changes.canRemoveSubscribersGroup }, { property: "can_remove_subscribers_group", value: changes.canRemoveSubscribersGroup });
  }
}

/** The caller's realm, for its channel-creation policies. */
export async function mustGetRealm(ctx: AppContext, realmId: number): Promise<RealmRow> {
  const realm = await ctx.realms.get(realmId);
  if (!realm) throw new Error("realm vanished");
  return realm;
}

async function mustGetStream(tx: Db, id: number): Promise<StreamRow> {
  const stream = await streamById(tx, id);
  if (!stream) throw new Error("channel vanished");
  return stream;
}
