import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import {
  addChannelsToGroup,
  channelIdsOfGroups,
  defaultStreamGroupById,
  defaultStreamGroupByName,
  deleteDefaultStreamGroup,
  groupIdsWithChannel,
  insertDefaultStreamGroup,
  removeChannelsFromGroup,
  updateDefaultStreamGroup,
  type DefaultStreamGroupRow,
} from "../db/queries/default-stream-groups.js";
import { defaultStreamIds, type StreamRow } from "../db/queries/streams.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest } from "../base/errors.js";
import { checkGroupName, defaultStreamGroupDicts, MAX_GROUP_NAME_LENGTH } from "../lib/channels/default-stream-groups.js";
import { Role } from "../lib/users/roles.js";
import { activeRealmUsers } from "../lib/channels/audience.js";
import { accessStreamByName } from "../lib/channels/streams.js";

/**
 * Default channel groups (Zulip's default_streams actions). Callers have checked the
 * administrator role. Every change sends default_stream_groups (all of the realm's groups) to its
 * active non-guest users, who are the only ones to see them.
 */

/** POST /default_stream_groups/create, with Zulip's checks in Zulip's order. */
export async function checkCreateDefaultStreamGroup(ctx: AppContext, user: UserRow, name: string, description: string, channelNames: readonly string[]): Promise<void> {
  const channels = await accessChannels(ctx, user, channelNames);
  await write(ctx, async (tx, outbox) => {
    const defaults = new Set(await defaultStreamIds(tx, user.realm_id));
    for (const stream of channels) {
      if (defaults.has(stream.id)) throw badRequest(`'${stream.name}' is a default channel and cannot be added to '${name}'`);
    }
    checkGroupName(name);
    if (await defaultStreamGroupByName(tx, user.realm_id, name)) throw badRequest(`Default channel group '${name}' already exists`);
    const id = await insertDefaultStreamGroup(tx, user.realm_id, name, description);
    await addChannelsToGroup(tx, id, [...new Set(channels.map((s) => s.id))]);
    await notifyDefaultStreamGroups(tx, outbox, user.realm_id);
  });
}

/**
 * PATCH /default_stream_groups/{group_id}: a new name, then a new description, each announced
 * on its own as in Zulip. An empty value counts as not given; Zulip's only checks on a new name
 * are that it differs and is free (its column's 60-character limit and NUL ban are kept here
 * with the creation messages instead of failing in the database).
 */
export async function checkUpdateDefaultStreamGroup(
  ctx: AppContext,
  user: UserRow,
  groupId: number,
  changes: { name: string | undefined; description: string | undefined },
): Promise<void> {
  if (!changes.name && !changes.description) throw badRequest('You must pass "new_description" or "new_group_name".');
  await write(ctx, async (tx, outbox) => {
    const group = await accessGroup(tx, user.realm_id, groupId);
    if (changes.name !== undefined) {
      const name = changes.name;
      if (group.name === name) throw badRequest(`This default channel group is already named '${name}'`);
      if (await defaultStreamGroupByName(tx, user.realm_id, name)) throw badRequest(`Default channel group '${name}' already exists`);
      if ([...name].length > MAX_GROUP_NAME_LENGTH || name.includes("\0")) checkGroupName(name);
      await updateDefaultStreamGroup(tx, group.id, { name });
      await notifyDefaultStreamGroups(tx, outbox, user.realm_id);
    }
    if (changes.description !== undefined) {
      await updateDefaultStreamGroup(tx, group.id, { description: changes.description });
      await notifyDefaultStreamGroups(tx, outbox, user.realm_id);
    }
  });
}

/** PATCH /default_stream_groups/{group_id}/streams: op add or remove, by channel name. */
export async function checkUpdateDefaultStreamGroupChannels(ctx: AppContext, user: UserRow, groupId: number, op: string, channelNames: readonly string[]): Promise<void> {
  await accessGroup(ctx.db, user.realm_id, groupId);
  const channels = await accessChannels(ctx, user, channelNames);
  if (op !== "add" && op !== "remove") throw badRequest('Invalid value for "op". Specify one of "add" or "remove".');
  await write(ctx, async (tx, outbox) => {
    const group = await accessGroup(tx, user.realm_id, groupId);
    const members = new Set((await channelIdsOfGroups(tx, [group.id])).get(group.id) ?? []);
    if (op === "add") {
      const defaults = new Set(await defaultStreamIds(tx, user.realm_id));
      const added: number[] = [];
      for (const stream of channels) {
        if (defaults.has(stream.id)) throw badRequest(`'${stream.name}' is a default channel and cannot be added to '${group.name}'`);
        if (members.has(stream.id)) throw badRequest(`Channel '${stream.name}' is already present in default channel group '${group.name}'`);
        members.add(stream.id);
        added.push(stream.id);
      }
      await addChannelsToGroup(tx, group.id, added);
    } else {
      for (const stream of channels) {
        if (!members.has(stream.id)) throw badRequest(`Channel '${stream.name}' is not present in default channel group '${group.name}'`);
      }
      await removeChannelsFromGroup(tx, group.id, channels.map((s) => s.id));
    }
    await notifyDefaultStreamGroups(tx, outbox, user.realm_id);
  });
}

/** DELETE /default_stream_groups/{group_id}. */
export async function checkRemoveDefaultStreamGroup(ctx: AppContext, user: UserRow, groupId: number): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    const group = await accessGroup(tx, user.realm_id, groupId);
    await deleteDefaultStreamGroup(tx, group.id);
    await notifyDefaultStreamGroups(tx, outbox, user.realm_id);
  });
}

/**
 * Takes an archived channel out of every group that holds it, one default_stream_groups event
 * per group as Zulip sends them (part of archiving a channel).
 */
export async function doRemoveChannelFromGroups(tx: Db, outbox: Outbox, stream: StreamRow): Promise<void> {
  for (const groupId of await groupIdsWithChannel(tx, stream.id)) {
    await removeChannelsFromGroup(tx, groupId, [stream.id]);
    await notifyDefaultStreamGroups(tx, outbox, stream.realm_id);
  }
}

async function notifyDefaultStreamGroups(tx: Db, outbox: Outbox, realmId: number): Promise<void> {
  const groups = await defaultStreamGroupDicts(tx, realmId);
  const users = (await activeRealmUsers(tx, realmId)).filter((u) => u.role !== Role.GUEST);
  outbox.send({ type: "default_stream_groups", default_stream_groups: groups }, users.map((u) => u.id));
}

async function accessGroup(db: Db, realmId: number, groupId: number): Promise<DefaultStreamGroupRow> {
  const group = await defaultStreamGroupById(db, realmId, groupId);
  if (!group) throw badRequest(`Default channel group with id '${groupId}' does not exist.`);
  return group;
}

/** The named channels, each as access_stream_by_name finds it, in order. */
async function accessChannels(ctx: AppContext, user: UserRow, names: readonly string[]): Promise<StreamRow[]> {
  const out: StreamRow[] = [];
  for (const name of names) out.push((await accessStreamByName(ctx.db, user, name)).stream);
  return out;
}
